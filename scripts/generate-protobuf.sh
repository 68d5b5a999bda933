#!/usr/bin/env bash
# Generates Sources/TrainTrackerRealtime/GTFSRealtime.pb.swift from
# Sources/TrainTrackerRealtime/Proto/gtfs-realtime-subset.proto. Run it after changing the
# .proto, and commit the result: a normal build never runs it (swift-protobuf's plugin takes
# minutes to build). Needs protoc (Debian: apt-get install protobuf-compiler); builds the
# resolved swift-protobuf's protoc-gen-swift in .build-protobuf once.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v protoc >/dev/null || { echo "generate-protobuf.sh: protoc not found (apt-get install protobuf-compiler)" >&2; exit 1; }
swift package resolve >&2
checkout=.build/checkouts/swift-protobuf
swift build -c release --package-path "$checkout" --scratch-path .build-protobuf --product protoc-gen-swift >&2
target=Sources/TrainTrackerRealtime
protoc --plugin=protoc-gen-swift=.build-protobuf/release/protoc-gen-swift --swift_opt=Visibility=Public \
    --swift_out="$target" -I "$target/Proto" gtfs-realtime-subset.proto
mv "$target/gtfs-realtime-subset.pb.swift" "$target/GTFSRealtime.pb.swift"
# In the project's format, so scripts/format.sh --check passes on it as on every source.
swift-format format --in-place "$target/GTFSRealtime.pb.swift"
echo "wrote $target/GTFSRealtime.pb.swift" >&2
