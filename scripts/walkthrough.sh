#!/usr/bin/env bash
# Runs the README's "Five minutes with your own GTFS feed" block exactly as it stands (the
# lines between <!-- walkthrough --> and <!-- /walkthrough -->), so the README cannot go stale.
# Usage: scripts/walkthrough.sh   (builds the tool in release first; writes under /tmp/tt)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product traintracker >&2
block=$(awk '/<!-- walkthrough -->/ {on = 1; next} /<!-- \/walkthrough -->/ {on = 0} on' README.md | sed '/^```/d')
if [ -z "$block" ]; then
    echo "error: README.md: no walkthrough block between <!-- walkthrough --> and <!-- /walkthrough -->" >&2
    exit 1
fi
bash -euo pipefail -c "$block"
