import Foundation
import Testing
import TrainTrackerCore
import TrainTrackerStorage
import TrainTrackerTestSupport

@Suite(.tags(.sharedData)) struct ImportCommandsTests {
    @Test func importWritesAnEkiFileThatEveryCommandReads() throws {
        let directory = try TemporaryDirectory()
        let out = directory.path("caltrain.sqlite")
        let outcome = try ToolRunner.run(["import", "--from", "gtfs", SharedPaths.caltrain, "--out", out])
        #expect(outcome.status == 0)
        #expect(outcome.standardError.hasPrefix("wrote \(out): 3 railways, 73 stations, 144 trains"))
        let network = try ToolRunner.run(["network", "--railways", out, "--timetables"])
        #expect(network.standardOutput.contains("railways         3\n"))
        #expect(network.standardOutput.contains("trains           144\n"))
        let again = try ToolRunner.run(["import", SharedPaths.caltrain, "--out", out])
        #expect(again.status == 2)
        #expect(again.standardError == "traintracker: error: \(out): file exists; not overwriting it (use --force)\n")
        #expect(try ToolRunner.run(["import", SharedPaths.caltrain, "--out", out, "--force"]).status == 0)
    }

    @Test(arguments: [SharedPaths.caltrain, SharedPaths.nycSubway, SharedPaths.tokyoRailways])
    func networkDescribesEveryFormat(path: String) throws {
        let outcome = try ToolRunner.run(["network", "--railways", path])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.hasPrefix("railways "))
    }

    @Test func aBrokenFeedWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let feed = directory.path("feed")
        try FileManager.default.createDirectory(atPath: feed, withIntermediateDirectories: true)
        try "stop_id,stop_name,stop_lat,stop_lon\n1,A,35.6,139.7\n".write(
            toFile: feed + "/stops.txt", atomically: true, encoding: .utf8)
        let out = directory.path("out.sqlite")
        let outcome = try ToolRunner.run(["import", feed, "--out", out])
        #expect(outcome.status == 2)
        #expect(outcome.standardError == "traintracker: error: \(feed): missing required file routes.txt\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["feed"])
    }

    @Test func aFolderOfAnotherKindIsExplained() throws {
        let directory = try TemporaryDirectory()
        let outcome = try ToolRunner.run(["network", "--railways", directory.url.path])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("neither mini-tokyo-3d"))
    }

    @Test func journeysRoundTripThroughGPXAndGeoJSONWithTheirResults() throws {
        let network = try RailwayDatabase.load(path: SharedPaths.tokyoRailways)
        let directory = try TemporaryDirectory()
        let sessions = directory.path("s.sqlite")
        let count = try writeToyokoSession(to: sessions, network: network)
        let gpx = directory.path("ride.gpx")
        let geojson = directory.path("ride.geojson")
        for out in [gpx, geojson] {
            let outcome = try ToolRunner.run([
                "export", "--railways", SharedPaths.tokyoRailways, "--sessions", sessions, "--out", out,
            ])
            #expect(outcome.status == 0, "\(outcome.standardError)")
        }
        // GeoJSON: one Point per fix with the answer, and the matched railway as a line.
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: geojson))) as? [String: Any])
        let features = try #require(json["features"] as? [[String: Any]])
        let points = features.filter { ($0["geometry"] as? [String: Any])?["type"] as? String == "Point" }
        #expect(points.count == count)
        let last = try #require(points.last?["properties"] as? [String: Any])
        #expect(last["railway"] as? String == "Tokyu.Toyoko" && last["phase"] as? String == "now")
        #expect(last["label"] as? String == "Now: Kikuna")
        let lines = features.filter { ($0["geometry"] as? [String: Any])?["type"] as? String == "LineString" }
        #expect(lines.contains { ($0["properties"] as? [String: Any])?["railway"] as? String == "Tokyu.Toyoko" })
        // GPX: the answer rides along each point.
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        #expect(text.components(separatedBy: "<trkpt ").count - 1 == count)
        #expect(text.contains("<tt:railway>Tokyu.Toyoko</tt:railway>") && text.contains("<desc>Soon: Tsunashima</desc>"))
        // Both import back as sessions that replay to the same railway.
        let back = directory.path("back.sqlite")
        let imported = try ToolRunner.run(["import-sessions", gpx, geojson, "--out", back])
        #expect(imported.status == 0)
        let listing = try ToolRunner.run(["sessions", "--sessions", back])
        #expect(listing.standardOutput.hasSuffix("2 sessions\n"))
        #expect(listing.standardOutput.components(separatedBy: " \(count)\n").count - 1 == 2)
        let replay = try ToolRunner.run([
            "replay", "--railways", SharedPaths.tokyoRailways, "--sessions", back, "--format", "text",
        ])
        #expect(replay.standardOutput.components(separatedBy: "Toyoko Line → Yokohama  Now: Kikuna").count - 1 == 2)
    }

    @Test func importedSessionsAreNamedAsTheFileNamesThemOnEveryRun() throws {
        let directory = try TemporaryDirectory()
        let phones = directory.path("phones.csv")
        let walk = directory.path("walk.csv")
        try """
        device_id,lat,lon,time
        7,35.6,139.70,2025-09-20T08:00:00Z
        7,35.6,139.71,2025-09-20T08:00:10Z
        12,35.6,139.72,2025-09-20T08:00:00Z
        """.write(toFile: phones, atomically: true, encoding: .utf8)
        try "lat,lon,time\n35.6,139.7,2025-09-20T08:00:00Z\n".write(toFile: walk, atomically: true, encoding: .utf8)
        func ids(_ out: String) throws -> [String] {
            try SessionDatabase.open(path: out).sessions().map(\.session.id).sorted()
        }
        let first = directory.path("first.sqlite")
        let second = directory.path("second.sqlite")
        for out in [first, second] {
            #expect(try ToolRunner.run(["import-sessions", phones, walk, "--out", out]).status == 0)
        }
        // The device column's values and the file's name, the same on both runs, fixes numbered.
        #expect(try ids(first) == ["12", "7", "walk"])
        #expect(try ids(second) == ids(first))
        // Again over a file: refused, saying how; with --force, replaced.
        let again = try ToolRunner.run(["import-sessions", walk, "--out", second])
        #expect(again.status == 2)
        #expect(again.standardError.hasSuffix("file exists; not overwriting it (use --force, or --append)\n"))
        #expect(try ToolRunner.run(["import-sessions", walk, "--out", second, "--force"]).status == 0)
        #expect(try ids(second) == ["walk"])
        let fixes = try SessionDatabase.open(path: first).fixes(sessionID: "7").fixes.map(\.id)
        #expect(fixes == ["7-00001", "7-00002"])
        // Appended again, the names are taken: the new sessions get the next free ones.
        #expect(try ToolRunner.run(["import-sessions", phones, "--append", "--out", first]).status == 0)
        #expect(try ids(first) == ["12", "12-2", "7", "7-2", "walk"])
    }

    @Test func aBadJourneyFileWritesNoSessions() throws {
        let directory = try TemporaryDirectory()
        let good = directory.path("good.csv")
        let bad = directory.path("bad.csv")
        try "lat,lon,time\n35.6,139.7,2025-09-20T08:00:00Z\n".write(toFile: good, atomically: true, encoding: .utf8)
        try "lat,lon,time\n35.6,east,2025-09-20T08:00:00Z\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let out = directory.path("s.sqlite")
        let outcome = try ToolRunner.run(["import-sessions", good, bad, "--out", out])
        #expect(outcome.status == 2)
        #expect(outcome.standardError == "traintracker: error: \(bad): line 2: field 'lon': not a number 'east'\n")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func exportNeedsASessionWhenTheFileHoldsSeveral() throws {
        let network = try RailwayDatabase.load(path: SharedPaths.tokyoRailways)
        let directory = try TemporaryDirectory()
        let sessions = directory.path("s.sqlite")
        _ = try writeToyokoSession(to: sessions, network: network)
        try SessionDatabase.openForWriting(path: sessions).insert(
            Session(id: "OTHER", startDate: Timestamp(secondsSince1970: 0)), fixes: [])
        let out = directory.path("ride.gpx")
        let outcome = try ToolRunner.run([
            "export", "--railways", SharedPaths.tokyoRailways, "--sessions", sessions, "--out", out,
        ])
        #expect(outcome.status == 2)
        #expect(outcome.standardError == "traintracker: error: \(sessions): holds 2 sessions; choose one with --session\n")
        #expect(!FileManager.default.fileExists(atPath: out))
        let chosen = try ToolRunner.run([
            "export", "--railways", SharedPaths.tokyoRailways, "--sessions", sessions, "--session", "TOYOKO-1", "--out", out,
        ])
        #expect(chosen.status == 0)
    }
}
