#!/usr/bin/env bash
# Regenerates the charts docs/accuracy.md and docs/realtime.md show, with the project's own
# `evaluate --svg`, from the shared data in place:
#   accuracy-caltrain-days.svg  Caltrain's recorded days (2024), each held out: per route and
#                               per day, per hour, and the arrival times (about 25 minutes);
#   accuracy-helsinki-legs.svg  every Helsinki phone leg, fix by fix (a few seconds).
# Usage: scripts/charts.sh [--slice] [FOLDER]   (default: docs; CI writes them to a scratch folder)
#   --slice  Caltrain on a slice of its recording (29 and 30 November, 15:00-19:00 as recorded),
#            each of those two days held out: the same commands and charts in about a minute,
#            so CI checks the script without the full run.
# TRAINTRACKER_TOOL=PATH uses that traintracker binary (CI's, built by the tests) instead of
# building one in release.
set -euo pipefail
cd "$(dirname "$0")/.."
slice=0
if [ "${1:-}" = --slice ]; then
    slice=1
    shift
fi
out=${1:-docs}
mkdir -p "$out"
tool=${TRAINTRACKER_TOOL:-}
if [ -z "$tool" ]; then
    swift build -c release --product traintracker >&2
    tool=.build/release/traintracker
fi
caltrain=../shared/data/caltrain-2024
helsinki=../shared/data/helsinki
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

recordings=("$caltrain/vehicle-positions-2024-10-15.sqlite" "$caltrain/vehicle-positions-2024-11-29.sqlite")
if [ $slice = 1 ]; then
    python3 - "$caltrain/vehicle-positions-2024-11-29.sqlite" "$work/slice.sqlite" <<'PY'
import sqlite3, sys
source, target = sys.argv[1], sys.argv[2]
out = sqlite3.connect(target, uri=True)
out.execute("ATTACH DATABASE ? AS source", ("file:" + source + "?mode=ro",))
schema = out.execute("SELECT sql FROM source.sqlite_master WHERE name = 'train_locations'").fetchone()[0]
out.execute(schema)
out.execute("""INSERT INTO train_locations SELECT * FROM source.train_locations
               WHERE substr(timestamp, 1, 10) IN ('2024-11-29', '2024-11-30')
               AND substr(timestamp, 12, 2) BETWEEN '15' AND '18'""")
out.commit()
PY
    recordings=("$work/slice.sqlite")
fi
arguments=()
for recording in "${recordings[@]}"; do arguments+=(--recording "$recording"); done

"$tool" evaluate --railways "$caltrain/gtfs" "${arguments[@]}" \
    --algorithm default --algorithm railway --algorithm schedule --hold-out day \
    --svg "$out/accuracy-caltrain-days.svg" > "$work/caltrain.txt"
grep '^default    all ' "$work/caltrain.txt" >&2

"$tool" import-sessions "$helsinki/device_data.csv" --utc-offset +03:00 --out "$work/phones.sqlite" > /dev/null
"$tool" evaluate --railways docs/helsinki/rail-lines-2016.json --stations "$helsinki/trainStations.json" \
    --track "$helsinki/hsl-2022/rail-metro-shapes.geojson" --sessions "$work/phones.sqlite" \
    --log "$helsinki/manual_log.csv" --utc-offset +03:00 --algorithm default --format json \
    --svg "$out/accuracy-helsinki-legs.svg" > /dev/null
echo "wrote $out/accuracy-caltrain-days.svg and $out/accuracy-helsinki-legs.svg" >&2
