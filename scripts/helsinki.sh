#!/usr/bin/env bash
# Scores the tracker on the Helsinki phones (TrafficSense, 2016-08-26) on HSL's real track:
# the 2016 metro and commuter lines of docs/helsinki/rail-lines-2016.json, their track cut
# from HSL's 2022 rail and metro shapes, every SUBWAY and TRAIN leg of the manual log.
# Prints the evaluation as JSON: per leg and in total, counts ("score") and shares ("shares":
# "line" is the share of each leg's fixes after its first two minutes that name its line).
# Writes the legs' picture to docs/accuracy-helsinki-legs.svg.
# Usage: scripts/helsinki.sh [algorithm ...]   (default: default)
set -euo pipefail
cd "$(dirname "$0")/.."
algorithms=("${@:-default}")
flags=()
for algorithm in "${algorithms[@]}"; do flags+=(--algorithm "$algorithm"); done
swift build -c release --product traintracker >&2
tool=.build/release/traintracker
helsinki=../shared/data/helsinki
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$tool" import-sessions "$helsinki/device_data.csv" --utc-offset +03:00 --out "$work/phones.sqlite" >&2
"$tool" evaluate --railways docs/helsinki/rail-lines-2016.json --stations "$helsinki/trainStations.json" \
    --track "$helsinki/hsl-2022/rail-metro-shapes.geojson" --sessions "$work/phones.sqlite" \
    --log "$helsinki/manual_log.csv" --utc-offset +03:00 "${flags[@]}" --format json \
    --svg docs/accuracy-helsinki-legs.svg
