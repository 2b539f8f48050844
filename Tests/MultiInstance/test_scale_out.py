"""Two `onward serve` processes on one PostgreSQL behind nginx, as a city's operator runs them.

A person's phone reaches one server and their laptop the other (two nginx front ports, each with
the other server as its backup). Under a steady load of writes, the server that polls the realtime
upstream and holds the phone's connection is killed with SIGKILL. Then: every write it acknowledged
is in the database, the other server polls the upstream (which was never polled twice at once), and
the phone reconnects through the same front and stays in sync with the laptop.

Needs ONWARD_TEST_POSTGRES_URL (Scripts/test.sh starts a throwaway cluster), nginx (Debian's
nginx-light) and websocket-client; skipped with a message without them, unless
ONWARD_REQUIRE_POSTGRES=1 (CI), when that is a failure.
"""
import http.server
import json
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CAPTURE = ROOT.parent / "shared" / "data" / "gtfs-rt" / "halifax" / "TripUpdates-2025-11-06T2104Z.pb"


def _missing(reason):
    if os.environ.get("ONWARD_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"multi-instance test cannot run: {reason}", pytrace=False)
    pytest.skip(f"multi-instance test skipped: {reason}")


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Upstream:
    """A GTFS-Realtime source over real HTTP that counts its requests (with the time of each)."""

    def __init__(self, body):
        self.times = []
        lock = threading.Lock()
        times = self.times

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                with lock:
                    times.append(time.monotonic())
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/rt/TripUpdates.pb"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def requests_between(self, start, end):
        return sum(1 for t in list(self.times) if start <= t < end)


class Server:
    """`onward serve` (the debug build) on the shared database, with its log kept in a file."""

    def __init__(self, name, database_url, upstream, folder):
        self.name = name
        self.port = _free_port()
        self.log_path = folder / f"{name}.log"
        env = dict(os.environ, ONWARD_DATABASE_URL=database_url, ONWARD_TRUSTED_PROXIES="127.0.0.1",
                   ONWARD_POLL_INTERVAL="1", ONWARD_RATE_LIMIT="10000", ONWARD_RATE_BURST="10000")
        data = folder / f"{name}-data"
        data.mkdir()
        with open(self.log_path, "w") as log:
            self.proc = subprocess.Popen([str(ROOT / ".build" / "debug" / "onward"), "serve", "--port", str(self.port),
                                          "--data-dir", str(data), "--realtime", upstream.url],
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
        self.fronts = (_free_port(), _free_port())
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


def routes_socket(front_url, token):
    import websocket
    ws = websocket.create_connection(front_url.replace("http://", "ws://") + "/live?me", timeout=10,
                                     header=[f"Authorization: Bearer {token}"])
    return ws


def next_routes(ws):
    while True:
        message = json.loads(ws.recv())
        if message.get("type") == "routes":
            return message


@pytest.fixture
def cluster():
    url = os.environ.get("ONWARD_TEST_POSTGRES_URL")
    if not url:
        _missing("ONWARD_TEST_POSTGRES_URL is not set (Scripts/postgres.sh start FOLDER prints one)")
    if not shutil.which("nginx"):
        _missing("nginx is not installed (apt-get install nginx-light)")
    try:
        import websocket  # noqa: F401
    except ImportError:
        _missing("websocket-client is not installed (pip install websocket-client)")
    if not (ROOT / ".build" / "debug" / "onward").exists():
        pytest.fail("the debug build is missing: run `swift build --build-tests` first", pytrace=False)
    if not CAPTURE.exists():
        pytest.skip(f"{CAPTURE} is missing")
    schema = "mi_" + uuid.uuid4().hex
    database_url = url + ("&" if "?" in url else "?") + "search_path=" + schema
    folder = pathlib.Path(tempfile.mkdtemp(prefix="onward-scale-out-"))
    upstream = Upstream(CAPTURE.read_bytes())
    started = []
    try:
        a = Server("a", database_url, upstream, folder)
        started.append(a)
        # A polls and runs the commutes' clock first; B starts once A leads both, so which one leads is known.
        deadline = time.time() + 20
        while not (a.leads() and a.leads("commutes")):
            assert time.time() < deadline, "server a never took the lead:\n" + a.log()
            time.sleep(0.1)
        b = Server("b", database_url, upstream, folder)
        started.append(b)
        nginx = Nginx(a, b, folder)
        started.append(nginx)
        yield a, b, nginx, upstream
    finally:
        for thing in reversed(started):
            thing.stop()
        upstream.server.shutdown()
        subprocess.run(["psql", "-q", url, "-c", f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


def test_two_servers_one_database_survive_a_sigkill(cluster):
    a, b, nginx, upstream = cluster
    phone_front, laptop_front = nginx.url(0), nginx.url(1)

    # Signed up through the phone's front (server a); the token works on both servers.
    status, signed = call(phone_front, "POST", "/api/v1/accounts", {"username": "ana", "password": "correct horse battery"})
    assert status == 201
    token = signed["token"]
    assert call(laptop_front, "GET", "/api/v1/me", token=token)[0] == 200

    # The phone on a, the laptop on b: a change from the laptop reaches the phone live.
    phone = routes_socket(phone_front, token)
    assert next_routes(phone)["version"] == 0
    status, _ = call(laptop_front, "POST", "/api/v1/me/routes",
                     {"version": 0, "route": {"kind": "board", "stopId": "SBKM", "to": "SBHI"}}, token=token)
    assert status == 201
    started = time.monotonic()
    assert next_routes(phone)["version"] == 1
    assert time.monotonic() - started < 1.0

    # The upstream is polled once a second by one server, not by both.
    assert not b.leads()
    window_start = time.monotonic()
    time.sleep(4)
    polled = upstream.requests_between(window_start, time.monotonic())
    assert 2 <= polled <= 6, f"{polled} requests in 4 s with a poll interval of 1 s"

    # A simulated commute started through the phone's front (server a, whose clock runs the commutes).
    status, commute = call(phone_front, "POST", "/api/v1/commutes", {"from": "SLBB", "to": "SBHI", "simulate": True, "speed": 600})
    assert status == 201
    assert a.leads("commutes") and not b.leads("commutes")

    # A trip whose chat is the load: messages posted through the phone's front (server a) without pause.
    status, trip = call(phone_front, "POST", "/api/v1/trips",
                        {"name": "Scale-out", "endsAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 86_400))},
                        token=token)
    assert status == 201
    acknowledged, failed = [], []
    stop = threading.Event()

    def load():
        n = 0
        while not stop.is_set():
            n += 1
            text = f"message {n}"
            try:
                status, _ = call(phone_front, "POST", f"/api/v1/chat/trip:{trip['id']}", {"text": text}, token=token, timeout=5)
            except (OSError, urllib.error.URLError):
                status = 0
            (acknowledged if status == 201 else failed).append(text)

    writer = threading.Thread(target=load)
    writer.start()
    while len(acknowledged) < 50:
        time.sleep(0.01)
    # Killed mid-load: no clean shutdown.
    a.kill()
    killed_at = time.monotonic()
    while len(acknowledged) < 100:
        assert time.monotonic() - killed_at < 30, f"the load stopped after the kill: {len(failed)} failed"
        time.sleep(0.01)
    stop.set()
    writer.join()

    # Every write that was acknowledged is there, once, read through the other front.
    status, page = call(laptop_front, "GET", f"/api/v1/chat/trip:{trip['id']}?limit=100", token=token)
    assert status == 200
    texts = [m["text"] for m in page["messages"]]
    while page.get("more"):
        status, page = call(laptop_front, "GET", f"/api/v1/chat/trip:{trip['id']}?limit=100&before={page['messages'][0]['sequence']}", token=token)
        texts = [m["text"] for m in page["messages"]] + texts
    missing = [t for t in acknowledged if t not in texts]
    assert not missing, f"acknowledged but lost: {missing}"
    assert len(texts) == len(set(texts))

    # Server b takes over polling within seconds, and the upstream still sees one client.
    deadline = time.monotonic() + 10
    while not b.leads():
        assert time.monotonic() < deadline, "server b never took over polling:\n" + b.log()
        time.sleep(0.1)
    taken_over = time.monotonic()
    # The commute goes on: read through the same front (now server b), whose clock has taken over.
    assert call(phone_front, "GET", f"/api/v1/commutes/{commute['id']}")[0] == 200
    deadline = time.monotonic() + 10
    while not b.leads("commutes"):
        assert time.monotonic() < deadline, "server b never took over the commutes' clock:\n" + b.log()
        time.sleep(0.1)
    time.sleep(4)
    polled = upstream.requests_between(taken_over, time.monotonic())
    assert 2 <= polled <= 6, f"{polled} requests in 4 s after the takeover"

    # The phone's connection died with server a; it reconnects through the same front (now server b),
    # gets the current state, and hears the laptop's next change.
    with pytest.raises(Exception):
        while True:
            phone.recv()
    phone = routes_socket(phone_front, token)
    assert next_routes(phone)["version"] == 1
    status, _ = call(laptop_front, "POST", "/api/v1/me/routes",
                     {"version": 1, "route": {"kind": "board", "stopId": "SBHI", "to": "SBKM"}}, token=token)
    assert status == 201
    assert next_routes(phone)["version"] == 2
    phone.close()
    print(f"\nscale-out: {len(acknowledged)} chat writes acknowledged, {len(failed)} failed at the kill, none lost; "
          f"takeover {taken_over - killed_at:.1f} s after SIGKILL")
