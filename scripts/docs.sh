#!/usr/bin/env bash
# Generates the DocC documentation of TrainTrackerCore into .build/docs/TrainTrackerCore.doccarchive
# (open it with Xcode, or serve the folder: it is transformed for static hosting), and fails
# when a public symbol has no documentation comment or a documentation link does not resolve.
# Usage: scripts/docs.sh
# TRAINTRACKER_MODULES=FOLDER (CI: .build/release/Modules, the tests' build) reads the symbols
# off the module built there with swift-symbolgraph-extract, in a second, and builds nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
graphs=.build/docs-symbol-graphs
rm -rf "$graphs/core" .build/docs && mkdir -p "$graphs/all" "$graphs/core" .build/docs
if [ -n "${TRAINTRACKER_MODULES:-}" ]; then
    # Every graph is extracted afresh: none of an earlier build's may be copied beside them.
    rm -rf "$graphs/all" && mkdir -p "$graphs/all"
    # The C modules the core's dependencies import (swift-numerics' shims) are found by their maps.
    includes=()
    while IFS= read -r map; do includes+=(-I "$(dirname "$map")"); done \
        < <(find .build/checkouts -path '*/include/module.modulemap' 2> /dev/null)
    swift-symbolgraph-extract -module-name TrainTrackerCore -I "$TRAINTRACKER_MODULES" "${includes[@]}" \
        -target "$(uname -m)-unknown-linux-gnu" -minimum-access-level public -output-dir "$graphs/all"
else
    # A build of its own, so the tests' build is not invalidated by the extra flags. The graphs
    # are written when the module compiles: if they are gone, compile it afresh.
    build() {
        swift build --scratch-path .build/docs-build --target TrainTrackerCore \
            -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs/all" >&2
    }
    build
    if [ ! -f "$graphs/all/TrainTrackerCore.symbols.json" ]; then
        rm -rf .build/docs-build
        build
    fi
fi
cp "$graphs"/all/TrainTrackerCore*.symbols.json "$graphs/core/"
swift scripts/undocumented.swift "$graphs/core/TrainTrackerCore.symbols.json"
docc convert Sources/TrainTrackerCore/TrainTrackerCore.docc \
    --additional-symbol-graph-dir "$graphs/core" \
    --fallback-display-name TrainTrackerCore --fallback-bundle-identifier org.traintracker.TrainTrackerCore \
    --output-path .build/docs/TrainTrackerCore.doccarchive --transform-for-static-hosting \
    --warnings-as-errors
echo "wrote .build/docs/TrainTrackerCore.doccarchive" >&2
