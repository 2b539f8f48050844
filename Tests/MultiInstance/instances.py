"""What the multi-instance tests share: `onward serve` processes on one PostgreSQL, nginx in front, and calls."""
import http.server
import importlib
import json
import pathlib
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
import uuid

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def missing(reason):
    if os.environ.get("ONWARD_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"multi-instance test cannot run: {reason}", pytrace=False)
    pytest.skip(f"multi-instance test skipped: {reason}")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def prerequisites(tools, modules, data):
    """The PostgreSQL URL the tests run on, once every tool (program: Debian package), Python module (module: PyPI
    package), the debug build and the data file are there; else skipped (or failed in CI) saying what is missing."""
    url = os.environ.get("ONWARD_TEST_POSTGRES_URL")
    if not url:
        missing("ONWARD_TEST_POSTGRES_URL is not set (Scripts/postgres.sh start FOLDER prints one)")
    for tool, package in tools.items():
        if not shutil.which(tool):
            missing(f"{tool} is not installed (apt-get install {package})")
    for module, package in modules.items():
        try:
            importlib.import_module(module)
        except ImportError:
            missing(f"{package} is not installed (pip install {package})")
    if not (ROOT / ".build" / "debug" / "onward").exists():
        pytest.fail("the debug build is missing: run `swift build --build-tests` first", pytrace=False)
    if not data.exists():
        pytest.skip(f"{data} is missing")
    return url


def in_schema(url, prefix):
    """A schema of its own for one test: (its name, the database URL that uses it)."""
    schema = prefix + uuid.uuid4().hex
    return schema, url + ("&" if "?" in url else "?") + "search_path=" + schema


def start_http(handler):
    """An HTTP server on a free port of this machine, in a thread of its own: (server, base URL)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def answer(handler, status, content_type, body):
    """A whole answer from a BaseHTTPRequestHandler."""
    handler.send_response(status)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


class Server:
    """`onward serve` (the debug build) on the shared database, with its log kept in a file."""

    def __init__(self, name, database_url, folder, args, env=None):
        self.name = name
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = folder / f"{name}.log"
        env = dict(os.environ, ONWARD_DATABASE_URL=database_url, ONWARD_TRUSTED_PROXIES="127.0.0.1",
                   ONWARD_POLL_INTERVAL="1", ONWARD_RATE_LIMIT="10000", ONWARD_RATE_BURST="10000", **(env or {}))
        data = folder / f"{name}-data"
        data.mkdir()
        with open(self.log_path, "w") as log:
            self.proc = subprocess.Popen([str(ROOT / ".build" / "debug" / "onward"), "serve", "--port", str(self.port),
                                          "--data-dir", str(data)] + args,
                                         stdout=log, stderr=subprocess.STDOUT, env=env)
        deadline = time.time() + 90
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/health/ready", timeout=2) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            if self.proc.poll() is not None or time.time() > deadline:
                pytest.fail(f"{name} did not start:\n{self.log()}")
            time.sleep(0.1)

    def log(self):
        return self.log_path.read_text(errors="replace")

    def leads(self, job="realtime"):
        return any("this server now leads" in line and f"job={job}" in line for line in self.log().splitlines())

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class Nginx:
    """nginx with two front ports: the first prefers server A (B as backup), the second B (A as backup)."""

    def __init__(self, a, b, folder):
        self.fronts = (free_port(), free_port())
        self.folder = folder

        def front(port, primary, backup):
            return f"""
    upstream to_{port} {{ server 127.0.0.1:{primary} max_fails=1 fail_timeout=30s; server 127.0.0.1:{backup} backup; }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://to_{port};
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_read_timeout 600s;
        }}
    }}"""

        conf = folder / "nginx.conf"
        conf.write_text(f"""
daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/nginx-error.log;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {folder}/client-body;
    proxy_temp_path {folder}/proxy;
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
    {front(self.fronts[0], a.port, b.port)}
    {front(self.fronts[1], b.port, a.port)}
}}
""")
        self.proc = subprocess.Popen(["nginx", "-c", str(conf), "-p", str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.time() + 10
        while not all(self._listening(p) for p in self.fronts):
            if self.proc.poll() is not None or time.time() > deadline:
                pytest.fail("nginx did not start: " + (folder / "nginx-error.log").read_text(errors="replace"))
            time.sleep(0.05)

    @staticmethod
    def _listening(port):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return True
        except OSError:
            return False

    def url(self, front):
        return f"http://127.0.0.1:{self.fronts[front]}"

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)


def call(base, method, path, body=None, token=None, timeout=5):
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as r:
            data = r.read()
            return r.status, json.loads(data) if data else None
    except urllib.error.HTTPError as e:
        data = e.read()
        try:
            return e.code, json.loads(data)
        except ValueError:
            return e.code, None


