#!/usr/bin/env bash
# Fuzzes the readers of outside input with libFuzzer: CSV, GPX and GeoJSON journeys, GTFS,
# mini-tokyo-3d, SRTM tiles and peaks, the upload JSON of the live server, recordings of vehicle
# positions, rail-lines files, TrafficSense manual logs and GTFS-realtime feeds.
#
#   scripts/fuzz.sh [--quick] [SECONDS] [TARGET ...]   each target for SECONDS (default 60), all by default
#
# Builds `traintracker-fuzz` (release, --sanitize=fuzzer: every module instrumented) in
# .build-fuzz, seeds a corpus per target from ../shared/data (scripts/fuzz-seeds.py; read in
# place, kept under .build-fuzz), and runs each target in turn. A crash or a timeout leaves its
# input in .build-fuzz/findings and makes the script exit 1. The corpus grows from run to run.
#
# --quick (CI's smoke run): only this package's modules instrumented, built in .build beside the
# tests' release build (`swift test -c release`), whose dependencies it reuses: minutes, not the
# half hour of a build of its own. Its corpus and findings are kept in .build/fuzz-quick. It
# leaves .build's own modules instrumented: the next build rebuilds them.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
if [ "${1:-}" = --quick ]; then
    quick=1
    shift
fi
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(csv gpx geojson gtfs minitokyo3d srtm upload recording raillines manuallog realtime)

if [ $quick = 1 ]; then
    out=.build/fuzz-quick
    clang=$(dirname "$(readlink -f "$(command -v swiftc)")")/../lib/clang
    no_main=$(find "$clang" -name 'libclang_rt.fuzzer_no_main-*.a' -print -quit 2> /dev/null)
    if [ -z "$no_main" ]; then
        echo "error: no libclang_rt.fuzzer_no_main archive under $clang (the toolchain's libFuzzer)" >&2
        exit 1
    fi
    echo "building traintracker-fuzz (release, this package's modules instrumented)" >&2
    # `swift test`, not `swift build --build-tests`: only the former builds with testable imports,
    # as the tests' build did. It runs no test (FuzzBuildTests has none).
    TRAINTRACKER_FUZZ=own TRAINTRACKER_FUZZ_NO_MAIN=$no_main swift test -c release >&2
    binary=.build/release/traintracker-fuzz
else
    out=.build-fuzz
    echo "building traintracker-fuzz (release, --sanitize=fuzzer)" >&2
    TRAINTRACKER_FUZZ=1 swift build -c release --sanitize=fuzzer --scratch-path "$out" --product traintracker-fuzz >&2
    binary=$out/release/traintracker-fuzz
fi
mkdir -p "$out"
python3 scripts/fuzz-seeds.py ../shared/data "$out"
mkdir -p "$out/findings"

# Each target writes only its own files in the work folder: FUZZ_JOBS of them run at once
# (default 1; 2 with --quick, one per core of CI's machine).
jobs=${FUZZ_JOBS:-$((quick + 1))}
fuzz() {
    local target=$1 log="$out/findings/$1.log" runs
    echo "fuzzing $target for $seconds s" >&2
    # The Swift runtime's backtracer off, so libFuzzer catches a trap and keeps the input.
    if SWIFT_BACKTRACE=enable=no FUZZ_TARGET=$target FUZZ_WORK="$out/work" "$binary" "$out/corpus/$target" \
        -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
        -artifact_prefix="$out/findings/$target-" > "$log" 2>&1; then
        runs=$(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}')
        echo "$target: clean, ${runs:-?} inputs in $seconds s" >&2
    else
        echo "$target: FINDING (see $log and $out/findings/$target-*)" >&2
        grep -m3 -E 'ERROR|Fatal error|deadly signal|timeout' "$log" >&2 || true
        return 1
    fi
}
failed=0
running=0
for target in "${targets[@]}"; do
    if [ $running -ge "$jobs" ]; then
        wait -n || failed=1
        running=$((running - 1))
    fi
    fuzz "$target" &
    running=$((running + 1))
done
while [ $running -gt 0 ]; do
    wait -n || failed=1
    running=$((running - 1))
done
exit $failed
