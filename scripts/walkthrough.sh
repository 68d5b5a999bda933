#!/usr/bin/env bash
# Runs the README's walkthroughs exactly as they stand, so the README cannot go stale: the
# block between <!-- walkthrough --> and <!-- /walkthrough --> ("Five minutes with your own
# GTFS feed"), then the one between <!-- live-walkthrough --> and <!-- /live-walkthrough -->
# (an operator's day replayed: it uses the first's files, and ports 8080 and 8081).
# Usage: scripts/walkthrough.sh   (builds the tool in release first; writes under /tmp/tt)
# TRAINTRACKER_TOOL=PATH runs the blocks with that traintracker binary (CI's, built by the tests)
# in place of .build/release/traintracker, and builds none.
set -euo pipefail
cd "$(dirname "$0")/.."
tool=${TRAINTRACKER_TOOL:-}
if [ -z "$tool" ]; then
    swift build -c release --product traintracker >&2
fi
for name in walkthrough live-walkthrough; do
    block=$(awk -v first="<!-- $name -->" -v last="<!-- /$name -->" \
        '$0 == first {on = 1; next} $0 == last {on = 0} on' README.md | sed '/^```/d')
    if [ -z "$block" ]; then
        echo "error: README.md: no $name block between <!-- $name --> and <!-- /$name -->" >&2
        exit 1
    fi
    if [ -n "$tool" ]; then
        block=${block//T=.build\/release\/traintracker/T=$tool}
    fi
    echo "walkthrough: running the README's $name block" >&2
    bash -euo pipefail -c "$block"
done
