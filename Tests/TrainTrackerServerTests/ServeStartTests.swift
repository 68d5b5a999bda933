import Foundation
import Testing
import TrainTrackerTestSupport

/// What `serve` says as it starts, as an operator reads it.
@Suite(.serialized, .tags(.sharedData)) struct ServeStartTests {
    /// The Session Viewer's map needs Leaflet's files: a server started without them still
    /// serves phones but says so before it listens; one that has them says nothing of it.
    @Test func aServerWithoutLeafletSaysTheViewerWillShowNoMap() throws {
        let directory = try TemporaryDirectory()
        let missing = try ServerProcess(
            railways: SharedPaths.tokyoRailways, db: directory.path("a.sqlite"), extra: ["--leaflet", directory.path("none")])
        missing.stop()
        #expect(missing.started.contains("\(directory.path("none"))/leaflet.js not found"), "\(missing.started)")
        let leaflet = directory.path("leaflet")
        try FileManager.default.createDirectory(atPath: leaflet, withIntermediateDirectories: true)
        for file in ["leaflet.js", "leaflet.css"] {
            #expect(FileManager.default.createFile(atPath: leaflet + "/" + file, contents: Data("/* */".utf8)))
        }
        let present = try ServerProcess(
            railways: SharedPaths.tokyoRailways, db: directory.path("b.sqlite"), extra: ["--leaflet", leaflet])
        present.stop()
        #expect(!present.started.contains("leaflet.js"), "\(present.started)")
    }
}
