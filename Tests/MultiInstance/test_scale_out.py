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
import pathlib
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.error

import pytest

from instances import ROOT, Nginx, Server, answer, call, in_schema, prerequisites, start_http
CAPTURE = ROOT.parent / "shared" / "data" / "gtfs-rt" / "halifax" / "TripUpdates-2025-11-06T2104Z.pb"


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
                answer(self, 200, "application/x-protobuf", body)

            def log_message(self, *args):
                pass

        self.server, base = start_http(Handler)
        self.url = base + "/rt/TripUpdates.pb"

    def requests_between(self, start, end):
        return sum(1 for t in list(self.times) if start <= t < end)


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
    url = prerequisites({"nginx": "nginx-light"}, {"websocket": "websocket-client"}, CAPTURE)
    schema, database_url = in_schema(url, "mi_")
    folder = pathlib.Path(tempfile.mkdtemp(prefix="onward-scale-out-"))
    upstream = Upstream(CAPTURE.read_bytes())
    started = []
    try:
        a = Server("a", database_url, folder, ["--realtime", upstream.url])
        started.append(a)
        # A polls and runs the commutes' clock first; B starts once A leads both, so which one leads is known.
        deadline = time.time() + 20
        while not (a.leads() and a.leads("commutes")):
            assert time.time() < deadline, "server a never took the lead:\n" + a.log()
            time.sleep(0.1)
        b = Server("b", database_url, folder, ["--realtime", upstream.url])
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
