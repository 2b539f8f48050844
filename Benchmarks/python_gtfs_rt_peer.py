"""Peer figure for `onward-bench realtime`: the C-backed (upb) Python bindings
decoding the Halifax trip-updates capture, lazily and reading every stop time update.

    pip install gtfs-realtime-bindings
    python3 Benchmarks/python_gtfs_rt_peer.py [CAPTURE]
"""
import statistics
import sys
import time

from google.protobuf.internal import api_implementation
from google.transit import gtfs_realtime_pb2

path = sys.argv[1] if len(sys.argv) > 1 else "../shared/data/gtfs-rt/halifax/TripUpdates-2025-11-06T2104Z.pb"
data = open(path, "rb").read()


def lazy():
    m = gtfs_realtime_pb2.FeedMessage()
    m.ParseFromString(data)
    return len(m.entity)


def full():
    m = gtfs_realtime_pb2.FeedMessage()
    m.ParseFromString(data)
    n = 0
    for e in m.entity:
        tu = e.trip_update
        _ = tu.trip.trip_id, tu.trip.start_date
        for s in tu.stop_time_update:
            _ = s.stop_sequence, s.stop_id, s.arrival.time, s.departure.time, s.schedule_relationship
            n += 1
    return n


for name, fn in (("decode (lazy)", lazy), ("decode + read every stop time update", full)):
    for _ in range(3):
        fn()
    samples = []
    for _ in range(30):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    print(f"python {api_implementation.Type()} {name}: median {statistics.median(samples) * 1e3:.2f} ms over {len(samples)} runs")
