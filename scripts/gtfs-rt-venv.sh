#!/usr/bin/env bash
# Makes .build/gtfs-rt-venv: a Python virtual environment with the consumers the published
# GTFS-realtime feed is tested against (Google's gtfs-realtime-bindings, gtfs-rt-validator).
# Needs python3 with venv (Debian: python3-venv) and PyPI. Prints the interpreter's path.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/gtfs-rt-venv
if [ ! -x "$venv/bin/gtfs-rt-validator" ]; then
    mkdir -p .build
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "gtfs-realtime-bindings==3.0.0" "gtfs-rt-validator==0.3.0"
fi
echo "$PWD/$venv/bin/python"
