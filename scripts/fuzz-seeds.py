#!/usr/bin/env python3
"""Prepares the fuzzers' work folders and seed corpora from ../shared/data (read in place,
never copied into the repository): scripts/fuzz.sh runs it into .build-fuzz/."""
import csv, io, json, os, shutil, sys, zipfile

shared, out = sys.argv[1], sys.argv[2]
work, corpus = os.path.join(out, "work"), os.path.join(out, "corpus")

def seed(target, name, data):
    folder = os.path.join(corpus, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as handle:
        handle.write(data if isinstance(data, bytes) else data.encode())

# Journeys: real phone fixes from the Helsinki dataset, as CSV, GPX and GeoJSON.
with open(os.path.join(shared, "helsinki", "device_data.csv"), newline="") as handle:
    rows = [row for _, row in zip(range(400), csv.DictReader(handle))]
header = 'time,lat,lng,accuracy\n'
seed("csv", "helsinki.csv", header + "".join(f'{r["time"]},{r["lat"]},{r["lng"]},{r["accuracy"]}\n' for r in rows[:150]))
seed("csv", "helsinki-quoted.csv", open(os.path.join(shared, "helsinki", "device_data.csv")).read(6000).rsplit("\n", 1)[0] + "\n")
points = "".join(
    f'<trkpt lat="{r["lat"]}" lon="{r["lng"]}"><time>{r["time"].replace(" ", "T")}Z</time></trkpt>' for r in rows[:120])
seed("gpx", "helsinki.gpx", f'<?xml version="1.0"?><gpx version="1.1" creator="seed"><trk><name>ride</name><trkseg>{points}</trkseg></trk></gpx>')
features = [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [float(r["lng"]), float(r["lat"])]},
             "properties": {"time": r["time"].replace(" ", "T") + "Z", "accuracy": float(r["accuracy"])}} for r in rows[:80]]
seed("geojson", "points.geojson", json.dumps({"type": "FeatureCollection", "features": features}))
line = {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[float(r["lng"]), float(r["lat"])] for r in rows[:80]]},
        "properties": {"coordTimes": [r["time"].replace(" ", "T") + "Z" for r in rows[:80]]}}
seed("geojson", "line.geojson", json.dumps(line))

# GTFS: Caltrain's feed, cut to its first trips, is the base; each seed replaces one file.
gtfs_source = os.path.join(shared, "gtfs", "caltrain-2017-07-24")
gtfs = os.path.join(work, "gtfs")
shutil.rmtree(gtfs, ignore_errors=True)
os.makedirs(gtfs)
trips = open(os.path.join(gtfs_source, "trips.txt")).read().splitlines()
kept_trips = trips[:1] + trips[1:13]
trip_ids = {t.split(",")[0] for t in kept_trips[1:]} | {t.split(",")[2] for t in kept_trips[1:] if len(t.split(",")) > 2}
for name in os.listdir(gtfs_source):
    text = open(os.path.join(gtfs_source, name)).read()
    if name == "trips.txt":
        text = "\n".join(kept_trips) + "\n"
    elif name == "stop_times.txt":
        lines = text.splitlines()
        text = "\n".join(lines[:1] + [l for l in lines[1:] if l.split(",")[0] in trip_ids][:400]) + "\n"
    open(os.path.join(gtfs, name), "w").write(text)
files = ["routes.txt", "stops.txt", "trips.txt", "stop_times.txt", "shapes.txt", "calendar.txt", "directions.txt"]
for index, name in enumerate(files):
    path = os.path.join(gtfs, name)
    if os.path.exists(path):
        seed("gtfs", name, bytes([index]) + open(path, "rb").read()[:20000])
buffer = io.BytesIO()
with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
    for name in os.listdir(gtfs):
        archive.write(os.path.join(gtfs, name), name)
seed("gtfs", "feed.zip", bytes([7]) + buffer.getvalue())

# mini-tokyo-3d: one short railway with its stations, track and trains.
mt3d_source = os.path.join(shared, "tokyo", "mini-tokyo-3d")
mt3d = os.path.join(work, "minitokyo3d")
shutil.rmtree(mt3d, ignore_errors=True)
os.makedirs(os.path.join(mt3d, "train-timetables"))
railway = "Keio.Dobutsuen"
railways = [r for r in json.load(open(os.path.join(mt3d_source, "railways.json"))) if r["id"] == railway]
stations = [s for s in json.load(open(os.path.join(mt3d_source, "stations.json"))) if s["id"].startswith(railway + ".")]
coordinates = json.load(open(os.path.join(mt3d_source, "coordinates.json")))
coordinates = {"railways": [c for c in coordinates["railways"] if c["id"] == railway], "airways": []}
trains = json.load(open(os.path.join(mt3d_source, "train-timetables", "keio-dobutsuen.json")))[:20]
parts = {
    "railways.json": railways, "stations.json": stations, "coordinates.json": coordinates,
    "train-types.json": json.load(open(os.path.join(mt3d_source, "train-types.json"))),
    "rail-directions.json": json.load(open(os.path.join(mt3d_source, "rail-directions.json"))),
    "train-timetables/keio-dobutsuen.json": trains,
}
for index, (name, value) in enumerate(parts.items()):
    text = json.dumps(value, ensure_ascii=False)
    open(os.path.join(mt3d, name), "w").write(text)
    seed("minitokyo3d", name.replace("/", "-"), bytes([index]) + text.encode())

# Terrain: a real tile, zipped and raw, and the Andorra peaks.
dem = os.path.join(shared, "dem")
with zipfile.ZipFile(os.path.join(dem, "N42E001.hgt.zip")) as archive:
    raw = archive.read(archive.namelist()[0])
seed("srtm", "tile.hgt", bytes([0]) + raw)
seed("srtm", "tile.hgt.zip", bytes([1]) + open(os.path.join(dem, "N42E001.hgt.zip"), "rb").read())
seed("srtm", "peaks.geojson", bytes([2]) + open(os.path.join(dem, "andorra-peaks.geojson"), "rb").read())

# Upload bodies: the Helsinki fixes as a phone would send them.
fixes = [{"id": f"h-{i}", "latitude": float(r["lat"]), "longitude": float(r["lng"]),
          "timestamp": r["time"].replace(" ", "T") + "Z", "horizontalAccuracy": float(r["accuracy"]), "speed": -1, "course": -1}
         for i, r in enumerate(rows[:200])]
seed("upload", "helsinki.json", json.dumps({"locations": fixes}))
seed("upload", "epoch.json", json.dumps({"locations": [{"id": "e", "latitude": 60.2, "longitude": 24.8, "timestamp": 1472202000}]}))
os.makedirs(work, exist_ok=True)

# Recordings: Caltrain's 2024 positions as a CSV, on the feed they ran on (linked, not copied).
import sqlite3
def link(source, name):
    target = os.path.join(work, name)
    if os.path.lexists(target):
        os.remove(target)
    os.symlink(os.path.abspath(source), target)
link(os.path.join(shared, "caltrain-2024", "gtfs"), "caltrain-2024-gtfs")
database = sqlite3.connect("file:" + os.path.join(shared, "caltrain-2024", "vehicle-positions-2024-11-29.sqlite") + "?mode=ro", uri=True)
rows = database.execute("SELECT trip_id, vehicle_lat, vehicle_lon, timestamp FROM train_locations ORDER BY trip_id, timestamp LIMIT 300").fetchall()
seed("recording", "caltrain.csv", "trip_id,latitude,longitude,timestamp\n" + "".join(f"{t},{a},{o},{s}\n" for t, a, o, s in rows))
seed("recording", "local-times.csv", "trip_id,latitude,longitude,timestamp,zone\n" + "".join(
    f"{t},{a},{o},2024-11-29 08:{i % 60:02d}:00,America/Los_Angeles\n" for i, (t, a, o, s) in enumerate(rows[:60])))

# Rail lines and the manual log: the repository's Helsinki lines, the shared station list and log.
repository = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
link(os.path.join(repository, "docs", "helsinki", "rail-lines-2016.json"), "rail-lines-2016.json")
link(os.path.join(shared, "helsinki", "trainStations.json"), "trainStations.json")
lines = json.load(open(os.path.join(repository, "docs", "helsinki", "rail-lines-2016.json")))
lines["lines"] = [line for line in lines["lines"] if line["kind"] == "metro"]
seed("raillines", "metro.json", json.dumps(lines, ensure_ascii=False))
seed("raillines", "ring.json", json.dumps({"stations": [
    {"code": c, "name": c, "latitude": 60.1 + 0.01 * (i % 3), "longitude": 24.9 + 0.01 * (i // 3)} for i, c in enumerate("ABCDE")],
    "lines": [{"name": "I", "kind": "train", "stations": list("ABCDEA"), "bothWays": False},
              {"name": "P", "kind": "train", "stations": list("AEDCBA"), "bothWays": False}]}))
seed("manuallog", "manual_log.csv", open(os.path.join(shared, "helsinki", "manual_log.csv"), encoding="utf-8").read())

# GTFS-realtime: a feed message of Caltrain trips from the recording, encoded by hand (field
# numbers of gtfs-realtime.proto): trip updates with delays, a cancelled trip, vehicle positions.
import struct
def varint(value):
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)
def field(number, wire, payload):
    key = varint(number << 3 | wire)
    if wire == 0:
        return key + varint(payload)
    if wire == 5:
        return key + struct.pack("<f", payload)
    return key + varint(len(payload)) + payload
def text(number, value):
    return field(number, 2, value.encode())
stamp = int(rows[0][3]) if str(rows[0][3]).isdigit() else 1732910400
entities = b""
for index, (trip, latitude, longitude, _) in enumerate(rows[:40:8]):
    descriptor = text(1, str(trip)) + (field(4, 0, 3) if index == 1 else b"")
    update = field(1, 2, descriptor) + field(5, 0, (120 * index) & 0xFFFFFFFF) + field(4, 0, stamp)
    entities += field(2, 2, text(1, f"t{index}") + field(3, 2, update))
    position = field(1, 5, float(latitude)) + field(2, 5, float(longitude))
    vehicle = field(1, 2, text(1, str(trip))) + field(2, 2, position) + field(5, 0, stamp)
    entities += field(2, 2, text(1, f"v{index}") + field(4, 2, vehicle))
header = text(1, "2.0") + field(3, 0, stamp)
seed("realtime", "caltrain.pb", field(1, 2, header) + entities)
seed("realtime", "empty.pb", field(1, 2, header))
