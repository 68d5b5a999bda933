// swift-tools-version: 6.1
import PackageDescription

// An app's view of TrainTracker: the core to track, the storage to load the network that
// `traintracker import` wrote, and the import module only to read a GPX file.
let package = Package(
    name: "RideAlong",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(name: "TrainTracker", path: "../..")],
    targets: [
        .executableTarget(
            name: "RideAlong",
            dependencies: [
                .product(name: "TrainTrackerCore", package: "TrainTracker"),
                .product(name: "TrainTrackerStorage", package: "TrainTracker"),
                .product(name: "TrainTrackerImport", package: "TrainTracker"),
            ]
        )
    ]
)
