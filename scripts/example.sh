#!/usr/bin/env bash
# Builds and runs the library example (Examples/RideAlong) as an app developer would: imports
# Tokyo with its timetables, simulates one ride that goes underground, exports it as GPX, and
# rides along. Fails unless the ride shows answers, estimates in the tunnel, and resumes from
# its snapshot with the same answer.
# Usage: scripts/example.sh [configuration]   (debug by default, as CI builds the example)
# TRAINTRACKER_TOOL=PATH prepares the ride with that traintracker binary (CI's, built by the
# tests) instead of building one.
set -euo pipefail
cd "$(dirname "$0")/.."
configuration=${1:-debug}
work=.build/example
rm -rf "$work" && mkdir -p "$work"
tool=${TRAINTRACKER_TOOL:-}
if [ -z "$tool" ]; then
    swift build -c "$configuration" --product traintracker >&2
    tool=.build/$configuration/traintracker
fi
"$tool" import ../shared/data/tokyo/mini-tokyo-3d --out "$work/tokyo.sqlite"
"$tool" simulate --railways "$work/tokyo.sqlite" --out "$work/sim" --scenario underground --count 1 --seed 7 >&2
"$tool" export --railways "$work/tokyo.sqlite" --sessions "$work/sim/sessions.sqlite" --out "$work/ride.gpx"
swift build -c "$configuration" --package-path Examples/RideAlong >&2
Examples/RideAlong/.build/$configuration/RideAlong "$work/tokyo.sqlite" "$work/ride.gpx" 9 | tee "$work/ride.txt"
grep -q "· Next: " "$work/ride.txt"
grep -q "(estimated)" "$work/ride.txt"
grep -q "resumed, the same answer" "$work/ride.txt"
