#!/usr/bin/env bash
# Reproduces the performance figures of docs/performance.md: builds in release, writes a session file of
# ten simulated rides on real Tokyo track (1 Hz, 8 m GPS noise, every station served),
# then runs `traintracker bench` on it, with the default tracker and with the railway tracker alone.
# Usage: scripts/bench.sh [sessions-file]   (default: .build/bench-sessions.sqlite)
set -euo pipefail
cd "$(dirname "$0")/.."
railways=../shared/data/tokyo/railway.sqlite
sessions=${1:-.build/bench-sessions.sqlite}
swift build -c release --product traintracker >&2
tool=.build/release/traintracker
if [ ! -f "$sessions" ]; then
    rides=(
        "Tokyu.Toyoko Shibuya Yokohama" "Tokyu.Meguro Meguro Hiyoshi" "JR-East.KeihinTohokuNegishi Omiya Ofuna"
        "JR-East.Tokaido Tokyo Odawara" "JR-East.ChuoRapid Tokyo Takao" "JR-East.Yamanote Osaki Shinagawa"
        "JR-East.SobuRapid Tokyo Chiba" "TokyoMetro.Ginza Asakusa Shibuya" "Odakyu.Odawara Shinjuku SagamiOno"
        "Keio.Keio Shinjuku KeioHachioji"
    )
    seed=0
    for ride in "${rides[@]}"; do
        set -- $ride
        seed=$((seed + 1))
        append=(); [ $seed -gt 1 ] && append=(--append)
        "$tool" journey --railways "$railways" --railway "$1" --from "$1.$2" --to "$1.$3" --noise 8 --seed $seed \
            --start "2025-09-20T0$((seed % 10)):00:00Z" --out "$sessions" "${append[@]}"
    done
fi
# The default tracker, then the railway tracker alone (docs/performance.md gives both).
for algorithm in default railway; do
    "$tool" bench --railways "$railways" --sessions "$sessions" --minimum-seconds 5 --algorithm "$algorithm"
done
