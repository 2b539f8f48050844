#!/usr/bin/env python3
"""The server's departures JSON and board page against a bare Hummingbird route serving the same bytes, side by side:
the ratios of issue 26, item 5.

    Benchmarks/route-ratios.py [--build /work/.build-release] [--rounds 5] [--seconds 8] [--connections 64]

Starts `onward serve --simulate` and two `onward-load bare` servers (no middleware; one answering with the departures
body the server gave, one with the board page's), all at once on their own ports, each on both cores. Then, round after
round, wrk runs for --seconds against the server's departures, the bare departures, the server's page and the bare
page, in turn, so that each ratio compares runs seconds apart on the same machine state (this machine's throughput
moves by a fifth from one minute to the next). Prints each round's requests/s and ratios, and the median ratio. The
per-client rate limit is lifted for the run. Nothing it writes is kept.
"""
import argparse
import os
import pathlib
import re
import statistics
import subprocess
import tempfile
import urllib.request

from processes import free_port, stop, wait

ROOT = pathlib.Path(__file__).resolve().parents[1]
DEPARTURES = "/api/v1/stops/SLBB/departures?limit=10"
PAGE = "/stops/SLBB"


def wrk(url, a):
    out = subprocess.run(["wrk", "-t2", f"-c{a.connections}", f"-d{a.seconds}s", url], capture_output=True, text=True).stdout
    if "Non-2xx" in out:
        raise SystemExit(f"non-2xx answers from {url}:\n{out}")
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", default=str(ROOT.parent / ".build-release"))
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--seconds", type=int, default=8)
    p.add_argument("--connections", type=int, default=64)
    a = p.parse_args()
    onward, load = pathlib.Path(a.build) / "release/onward", pathlib.Path(a.build) / "release/onward-load"
    folder = pathlib.Path(tempfile.mkdtemp(prefix="onward-ratios-"))
    procs = []
    try:
        port = free_port()
        env = dict(os.environ, ONWARD_RATE_LIMIT="100000", ONWARD_RATE_BURST="100000")
        log = folder / "serve.log"
        server = subprocess.Popen([onward, "serve", "--simulate", "--port", str(port), "--data-dir", str(folder / "data")],
                                  stdout=open(log, "w"), stderr=subprocess.STDOUT, env=env)
        procs.append(server)
        base = f"http://127.0.0.1:{port}"
        wait(base + "/health/ready", server, log)
        bare = {}
        for name, path, kind in [("departures", DEPARTURES, "application/json"), ("page", PAGE, "text/html; charset=utf-8")]:
            body = folder / name
            with urllib.request.urlopen(base + path) as r:
                body.write_bytes(r.read())
            bare_port = free_port()
            bare_log = folder / f"bare-{name}.log"
            proc = subprocess.Popen([load, "bare", "--port", str(bare_port), "--body", str(body), "--content-type", kind],
                                    stdout=open(bare_log, "w"), stderr=subprocess.STDOUT)
            procs.append(proc)
            wait(f"http://127.0.0.1:{bare_port}/", proc, bare_log)
            bare[name] = f"http://127.0.0.1:{bare_port}/"
            print(f"{name}: {body.stat().st_size} bytes")
        # A warm-up of each, not counted.
        for url in [base + DEPARTURES, bare["departures"], base + PAGE, bare["page"]]:
            subprocess.run(["wrk", "-t2", f"-c{a.connections}", "-d2s", url], capture_output=True)
        ratios = {"departures": [], "page": []}
        print(f"wrk -t2 -c{a.connections} -d{a.seconds}s, {os.cpu_count()} cores; requests/s")
        for n in range(a.rounds):
            line = []
            for name, path in [("departures", DEPARTURES), ("page", PAGE)]:
                ours, floor = wrk(base + path, a), wrk(bare[name], a)
                ratios[name].append(ours / floor)
                line.append(f"{name} {ours:8.0f} / bare {floor:8.0f} = {ours / floor:.3f}")
            print(f"  round {n + 1}: " + "   ".join(line))
        for name, target in [("departures", 0.80), ("page", 0.85)]:
            m = statistics.median(ratios[name])
            print(f"median ratio, {name}: {m:.3f} (target ≥ {target}: {'met' if m >= target else 'NOT MET'}); "
                  f"range {min(ratios[name]):.3f}–{max(ratios[name]):.3f}")
    finally:
        stop(procs, folder, seconds=20)


if __name__ == "__main__":
    main()
