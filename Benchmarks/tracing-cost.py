#!/usr/bin/env python3
"""What tracing costs a request: `onward serve` (release build) on the bundled network under wrk, with spans off
(no trace_endpoint, the default), and on (every request, and its database and upstream calls, a span exported
over OTLP/HTTP to a collector on this machine that takes them and throws them away). Optionally an older binary
too (--baseline), to show that with spans off the request path costs what it did before tracing existed.

    Benchmarks/tracing-cost.py [--onward /work/.build-release/release/onward] [--baseline OLD_ONWARD]
                               [--rounds 4] [--seconds 8] [--connections 16]

The configurations take turns, round after round (the machine is noisy; turns spread the noise evenly), on the
departures board (`/api/v1/stops/SLBB/departures?limit=10`) and on `/api/v1/me/routes` with a signed-in person
(a database read per request). It prints each configuration's median requests/s and p99 latency.
"""
import argparse
import http.server
import json
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[1]


class Sink(http.server.BaseHTTPRequestHandler):
    """An OTLP/HTTP collector that counts what it is sent and keeps none of it."""
    received = 0

    def do_POST(self):
        Sink.received += int(self.headers.get("Content-Length", 0))
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def start(binary, port, work, env):
    data = work / f"data-{port}"
    shutil.rmtree(data, ignore_errors=True)
    proc = subprocess.Popen([binary, "serve", "--port", str(port), "--data-dir", str(data)],
                            stdout=subprocess.DEVNULL, stderr=open(work / f"log-{port}", "w"),
                            env=dict(os.environ, ONWARD_RATE_LIMIT="100000", ONWARD_RATE_BURST="1000000", ONWARD_LOG_LEVEL="warning", **env))
    deadline = time.time() + 60
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health/ready", timeout=1)
            return proc
        except OSError:
            if time.time() > deadline:
                proc.kill()
                raise SystemExit(f"{binary} did not start: " + (work / f"log-{port}").read_text()[-2000:])
            time.sleep(0.1)


def sign_up(port):
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/accounts", method="POST",
                                     data=json.dumps({"username": f"bench{port}", "password": "correct horse battery"}).encode(),
                                     headers={"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(request).read())["token"]


def wrk(url, seconds, connections, header=None):
    args = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", url]
    if header:
        args[1:1] = ["-H", header]
    out = subprocess.run(args, capture_output=True, text=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1])
    p99 = re.search(r"\n\s+99%\s+([\d.]+)(us|ms|s)", out)
    scale = {"us": 0.001, "ms": 1, "s": 1000}[p99[2]]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        raise SystemExit(f"{errors[1]} failed requests:\n{out}")
    return rps, float(p99[1]) * scale


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--onward", default="/work/.build-release/release/onward")
    p.add_argument("--baseline")
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--seconds", type=int, default=8)
    p.add_argument("--connections", type=int, default=16)
    p.add_argument("--off-only", action="store_true", help="leave out spans on (compare with --baseline alone)")
    a = p.parse_args()
    sink = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Sink)
    threading.Thread(target=sink.serve_forever, daemon=True).start()
    configurations = [("spans off", a.onward, {}),
                      ("spans on", a.onward, {"ONWARD_TRACE_ENDPOINT": f"http://127.0.0.1:{sink.server_address[1]}"})]
    if a.off_only:
        configurations.pop()
    if a.baseline:
        configurations.insert(0, ("before tracing", a.baseline, {}))
    work = pathlib.Path(tempfile.mkdtemp(prefix="onward-tracing-cost-"))
    results = {name: {"board": [], "routes": []} for name, _, _ in configurations}
    try:
        for round_ in range(a.rounds):
            for i, (name, binary, env) in enumerate(configurations):
                port = 8300 + i
                proc = start(binary, port, work, env)
                try:
                    token = sign_up(port)
                    base = f"http://127.0.0.1:{port}"
                    results[name]["board"].append(wrk(base + "/api/v1/stops/SLBB/departures?limit=10", a.seconds, a.connections))
                    results[name]["routes"].append(wrk(base + "/api/v1/me/routes", a.seconds, a.connections, f"Authorization: Bearer {token}"))
                finally:
                    proc.terminate()
                    proc.wait(timeout=20)
            print(f"round {round_ + 1} of {a.rounds} done", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"\n{'configuration':<16} {'board req/s':>12} {'board p99 ms':>13} {'routes req/s':>13} {'routes p99 ms':>14}")
    for name, _, _ in configurations:
        r = results[name]
        print(f"{name:<16} {statistics.median(x[0] for x in r['board']):>12.0f} {statistics.median(x[1] for x in r['board']):>13.2f} "
              f"{statistics.median(x[0] for x in r['routes']):>13.0f} {statistics.median(x[1] for x in r['routes']):>14.2f}")
    print(f"\nspans received by the collector: {Sink.received / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
