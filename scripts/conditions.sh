#!/usr/bin/env bash
# The accuracy matrix (docs/accuracy.md, the phone kinds; docs/experiments/ for each seed): simulates every scenario under each condition
# (phones, maps, days, riders, urban canyons) on Tokyo and Caltrain, then scores the
# algorithms on all of them in one table per measure, with a heat map per network.
# Usage: scripts/conditions.sh SEED [COUNT] [algorithm ...]   (default: 3 rides per scenario; the
# default tracker; docs/accuracy.md's rows were measured with railway, the default then)
# Writes .build/conditions-SEED/{tokyo,caltrain}-*.txt and docs/conditions-{tokyo,caltrain}.svg
# (the SVGs only with --svg as the fourth word: scripts/conditions.sh 401 5 --svg default eki).
set -euo pipefail
cd "$(dirname "$0")/.."
seed=${1:?usage: scripts/conditions.sh SEED [COUNT] [--svg] [algorithm ...]}
count=${2:-3}
shift $(( $# >= 2 ? 2 : 1 ))
svg=false
if [ "${1:-}" = "--svg" ]; then svg=true; shift; fi
algorithms=("${@:-default}")
flags=(--untimed)
[ ${#algorithms[@]} -eq 0 ] && algorithms=(default eki)
for algorithm in "${algorithms[@]}"; do flags+=(--algorithm "$algorithm"); done
swift build -c release --product traintracker >&2
tool=.build/release/traintracker
tokyo=../shared/data/tokyo/mini-tokyo-3d
eki=../shared/data/tokyo/railway.sqlite
caltrain=../shared/data/gtfs/caltrain-2017-07-24
out=.build/conditions-$seed
mkdir -p "$out"

# name | simulate options (on the mini-tokyo-3d map unless the name ends in -other)
tokyo_conditions=(
    "good|--phone good" "noisy|--phone noisy" "sparse|--phone sparse" "background|--phone background"
    "good-shifted|--phone good --map shifted" "good-other|--phone good"
    "noisy-shifted|--phone noisy --map shifted" "sparse-shifted|--phone sparse --map shifted"
    "background-shifted|--phone background --map shifted" "background-other|--phone background"
    "good-disrupted|--phone good --day disrupted" "noisy-disrupted|--phone noisy --day disrupted"
    "sparse-disrupted|--phone sparse --day disrupted" "background-disrupted|--phone background --day disrupted"
    "good-lingers|--phone good --rider lingers" "background-lingers|--phone background --rider lingers"
    "good-canyons|--phone good --canyons" "background-canyons|--phone background --canyons"
    "movement|--phone movement" "jittery|--phone jittery" "bare|--phone bare" "quiet|--phone quiet"
    "good-held|--phone good --day held" "movement-held|--phone movement --day held"
    "jittery-held|--phone jittery --day held" "good-waits|--phone good --rider waits"
    "movement-waits|--phone movement --rider waits"
    "drifting|--phone drifting" "drifting-held|--phone drifting --day held" "gappy|--phone gappy"
    "good-signals|--phone good --signal-stops" "bare-signals|--phone bare --signal-stops"
    "good-platforms|--phone good --map platforms" "jittery-platforms|--phone jittery --map platforms"
)
caltrain_conditions=(
    "good|--phone good" "noisy|--phone noisy" "sparse|--phone sparse" "background|--phone background"
    "good-shifted|--phone good --map shifted" "background-shifted|--phone background --map shifted"
    "good-disrupted|--phone good --day disrupted" "background-disrupted|--phone background --day disrupted"
    "movement|--phone movement" "jittery|--phone jittery" "bare|--phone bare" "quiet|--phone quiet"
    "movement-held|--phone movement --day held" "good-waits|--phone good --rider waits"
    "drifting|--phone drifting" "gappy|--phone gappy" "good-signals|--phone good --signal-stops"
    "good-platforms|--phone good --map platforms"
)

simulate() { # network-name railways scenario-options conditions...
    local name=$1 railways=$2 scenario=$3
    shift 3
    local folders=()
    for entry in "$@"; do
        local condition=${entry%%|*} options=${entry#*|} source=$railways timetables=()
        if [[ $condition == *-other ]]; then source=$eki; timetables=(--timetables "$railways"); fi
        # shellcheck disable=SC2086
        "$tool" simulate --railways "$source" "${timetables[@]}" --out "$out/$name-$condition" $scenario \
            --count "$count" --seed "$seed" --force $options 2>/dev/null
        folders+=(--cases "$out/$name-$condition")
    done
    for measure in railway railway-alike direction focus next-stop eta locked lock-time decided; do
        local picture=()
        if $svg && { [ "$measure" = railway ] || [ "$measure" = next-stop ]; }; then
            picture=(--svg "docs/conditions-$name-$measure.svg")
        fi
        "$tool" evaluate --railways "$railways" "${folders[@]}" "${flags[@]}" --matrix "$measure" "${picture[@]}" \
            > "$out/$name-$measure.txt"
        echo "== $name: $measure (seed $seed, $count rides per scenario)"
        cat "$out/$name-$measure.txt"
    done
}

simulate tokyo "$tokyo" "--scenario all" "${tokyo_conditions[@]}"
simulate caltrain "$caltrain" "--scenario caltrain" "${caltrain_conditions[@]}"
