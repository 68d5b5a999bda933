#!/usr/bin/env bash
# Regenerates the Session Viewer's screenshots in docs/viewer/: runs the viewer's browser
# tests (headless Chromium against a running server with a simulated Toyoko ride), which
# keep a screenshot of each state, and copies them into the docs.
# Usage: scripts/screenshots.sh
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .build/test-artifacts/viewer
swift build --build-tests >&2
swift test --skip-build --filter ViewerBrowserTests >&2
mkdir -p docs/viewer
for picture in .build/test-artifacts/viewer/*.png; do
    cp "$picture" "docs/viewer/$(basename "$picture")"
done
ls docs/viewer
