#!/usr/bin/env bash
# Reproduces docs/experiments/2026-11-22-default-against-eki.md: simulates the named scenarios (10 rides each, seed 2026) on
# the Tokyo network with the mini-tokyo-3d timetables and on Caltrain, then scores the
# algorithms on them.
# Usage: scripts/accuracy.sh [algorithm ...]   (default: eki; the experiment compared railway and eki,
# railway being the default tracker then)
set -euo pipefail
cd "$(dirname "$0")/.."
algorithms=("${@:-eki}")
flags=()
for algorithm in "${algorithms[@]}"; do flags+=(--algorithm "$algorithm"); done
swift build -c release --product traintracker >&2
tool=.build/release/traintracker
tokyo=../shared/data/tokyo/mini-tokyo-3d
caltrain=../shared/data/gtfs/caltrain-2017-07-24
rm -rf .build/cases-tokyo .build/cases-caltrain
"$tool" simulate --railways "$tokyo" --out .build/cases-tokyo --scenario all --count 10 --seed 2026 >&2
"$tool" simulate --railways "$caltrain" --out .build/cases-caltrain --scenario caltrain --count 10 --seed 2026 >&2
echo "Tokyo"
"$tool" evaluate --railways "$tokyo" --cases .build/cases-tokyo "${flags[@]}" --svg docs/accuracy-tokyo.svg
echo
echo "Caltrain"
"$tool" evaluate --railways "$caltrain" --cases .build/cases-caltrain "${flags[@]}" --svg docs/accuracy-caltrain.svg
