#!/usr/bin/env bash
# Checks the feeds a publishing load run read (scripts/load.sh NAME --publish keeps each read in
# .build/load/NAME.feeds/) with gtfs-rt-validator against a GTFS folder: each message is
# renamed by its own header time (the validator's clock under --sort name), then both roles
# are replayed with --fail-on-error. Prints each role's messages and the notices by code and
# severity; exits non-zero on any error-severity notice.
# Usage: scripts/validate-published.sh NAME GTFS_FOLDER   (needs scripts/gtfs-rt-venv.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: scripts/validate-published.sh NAME GTFS_FOLDER}
gtfs=${2:?usage: scripts/validate-published.sh NAME GTFS_FOLDER}
python=$(scripts/gtfs-rt-venv.sh)
feeds=.build/load/$name.feeds
[ -d "$feeds" ] || { echo "error: $feeds: no such folder (run scripts/load.sh $name --publish first)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python" - "$gtfs" "$feeds" "$work" << 'PYTHON'
import datetime, os, sys, zipfile
from google.transit import gtfs_realtime_pb2
gtfs, feeds, work = sys.argv[1:]
with zipfile.ZipFile(os.path.join(work, "gtfs.zip"), "w") as archive:
    for name in sorted(os.listdir(gtfs)):
        archive.write(os.path.join(gtfs, name), name)
for role in ("trip-updates", "vehicle-positions"):
    os.makedirs(os.path.join(work, role))
    for name in sorted(os.listdir(os.path.join(feeds, role))):
        data = open(os.path.join(feeds, role, name), "rb").read()
        message = gtfs_realtime_pb2.FeedMessage()
        message.ParseFromString(data)
        stamp = datetime.datetime.fromtimestamp(message.header.timestamp, datetime.timezone.utc)
        # Two reads within one second say the same: the later one is kept.
        target = os.path.join(work, role, stamp.strftime(role + "-%Y-%m-%dT%H-%M-%SZ.pb"))
        open(target, "wb").write(data)
PYTHON
validator=$(dirname "$python")/gtfs-rt-validator
status=0
for role in trip-updates vehicle-positions; do
    "$validator" -gtfs "$work/gtfs.zip" -rt "$work/$role" --sort name --out "$work/report-$role" --fail-on-error \
        | grep -v '^wrote ' || status=1
    "$python" - "$work/report-$role" << 'PYTHON'
import json, os, sys
for name in ("report.json", "system_errors.json"):
    for notice in json.load(open(os.path.join(sys.argv[1], name))).get("notices", []):
        print(f"  {notice['severity']} {notice['code']}: {notice['totalNotices']}")
PYTHON
done
exit $status
