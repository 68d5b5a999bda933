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

/// `serve [--algorithm default|railway] --parameters FILE`: what an operator gets wrong is refused in one
/// line, with a non-zero exit, before the session store is created.
@Suite(.tags(.sharedData)) struct ServeAlgorithmOptionTests {
    @Test(arguments: [
        (["--algorithm", "railway", "--parameters", "fit.json"], "--parameters goes with --algorithm default"),
        (["--algorithm", "eki"], "--algorithm must be default or railway"),
        (["--parameters", "bad.json"], "bad.json: unknown constant tripNoSuchThing"),
        (["--algorithm", "default", "--parameters", "bad.json"], "bad.json: unknown constant tripNoSuchThing"),
        (["--algorithm", "default", "--parameters", "none.json"], "none.json"),
    ])
    func aWrongAlgorithmOrParameterFileIsRefusedBeforeTheStoreIsMade(extra: [String], problem: String) throws {
        let directory = try TemporaryDirectory()
        let files = [
            "fit.json": "{\"format\": \"traintracker-trip-model\", \"constants\": {}}",
            "bad.json": "{\"format\": \"traintracker-trip-model\", \"constants\": {\"tripNoSuchThing\": 1}}",
        ]
        for (name, text) in files { try text.write(toFile: directory.path(name), atomically: true, encoding: .utf8) }
        let arguments = extra.map { files[$0] != nil || $0 == "none.json" ? directory.path($0) : $0 }
        let db = directory.path("sessions.sqlite")
        let outcome = try ToolRunner.run(
            ["serve", "--railways", SharedPaths.caltrain2024, "--db", db, "--port", "0"] + arguments)
        #expect(outcome.status != 0)
        let lines = outcome.standardError.split(separator: "\n").filter { $0.lowercased().contains("error:") }
        #expect(lines.count == 1 && lines[0].contains(problem), "\(outcome.standardError)")
        #expect(!FileManager.default.fileExists(atPath: db), "the store was made for a server that never started")
    }
}
