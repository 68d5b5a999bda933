#!/usr/bin/env python3
"""How close is the riders' feed to the operator's? For every riders' feed (`recording-feed
--riders`) and every trip update in it, the delay against the operator's feed of the same
minute (`recording-feed`); prints the updates, the share of trains then running, the share
off by more than 60 and 120 s, the median and the 99th percentile. docs/realtime.md's table
and docs/experiments/2026-11-28-riders-aboard-rule.md report the figures.

Usage (the Python of scripts/gtfs-rt-venv.sh has the bindings):
  traintracker recording-feed --railways GTFS --recording FILE --out OPERATOR
  traintracker recording-feed --riders --railways GTFS --recording FILE --out RIDERS
  .build/gtfs-rt-venv/bin/python scripts/compare-riders.py RIDERS OPERATOR
"""
import glob, os, sys
from google.transit import gtfs_realtime_pb2 as pb

def delays(folder):  # feed time -> {trip id: delay or None}
    out = {}
    for path in glob.glob(os.path.join(folder, "feed-*.pb")):
        message = pb.FeedMessage(); message.ParseFromString(open(path, "rb").read())
        out[message.header.timestamp] = {e.trip_update.trip.trip_id:
            e.trip_update.delay if e.trip_update.HasField("delay") else None
            for e in message.entity if e.HasField("trip_update")}
    return out

riders, operator = delays(sys.argv[1]), delays(sys.argv[2])
updates = running = 0; off = []
for time, trips in riders.items():
    for trip, delay in trips.items():
        updates += 1
        if trip in operator.get(time, {}):
            running += 1
            if delay is not None and operator[time][trip] is not None:
                off.append(abs(delay - operator[time][trip]))
off.sort(); n = len(off)
print(f"{updates} trip updates, {100 * running / updates:.1f} % of trains then running; "
      f"off > 60 s {100 * sum(d > 60 for d in off) / n:.1f} %, > 120 s {100 * sum(d > 120 for d in off) / n:.1f} %, "
      f"median {off[n // 2]} s, 99th percentile {off[int(n * .99)]} s")
