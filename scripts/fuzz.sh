#!/usr/bin/env bash
# Fuzzes the readers of outside input with libFuzzer: CSV, GPX and GeoJSON journeys, GTFS,
# mini-tokyo-3d, SRTM tiles and peaks, the upload JSON of the live server, recordings of vehicle
# positions, rail-lines files, TrafficSense manual logs and GTFS-realtime feeds.
#
#   scripts/fuzz.sh [SECONDS] [TARGET ...]     each target for SECONDS (default 60), all by default
#
# Builds `traintracker-fuzz` (release, --sanitize=fuzzer) in .build-fuzz, seeds a corpus per
# target from ../shared/data (scripts/fuzz-seeds.py; read in place, kept under .build-fuzz),
# and runs each target in turn. A crash or a timeout leaves its input in .build-fuzz/findings
# and makes the script exit 1. The corpus grows from run to run.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(csv gpx geojson gtfs minitokyo3d srtm upload recording raillines manuallog realtime)
out=.build-fuzz

echo "building traintracker-fuzz (release, --sanitize=fuzzer)" >&2
TRAINTRACKER_FUZZ=1 swift build -c release --sanitize=fuzzer --scratch-path "$out" --product traintracker-fuzz >&2
python3 scripts/fuzz-seeds.py ../shared/data "$out"
mkdir -p "$out/findings"

failed=0
for target in "${targets[@]}"; do
    echo "fuzzing $target for $seconds s" >&2
    log="$out/findings/$target.log"
    # The Swift runtime's backtracer off, so libFuzzer catches a trap and keeps the input.
    if SWIFT_BACKTRACE=enable=no FUZZ_TARGET=$target FUZZ_WORK="$out/work" "$out/release/traintracker-fuzz" "$out/corpus/$target" \
        -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
        -artifact_prefix="$out/findings/$target-" > "$log" 2>&1; then
        runs=$(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}')
        echo "$target: clean, ${runs:-?} inputs in $seconds s" >&2
    else
        failed=1
        echo "$target: FINDING (see $log and $out/findings/$target-*)" >&2
        grep -m3 -E 'ERROR|Fatal error|deadly signal|timeout' "$log" >&2 || true
    fi
done
exit $failed
