#!/usr/bin/env python3
"""Planning capacity with one and two `onward serve` instances behind nginx: the figures of issue 26, item 7.

    Benchmarks/planning-scale-out.py --snapshot NAT.onward --stops STOPS.list --date 2026-03-04
                                     [--onward .build-release/release/onward] [--seconds 20] [--connections 16]

Each instance serves the same snapshot (`onward import` of `onward-bench synth --national`, say) from its own data
folder; each holds the whole timetable and plans on its own cores (the planning budget: one plan per core at once).
nginx (one worker) gives two fronts: one to instance A alone, one spreading requests over A and B in turn. wrk runs
`Benchmarks/journeys.lua` (random pairs from STOPS at random times) for --seconds against A directly, the A-only
front and the A+B front, and the script prints requests/s, p50, p99 and non-2xx answers for each, and each
instance's resident memory (VmRSS) once its planner is built. With --pin, A runs on core 0 and B on core 1 (taskset),
so that one instance with one core is compared with two with one each; wrk and nginx share the same cores. The per-client rate limit is lifted for the run, as a
load test from one address needs. Nothing it writes is kept.
"""
import argparse
import json
import os
import pathlib
import re
import subprocess
import tempfile
import time
import urllib.request

from processes import free_port, stop, wait

ROOT = pathlib.Path(__file__).resolve().parents[1]


def rss_mb(pid):
    return int(re.search(r"VmRSS:\s+(\d+)", pathlib.Path(f"/proc/{pid}/status").read_text()).group(1)) // 1024


def start(onward, snapshot, folder, name, cpu=None):
    port = free_port()
    env = dict(os.environ, ONWARD_RATE_LIMIT="100000", ONWARD_RATE_BURST="100000", ONWARD_LOG_LEVEL="warning")
    log = open(folder / f"{name}.log", "w")
    # Pinned to one core, an instance sees one (its affinity: `Cores.available`) and plans one journey at a time.
    pin = ["taskset", "-c", cpu] if cpu else []
    proc = subprocess.Popen(pin + [onward, "serve", "--port", str(port), "--data-dir", str(folder / name), "--feed", str(snapshot)],
                            stdout=log, stderr=subprocess.STDOUT, env=env)
    wait(f"http://127.0.0.1:{port}/health/ready", proc, folder / f"{name}.log", seconds=120)
    return proc, port


def nginx(folder, a, b):
    fronts = (free_port(), free_port())
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
    upstream one {{ server 127.0.0.1:{a}; keepalive 32; }}
    upstream two {{ server 127.0.0.1:{a}; server 127.0.0.1:{b}; keepalive 32; }}
    server {{ listen 127.0.0.1:{fronts[0]}; location / {{ proxy_pass http://one; proxy_http_version 1.1; proxy_set_header Connection ""; }} }}
    server {{ listen 127.0.0.1:{fronts[1]}; location / {{ proxy_pass http://two; proxy_http_version 1.1; proxy_set_header Connection ""; }} }}
}}
""")
    proc = subprocess.Popen(["nginx", "-c", str(conf), "-p", str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    time.sleep(0.5)
    return proc, fronts


def wrk(url, a):
    env = dict(os.environ, STOPS=str(a.stops), JOURNEY_DATE=a.date)
    out = subprocess.run(["wrk", "-t2", f"-c{a.connections}", f"-d{a.seconds}s", "--latency", "-s", str(ROOT / "Benchmarks/journeys.lua"), url],
                         capture_output=True, text=True, env=env).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    def percentile(p):
        m = re.search(rf"\s{p}%\s+([\d.]+)(us|ms|s)", out)
        return float(m.group(1)) * {"us": 0.001, "ms": 1, "s": 1000}[m.group(2)] if m else float("nan")
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return rate, percentile(50), percentile(99), int(non2xx.group(1)) if non2xx else 0


def warm(port, a):
    first = pathlib.Path(a.stops).read_text().split()[:2]
    url = f"http://127.0.0.1:{port}/api/v1/journeys?from={first[0]}&to={first[1]}&date={a.date}&time=08:00"
    with urllib.request.urlopen(url, timeout=120) as r:
        json.load(r)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--onward", default=str(ROOT.parent / ".build-release/release/onward"))
    p.add_argument("--snapshot", required=True)
    p.add_argument("--stops", required=True)
    p.add_argument("--date", required=True)
    p.add_argument("--seconds", type=int, default=20)
    p.add_argument("--connections", type=int, default=16)
    p.add_argument("--pin", action="store_true", help="A on core 0 and B on core 1: how two instances scale when each has a core")
    a = p.parse_args()
    folder = pathlib.Path(tempfile.mkdtemp(prefix="onward-scale-out-"))
    procs = []
    try:
        (A, pa) = start(a.onward, a.snapshot, folder, "a", "0" if a.pin else None)
        (B, pb) = start(a.onward, a.snapshot, folder, "b", "1" if a.pin else None)
        procs += [A, B]
        warm(pa, a)
        warm(pb, a)
        print(f"resident memory with the planner built: A {rss_mb(A.pid)} MB, B {rss_mb(B.pid)} MB")
        ngx, fronts = nginx(folder, pa, pb)
        procs.append(ngx)
        print(f"wrk -t2 -c{a.connections} -d{a.seconds}s, planJourney between random stops ({os.cpu_count()} cores"
              + ("; A on core 0, B on core 1)" if a.pin else "; each instance on both)"))
        for name, url in [("A directly", f"http://127.0.0.1:{pa}"), ("nginx → A", f"http://127.0.0.1:{fronts[0]}"),
                          ("nginx → A + B", f"http://127.0.0.1:{fronts[1]}")]:
            # wrk stops with its last requests still planned or waiting (at most 18 per instance, at about 70 a second);
            # they would take the next run's first places, and the refusals that follow are answered in microseconds.
            time.sleep(5)
            rate, p50, p99, refused = wrk(url, a)
            print(f"  {name:14} {rate:8.1f} req/s   p50 {p50:7.1f} ms   p99 {p99:7.1f} ms   non-2xx {refused}")
            errors = (folder / "nginx-error.log").read_text(errors="replace").splitlines()
            if errors:
                print("    nginx says: " + errors[-1][:300])
        print(f"resident memory after: A {rss_mb(A.pid)} MB, B {rss_mb(B.pid)} MB")
    finally:
        stop(procs, folder)


if __name__ == "__main__":
    main()
