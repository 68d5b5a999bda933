// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "TrainTracker",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "TrainTrackerCore", targets: ["TrainTrackerCore"]),
        .library(name: "TrainTrackerLab", targets: ["TrainTrackerLab"]),
        .library(name: "TrainTrackerStorage", targets: ["TrainTrackerStorage"]),
        .library(name: "TrainTrackerImport", targets: ["TrainTrackerImport"]),
        .library(name: "TrainTrackerServer", targets: ["TrainTrackerServer"]),
        .library(name: "TrainTrackerRealtime", targets: ["TrainTrackerRealtime"]),
        .executable(name: "traintracker", targets: ["traintracker"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-algorithms", from: "1.2.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        // Tests only: they build zip archives with it.
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // The feed poller names a compressed body's errors (async-http-client decompresses with it).
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
    ],
    targets: [
        // Pure Swift: no Foundation, no I/O. Runs in an iOS app and on a Linux server alike.
        .target(
            name: "TrainTrackerCore",
            dependencies: [
                .product(name: "RealModule", package: "swift-numerics"),
                .product(name: "Algorithms", package: "swift-algorithms"),
            ]
        ),
        // The lab bench, not for apps: the ride simulator, the evaluator and the demo network.
        .target(
            name: "TrainTrackerLab",
            dependencies: [
                "TrainTrackerCore", .product(name: "RealModule", package: "swift-numerics"),
                .product(name: "Algorithms", package: "swift-algorithms"),
            ]
        ),
        // Reads and writes the Eki SQLite schemas.
        .target(
            name: "TrainTrackerStorage",
            dependencies: ["TrainTrackerCore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The live server's sessions on PostgreSQL, which several server instances share.
        .target(
            name: "TrainTrackerPostgres",
            dependencies: [
                "TrainTrackerCore", "TrainTrackerStorage", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The system's zlib, for reading zip archives (GTFS feeds, SRTM tiles).
        .systemLibrary(name: "TrainTrackerZlib", path: "Sources/TrainTrackerZlib", pkgConfig: "zlib"),
        // Imports mini-tokyo-3d, GTFS, GPX, CSV and GeoJSON; exports GPX and GeoJSON.
        .target(
            name: "TrainTrackerImport",
            dependencies: [
                "TrainTrackerCore", "TrainTrackerStorage", "TrainTrackerZlib", .product(name: "CSV", package: "CSV.swift"),
                // Recordings of vehicle positions may come as SQLite files.
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // GTFS-realtime feeds (protocol buffers): read, written, archived. The Swift code of the
        // messages is generated once from Proto/ and committed (scripts/generate-protobuf.sh).
        .target(
            name: "TrainTrackerRealtime",
            dependencies: ["TrainTrackerCore", .product(name: "SwiftProtobuf", package: "swift-protobuf")],
            exclude: ["Proto"]
        ),
        // The live tracking server and the Session Viewer (Hummingbird 2).
        .target(
            name: "TrainTrackerServer",
            dependencies: [
                "TrainTrackerCore", "TrainTrackerStorage", "TrainTrackerRealtime",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            resources: [.copy("Viewer")]
        ),
        // The command-line tool's commands, as a library so tests can drive them.
        .target(
            name: "TrainTrackerCommands",
            dependencies: [
                "TrainTrackerCore", "TrainTrackerLab", "TrainTrackerStorage", "TrainTrackerImport", "TrainTrackerServer",
                "TrainTrackerPostgres", "TrainTrackerRealtime",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .executableTarget(name: "traintracker", dependencies: ["TrainTrackerCommands"]),
        // Paths to the shared data and temporary directories, for every test target.
        .target(
            name: "TrainTrackerTestSupport", dependencies: ["TrainTrackerCore", "TrainTrackerLab", "TrainTrackerStorage"],
            path: "Tests/TrainTrackerTestSupport"),
        // Core tests read the real Tokyo network through the storage layer; the core itself does not.
        .testTarget(
            name: "TrainTrackerCoreTests",
            dependencies: ["TrainTrackerCore", "TrainTrackerLab", "TrainTrackerStorage", "TrainTrackerTestSupport"],
            exclude: ["Tracking/Tracker/Railway/Snapshots"]
        ),
        // The simulator and the scorers.
        .testTarget(
            name: "TrainTrackerLabTests",
            dependencies: ["TrainTrackerLab", "TrainTrackerCore", "TrainTrackerStorage", "TrainTrackerTestSupport"]
        ),
        .testTarget(
            name: "TrainTrackerStorageTests",
            dependencies: [
                "TrainTrackerStorage", "TrainTrackerPostgres", "TrainTrackerTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "TrainTrackerImportTests",
            dependencies: [
                "TrainTrackerImport", "TrainTrackerLab", "TrainTrackerStorage", "TrainTrackerTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"), "ZIPFoundation",
            ]
        ),
        .testTarget(
            name: "TrainTrackerServerTests",
            dependencies: [
                "TrainTrackerServer", "TrainTrackerLab", "TrainTrackerStorage", "TrainTrackerImport", "TrainTrackerTestSupport",
                "TrainTrackerRealtime", "traintracker",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "TrainTrackerRealtimeTests",
            dependencies: [
                "TrainTrackerRealtime", "TrainTrackerCore", "TrainTrackerLab", "TrainTrackerImport", "TrainTrackerTestSupport",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        .testTarget(
            name: "TrainTrackerCommandsTests",
            dependencies: ["TrainTrackerCommands", "TrainTrackerLab", "traintracker", "TrainTrackerTestSupport"],
            // The help snapshots are read by path (#filePath), not bundled.
            exclude: ["Snapshots"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets of the readers, built only for `scripts/fuzz.sh` (libFuzzer provides `main`,
// so an ordinary build leaves them out):
// - TRAINTRACKER_FUZZ=1, with `--sanitize=fuzzer`: every module instrumented, in a build of its
//   own (the long runs);
// - TRAINTRACKER_FUZZ=own (CI's smoke run, `scripts/fuzz.sh --quick`): only this package's
//   modules instrumented, built by `swift test -c release` as the tests were, so that the
//   dependencies' objects are reused; libFuzzer without its main (TRAINTRACKER_FUZZ_NO_MAIN, the
//   toolchain's libclang_rt.fuzzer_no_main archive), driven from the harness's own main. The tests,
//   the tool and the PostgreSQL store are left out (the instrumented modules link only into the
//   harness), an empty test target in their place.
if let fuzz = Context.environment["TRAINTRACKER_FUZZ"] {
    let readers: [Target.Dependency] = [
        "TrainTrackerCore", "TrainTrackerLab", "TrainTrackerImport", "TrainTrackerServer", "TrainTrackerRealtime",
        .product(name: "NIOCore", package: "swift-nio"),
    ]
    if fuzz == "own", let noMain = Context.environment["TRAINTRACKER_FUZZ_NO_MAIN"] {
        let unused: Set<String> = ["TrainTrackerCommands", "traintracker", "TrainTrackerPostgres", "TrainTrackerTestSupport"]
        package.targets.removeAll { $0.type == .test || unused.contains($0.name) }
        package.products.removeAll { $0.name == "traintracker" }
        for target in package.targets where target.type == .regular {
            target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-sanitize=fuzzer"])]
        }
        package.targets += [
            .testTarget(name: "FuzzBuildTests", path: "Fuzz/FuzzBuildTests"),
            .target(name: "FuzzerDriver", path: "Fuzz/FuzzerDriver"),
            .executableTarget(
                name: "traintracker-fuzz", dependencies: readers + ["FuzzerDriver"], path: "Fuzz/traintracker-fuzz",
                swiftSettings: [.unsafeFlags(["-sanitize=fuzzer"]), .define("TRAINTRACKER_FUZZ_OWN_MAIN")],
                linkerSettings: [.unsafeFlags(["-Xlinker", noMain]), .linkedLibrary("stdc++")]),
        ]
    } else {
        package.targets.append(
            .executableTarget(name: "traintracker-fuzz", dependencies: readers, path: "Fuzz/traintracker-fuzz"))
    }
}
