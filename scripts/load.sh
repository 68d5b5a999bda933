#!/usr/bin/env bash
# The server under load, as docs/server.md's "Several instances" reports it: a PostgreSQL of its own
# (fsync on, as in production), one or two `traintracker serve` instances on loopback, and
# `traintracker load --verify` against them; with --kill-after, the first instance is
# SIGKILLed that many seconds into the stream and the other carries on.
# Writes .build/load/NAME.json (the load's report) and NAME.svg (its timeline).
# Usage: scripts/load.sh NAME [--store postgres|sqlite] [--instances 1|2] [--phones N]
#        [--seconds S] [--upload-every S] [--split affinity|round-robin] [--kill-after S]
#        [--devices N] [--riders-per-train N] [--publish] [--sessions FILE --clock-from TIME]
# Riders as sensors: --devices gives the phones N device tokens in turn, --riders-per-train
# puts that many phones on each train, --publish runs the servers' realtime clock from the
# rides' own day (serve --realtime-clock-from, so their fixes count as live riders) and reads
# both published feeds every second during the run (status, bytes and time to NAME.feed.txt;
# each feed read kept in NAME.feeds/, for gtfs-rt-validator). --sessions rides the sessions of
# a file instead of simulated Tokyo rides (RAILWAYS=... names their network; --clock-from
# their day, with --publish). The servers run the railway tracker alone, as when the figures
# were measured (LOAD_ALGORITHM=default runs the default tracker, about 8 times the cost a fix).
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: scripts/load.sh NAME [options]}
shift
store=postgres instances=2 phones=2000 seconds=30 every=5 split=affinity kill_after=
devices=1 riders=1 publish= sessions= clock_from=2025-09-22T06:00:00Z
while [ $# -gt 0 ]; do
    case "$1" in
    --publish) publish=1; shift; continue ;;
    --devices) devices=$2 ;;
    --sessions) sessions=$2 ;;
    --clock-from) clock_from=$2 ;;
    --riders-per-train) riders=$2 ;;
    --store) store=$2 ;;
    --instances) instances=$2 ;;
    --phones) phones=$2 ;;
    --seconds) seconds=$2 ;;
    --upload-every) every=$2 ;;
    --split) split=$2 ;;
    --kill-after) kill_after=$2 ;;
    *) echo "error: unknown option $1" >&2; exit 2 ;;
    esac
    shift 2
done
tool=.build/release/traintracker
[ -x "$tool" ] || { echo "error: build first: swift build -c release --product traintracker" >&2; exit 1; }
railways=${RAILWAYS:-../shared/data/tokyo/mini-tokyo-3d}
out=.build/load && mkdir -p "$out"
work=$(mktemp -d) && chmod 755 "$work"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null || true; done
    wait 2> /dev/null || true
    [ "$store" = postgres ] && TRAINTRACKER_TEST_POSTGRES_DIR=$work/pg scripts/test-postgres.sh stop
    rm -rf "$work"
}
trap cleanup EXIT
if [ "$store" = postgres ]; then
    db=$(TRAINTRACKER_TEST_POSTGRES_DIR=$work/pg TRAINTRACKER_TEST_POSTGRES_FSYNC=on scripts/test-postgres.sh start)
else
    db=$work/sessions.sqlite
fi
admin=$("$tool" token create --db "$db" --admin --name load)
tokens=()
for index in $(seq 1 "$devices"); do
    tokens+=(--device-token "$("$tool" token create --db "$db" --device "load-phone-$index")")
done
servers=()
for index in $(seq 1 "$instances"); do
    "$tool" serve --railways "$railways" --db "$db" --port 0 --log-level warning --algorithm "${LOAD_ALGORITHM:-railway}" \
        --open-sessions-per-device 100000 --sessions-per-device-per-day 1000000 --requests-per-token 10000 \
        ${publish:+--realtime-clock-from "$clock_from"} \
        2> "$work/serve-$index.log" &
    pids+=($!)
    until grep -q "listening on" "$work/serve-$index.log"; do
        kill -0 "${pids[-1]}" 2> /dev/null || { cat "$work/serve-$index.log" >&2; exit 1; }
        sleep 0.5
    done
    servers+=(--server "$(grep -o -m 1 'http://[0-9.:]*' "$work/serve-$index.log")")
done
"$tool" load --railways "$railways" "${servers[@]}" --split "$split" "${tokens[@]}" --admin-token "$admin" \
    --phones "$phones" --seconds "$seconds" --upload-every "$every" --verify --timeline "$out/$name.svg" \
    --riders-per-train "$riders" ${publish:+--shared} ${sessions:+--sessions "$sessions"} \
    > "$out/$name.json" 2> "$work/load.log" &
load=$!
if [ -n "$publish" ]; then
    # A consumer of the published feed: both feeds every second while the load runs.
    url=$(echo "${servers[1]}")
    rm -rf "$out/$name.feeds" && mkdir -p "$out/$name.feeds/trip-updates" "$out/$name.feeds/vehicle-positions"
    (
        read=0
        while kill -0 "$load" 2> /dev/null; do
            read=$((read + 1))
            for feed in trip-updates vehicle-positions; do
                curl -s -o "$out/$name.feeds/$feed/$(printf %05d $read).pb" \
                    -w "$feed %{http_code} %{size_download} %{time_total}\n" \
                    -H "Authorization: Bearer $admin" "$url/v1/realtime/$feed"
            done
            sleep 1
        done
    ) > "$out/$name.feed.txt" &
fi
if [ -n "$kill_after" ]; then
    # The load reads the network and creates its sessions first, then says it streams.
    until grep -q "load: streaming" "$work/load.log"; do
        kill -0 "$load" 2> /dev/null || { cat "$work/load.log" >&2; exit 1; }
        sleep 0.2
    done
    sleep "$kill_after"
    kill -9 "${pids[0]}"
    echo "killed instance 1 (pid ${pids[0]}) after ${kill_after} s" >&2
fi
wait "$load" || { cat "$work/load.log" >&2; exit 1; }
cat "$out/$name.json"
