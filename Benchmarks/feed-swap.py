#!/usr/bin/env python3
"""A new timetable swapped into a running `onward serve` under load: the figures of issue 25.

    Benchmarks/feed-swap.py [--onward .build-release/release/onward] [--feed HALIFAX_ZIP] [--folder FEED_FOLDER]
                            [--seconds 30] [--connections 8]

With --feed (a GTFS zip; Halifax by default): version 1 is the zip with its calendars (and feed_info) moved on to
end in two years' time (a feed that has ended is not taken in place of one in service); version 2 is version 1 with
every trip renamed. Both are served over HTTP on this machine (Python's http.server, which answers conditional
requests), and the server is given the URL.
With --folder (a GTFS folder, e.g. the 10-million-row feed `onward-bench synth` writes): the server is given the
folder, and version 2 is the folder with one more calendar exception, re-read when its files change.

Then: wrk for --seconds on the departures board of the feed's first stop and on GET /health/ready, the same again
with version 2 swapped in a third of the way through, and the server's peak and current resident memory
(VmHWM, VmRSS) before and after. It prints the wrk summaries side by side and the server's own log lines for the
swap (import, keep and swap seconds). Nothing it writes is kept: a temporary folder holds the versions and data.
"""
import argparse
import csv
import http.server
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[1]
# The versions are made as the multi-instance test makes them.
sys.path.insert(0, str(ROOT / "Tests" / "MultiInstance"))
import feed_versions  # noqa: E402


def versions_from_zip(src, folder):
    """v1: the calendars ending two years on; v2: v1 with every trip renamed."""
    files = feed_versions.moved_on(feed_versions.read(src))
    feed_versions.write(folder / "v1.zip", files)
    feed_versions.write(folder / "v2.zip", feed_versions.renamed(files, "-v2"))
    return feed_versions.first_stop(files)


def serve_folder(folder):
    handler = lambda *a, **k: http.server.SimpleHTTPRequestHandler(*a, directory=str(folder), **k)  # noqa: E731
    http.server.SimpleHTTPRequestHandler.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def memory(pid):
    status = pathlib.Path(f"/proc/{pid}/status").read_text()
    return {k: int(re.search(rf"{k}:\s+(\d+)", status).group(1)) // 1024 for k in ("VmHWM", "VmRSS")}


def wrk(url, seconds, connections):
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", url], capture_output=True, text=True).stdout
    pick = lambda pattern: (re.search(pattern, out) or [None, "?"])[1]  # noqa: E731
    errors = re.search(r"(Non-2xx or 3xx responses: \d+|Socket errors: [^\n]+)", out)
    return {"requests/s": pick(r"Requests/sec:\s+([\d.]+)"), "p50": pick(r"\n\s+50%\s+(\S+)"), "p99": pick(r"\n\s+99%\s+(\S+)"),
            "max": pick(r"Latency\s+\S+\s+\S+\s+(\S+)"), "errors": errors[1] if errors else "none"}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--onward", default=str(ROOT / ".build-release/release/onward"))
    p.add_argument("--feed", default=str(ROOT.parent / "shared/data/gtfs/halifax-transit-2025-08.zip"))
    p.add_argument("--folder")
    p.add_argument("--seconds", type=int, default=30)
    p.add_argument("--connections", type=int, default=8)
    p.add_argument("--port", type=int, default=8197)
    a = p.parse_args()
    work = pathlib.Path(tempfile.mkdtemp(prefix="onward-feed-swap-"))
    token = "feed-swap-benchmark-token"
    try:
        if a.folder:
            feed = work / "feed"
            shutil.copytree(a.folder, feed)
            small = {n: (feed / n).read_bytes() for n in ("calendar.txt", "feed_info.txt") if (feed / n).exists()}
            small = feed_versions.moved_on(small)
            for n, data in small.items():
                (feed / n).write_bytes(data)
            first_stop = next(csv.DictReader(open(feed / "stops.txt", encoding="utf-8-sig")))["stop_id"]
            location = f"big={feed}"
            name = "big"
        else:
            first_stop = versions_from_zip(a.feed, work)
            shutil.copy(work / "v1.zip", work / "gtfs.zip")
            files = serve_folder(work)
            location = f"halifax=http://127.0.0.1:{files.server_address[1]}/gtfs.zip"
            name = "halifax"
        log = open(work / "serve.log", "w")
        started = time.monotonic()
        server = subprocess.Popen([a.onward, "serve", "--port", str(a.port), "--data-dir", str(work / "data"), "--feed", location,
                                   # A folder is looked at every 10 s while a schedule runs; a URL only when asked.
                                   "--feed-refresh", "3600" if a.folder else "0", "--log-level", "notice"],
                                  stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ, ONWARD_OPERATOR_TOKEN=token,
                                           # One client measuring, not a crowd: the per-client limit would answer 429.
                                           ONWARD_RATE_LIMIT="100000", ONWARD_RATE_BURST="1000000"))
        base = f"http://127.0.0.1:{a.port}"
        while True:
            try:
                urllib.request.urlopen(base + "/health/live", timeout=1)
                break
            except OSError:
                if server.poll() is not None:
                    raise SystemExit("the server did not start:\n" + (work / "serve.log").read_text())
                time.sleep(0.2)
        print(f"ready after {time.monotonic() - started:.1f} s; memory (MB) {memory(server.pid)}")
        board = f"{base}/api/v1/stops/{name}:{first_stop}/departures?limit=10"
        quiet = wrk(board, a.seconds, a.connections)
        print(f"memory (MB) after a run with no swap: {memory(server.pid)}")

        def swap():
            time.sleep(a.seconds / 3)
            if a.folder:
                with open(feed / "calendar_dates.txt", "a") as f:
                    f.write("\n")
                # The folder's signature is its files' latest time and total size: a line more changes both.
                os.utime(feed / "calendar_dates.txt")
            else:
                shutil.copy(work / "v2.zip", work / "gtfs.zip")
                request = urllib.request.Request(base + "/api/v1/feeds/refresh", method="POST", headers={"Authorization": f"Bearer {token}"})
                print("refresh answered:", json.load(urllib.request.urlopen(request, timeout=600))["accepted"])

        t = threading.Thread(target=swap)
        t.start()
        during = wrk(board, a.seconds, a.connections)
        t.join()
        print(f"memory (MB) after the swap: {memory(server.pid)}")
        print(f"{'':16}{'no swap':>14}{'swap':>14}")
        for k in quiet:
            print(f"{k:16}{quiet[k]:>14}{during[k]:>14}")
        server.terminate()
        server.wait(timeout=30)
        for line in (work / "serve.log").read_text().splitlines():
            if "accepted a new version" in line or "in service" in line or "refused" in line:
                print(line[:260])
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
