#!/usr/bin/env bash
# Formats the sources in place with swift-format (ships with the toolchain), then lints them.
# Usage: scripts/format.sh [--check]   (--check: lint only, non-zero exit on findings)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != "--check" ]; then
    swift-format format --in-place --recursive --parallel Sources Tests Package.swift
fi
swift-format lint --strict --recursive --parallel Sources Tests Package.swift
