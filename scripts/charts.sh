#!/usr/bin/env bash
# Regenerates the charts docs/accuracy.md and docs/realtime.md show, with the project's own
# `evaluate --svg`, from the shared data in place:
#   accuracy-caltrain-days.svg  Caltrain's recorded days (2024), each held out: per route and
#                               per day, per hour, and the arrival times (about 15 minutes);
#   accuracy-helsinki-legs.svg  every Helsinki phone leg, fix by fix (a few seconds).
# Usage: scripts/charts.sh [FOLDER]   (default: docs; CI writes them to a scratch folder)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs}
mkdir -p "$out"
swift build -c release --product traintracker >&2
tool=.build/release/traintracker
caltrain=../shared/data/caltrain-2024
helsinki=../shared/data/helsinki
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$tool" evaluate --railways "$caltrain/gtfs" \
    --recording "$caltrain/vehicle-positions-2024-10-15.sqlite" \
    --recording "$caltrain/vehicle-positions-2024-11-29.sqlite" \
    --algorithm default --algorithm trips --algorithm schedule --hold-out day \
    --svg "$out/accuracy-caltrain-days.svg" > "$work/caltrain.txt"
grep '^default    all ' "$work/caltrain.txt" >&2

"$tool" import-sessions "$helsinki/device_data.csv" --utc-offset +03:00 --out "$work/phones.sqlite" > /dev/null
"$tool" evaluate --railways docs/helsinki/rail-lines-2016.json --stations "$helsinki/trainStations.json" \
    --track "$helsinki/hsl-2022/rail-metro-shapes.geojson" --sessions "$work/phones.sqlite" \
    --log "$helsinki/manual_log.csv" --utc-offset +03:00 --algorithm default --format json \
    --svg "$out/accuracy-helsinki-legs.svg" > /dev/null
echo "wrote $out/accuracy-caltrain-days.svg and $out/accuracy-helsinki-legs.svg" >&2
