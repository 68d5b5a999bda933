import Foundation
import GRDB
import Testing
import TrainTrackerTestSupport

/// Input made to crash or mislead the tool: one line on stderr naming the file and the
/// problem, exit status 2, nothing on stdout and no file left behind; never a trap.
@Suite(.tags(.sharedData)) struct HostileInputTests {
    /// A process id no process has (Linux allows at most 2^22): what a crashed run leaves.
    static let deadProcess = "2147483646"

    func expectRefused(_ arguments: [String], _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let outcome = try ToolRunner.run(arguments)
        #expect(outcome.status == 2, "\(outcome.standardError)", sourceLocation: sourceLocation)
        #expect(outcome.standardOutput.isEmpty, sourceLocation: sourceLocation)
        #expect(outcome.standardError == "traintracker: error: \(message)\n", sourceLocation: sourceLocation)
    }

    func contents(_ directory: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
    }

    /// A copy of the Caltrain feed with `old` replaced by `new` in line `line` of `file`.
    func caltrain(in directory: TemporaryDirectory, _ file: String, line: Int, _ old: String, _ new: String) throws -> String {
        let feed = try directory.copy(of: SharedPaths.caltrain, as: "feed")
        try Fixture.replace(old, with: new, line: line, in: feed + "/" + file)
        return feed
    }

    // MARK: Numbers no Int holds

    /// Numbers that trapped converting to `Int` (and a fraction that became 0): the importer's
    /// message, with exit status 2, from `network` and `import` alike, and no output file.
    @Test(arguments: [
        ("routes.txt", ",2,,E31837", ",1e20,,E31837", "line 2: field 'route_type': not a route type '1e20'"),
        ("trips.txt", ",0,,cal_sj_sf", ",1e300,,cal_sj_sf", "line 2: field 'direction_id': must be 0 or 1, not '1e300'"),
        ("trips.txt", ",0,,cal_sj_sf", ",0.5,,cal_sj_sf", "line 2: field 'direction_id': must be 0 or 1, not '0.5'"),
        ("directions.txt", "Lo-129,0,", "Lo-129,1e20,", "line 2: field 'direction_id': must be 0 or 1, not '1e20'"),
    ])
    func aGTFSNumberThatTrappedIsAnError(file: String, old: String, new: String, message: String) throws {
        let directory = try TemporaryDirectory()
        let feed = try caltrain(in: directory, file, line: 2, old, new)
        for arguments in [["network", "--railways", feed], ["import", feed, "--out", directory.path("out.sqlite")]] {
            try expectRefused(arguments, "\(feed)/\(file): \(message)")
        }
        #expect(try contents(directory) == ["feed"])
    }

    /// A copy of the mini-tokyo-3d network files with railway `id`'s track changed.
    func miniTokyo3D(in directory: TemporaryDirectory, track id: String, _ change: (inout [String: Any]) -> Void) throws
        -> String
    {
        let folder = try directory.copy(
            of: SharedPaths.miniTokyo3D, files: ["railways.json", "stations.json", "coordinates.json"], as: "mini-tokyo-3d")
        try Fixture.editTrack(id, in: folder + "/coordinates.json", change)
        return folder
    }

    @Test func aMiniTokyo3DOffsetOf1e300IsNamed() throws {
        let directory = try TemporaryDirectory()
        let folder = try miniTokyo3D(in: directory, track: "Tokyu.Kodomonokuni") { track in
            var sublines = track["sublines"] as? [[String: Any]] ?? []
            sublines[0]["start"] = ["railway": "Tokyu.DenEnToshi", "offset": 1e300]
            track["sublines"] = sublines
        }
        try expectRefused(
            ["network", "--railways", folder],
            "\(folder)/coordinates.json: railway 'Tokyu.Kodomonokuni', subline 1: field 'start.offset': 1e+300 is not an offset of -160 to 160 units"
        )
    }

    /// `Polyline` requires a vertex: this was a precondition failure.
    @Test func aMiniTokyo3DRailwayWithoutSublinesIsNamed() throws {
        let directory = try TemporaryDirectory()
        let folder = try miniTokyo3D(in: directory, track: "Tokyu.Kodomonokuni") { $0["sublines"] = [[String: Any]]() }
        try expectRefused(
            ["network", "--railways", folder],
            "\(folder)/coordinates.json: railway 'Tokyu.Kodomonokuni': field 'sublines': no sublines; a track needs at least one"
        )
    }

    @Test func aPeakAt1e300IsNamedNotLookedUp() throws {
        let directory = try TemporaryDirectory()
        let peaks = directory.path("peaks.geojson")
        try
            #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "Nowhere"}, "geometry": {"type": "Point", "coordinates": [1e300, 1e300]}}]}"#
            .write(toFile: peaks, atomically: true, encoding: .utf8)
        try expectRefused(
            [
                "sight", "--lat", "42.54", "--lon", "1.49", "--heading", "35", "--pitch", "2", "--dem",
                SightCommandTests.dem, "--peaks", peaks,
            ], "\(peaks): feature 1: field 'coordinates': not a position (1e+300, 1e+300)")
    }

    @Test(arguments: ["nan", "inf", "-inf", "1e300"])
    func anAltitudeOutOfRangeIsAnErrorNotAnAnswer(altitude: String) throws {
        try expectRefused(
            [
                "sight", "--lat", "42.54", "--lon", "1.49", "--heading", "35", "--pitch", "2", "--dem", SightCommandTests.dem,
                "--alt", altitude,
            ], "--alt must be −12,000 to 100,000 m")
    }

    /// Usage errors (ArgumentParser's exit status), checked before any file is read.
    @Test(arguments: [
        (["sight", "--lat", "nan", "--lon", "1", "--heading", "0", "--pitch", "0", "--dem", "x"], "--lat and --lon"),
        (["sight", "--lat", "1", "--lon", "inf", "--heading", "0", "--pitch", "0", "--dem", "x"], "--lat and --lon"),
        (["sight", "--lat", "1", "--lon", "1", "--heading", "nan", "--pitch", "0", "--dem", "x"], "--heading"),
        (["sight", "--lat", "1", "--lon", "1", "--heading", "inf", "--pitch", "0", "--dem", "x"], "--heading"),
        (["sight", "--lat", "1", "--lon", "1", "--heading", "0", "--pitch", "nan", "--dem", "x"], "--pitch"),
        (["sight", "--lat", "1", "--lon", "1", "--heading", "0", "--pitch", "-inf", "--dem", "x"], "--pitch"),
        (["sight", "--lat", "1", "--lon", "1", "--heading", "0", "--pitch", "0", "--dem", "x", "--step", "1e-300"], "--step"),
        (["bench", "--railways", "x", "--sessions", "y", "--minimum-seconds", "1e300"], "--minimum-seconds"),
        (
            ["journey", "--railways", "x", "--railway", "r", "--from", "a", "--to", "b", "--out", "o", "--noise", "1e300"],
            "--noise"
        ),
        (["simulate", "--railways", "x", "--out", "o", "--count", "1000000000000"], "--count"),
        (
            [
                "load", "--railways", "x", "--server", "http://127.0.0.1:1", "--device-token", "d", "--admin-token", "a",
                "--upload-every", "9223372036854775807",
            ], "--upload-every"
        ),
        (["load", "--railways", "x", "--server", "file:///etc/passwd", "--device-token", "d", "--admin-token", "a"], "--server"),
    ])
    func aNumberBeyondReasonIsAUsageError(arguments: [String], option: String) throws {
        let outcome = try ToolRunner.run(arguments)
        #expect(outcome.status == 64, "a usage error, not a trap: \(outcome.status)")
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardError.contains(option))
    }

    // MARK: Files cut short, too big, or not files

    @Test func aStopsFileCutInsideAQuoteIsNamedNotStopTimes() throws {
        let directory = try TemporaryDirectory()
        let feed = try directory.copy(of: SharedPaths.caltrain, as: "feed")
        let lines = try String(contentsOfFile: feed + "/stops.txt", encoding: .utf8).split(separator: "\n").count
        try Fixture.append(Data("70999,70999,\"Cut Sta".utf8), to: feed + "/stops.txt")
        try expectRefused(
            ["network", "--railways", feed],
            "\(feed)/stops.txt: line \(lines + 1): a quote opened here is never closed (the file is cut short or malformed)")
    }

    @Test func aFeedPaddedWithBlankLinesIsRefusedAtOnce() throws {
        let directory = try TemporaryDirectory()
        let feed = try directory.copy(of: SharedPaths.caltrain, as: "feed")
        try Fixture.append(Data(repeating: UInt8(ascii: "\n"), count: 100_001), to: feed + "/stop_times.txt")
        try expectRefused(["network", "--railways", feed], "\(feed)/stop_times.txt: more than 100000 blank lines; not read")
    }

    @Test(arguments: [
        (
            "cut.gpx", "<gpx><trk><trkseg><trkpt lat=\"35.6\" lon=\"139.7\"><time>2025-09-20T08:00:00Z</time></trkpt>",
            "line 1: ends inside <trkseg> (the file is cut short)"
        ),
        (
            "cut.csv", "lat,lon,time,speed\n35.6,139.7,2025-09-20T08:00:00Z,1\n35.6,13",
            "line 3: ends after 2 of 4 fields (the file is cut short)"
        ),
        (
            "cut.geojson", #"{"type": "Feature", "geometry": {"type": "Point""#,
            "not valid JSON: it ends inside a string, an array or an object (the file is cut short)"
        ),
        ("late.csv", "lat,lon,time\n35.6,139.7,1e20\n", "line 2: field 'time': not a time '1e20'"),
        (
            "late.gpx", "<gpx><trk><trkseg><trkpt lat=\"35.6\" lon=\"139.7\"><time>1e20</time></trkpt></trkseg></trk></gpx>",
            "track 1, point 1: field 'time': not a time '1e20'"
        ),
        (
            "late.geojson",
            #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [139.7, 35.6]}, "properties": {"time": "1e20"}}"#,
            "feature 1: field 'time': not a time '1e20'"
        ),
        ("year318857.csv", "lat,lon,time\n35.6,139.7,1e16\n", "line 2: field 'time': not a time '1e16'"),
    ])
    func aBadJourneyLeavesNoFileAndARerunSucceeds(name: String, text: String, problem: String) throws {
        let directory = try TemporaryDirectory()
        let bad = directory.path(name)
        try text.write(toFile: bad, atomically: true, encoding: .utf8)
        let out = directory.path("x.sqlite")
        try expectRefused(["import-sessions", bad, "--out", out], "\(bad): \(problem)")
        #expect(try contents(directory) == [name], "no x.sqlite, no x.sqlite-journal, no temporary file")
        let good = directory.path("good.csv")
        try "lat,lon,time\n35.6,139.7,2025-09-20T08:00:00Z\n".write(toFile: good, atomically: true, encoding: .utf8)
        #expect(try ToolRunner.run(["import-sessions", good, "--out", out]).status == 0)
    }

    @Test func whatACrashedWriteLeftIsCleanedUpByTheNextRun() throws {
        let directory = try TemporaryDirectory()
        let out = directory.path("s.sqlite")
        for suffix in ["", "-journal"] {
            try Data("torn".utf8).write(to: URL(fileURLWithPath: directory.path(".s.sqlite.tmp-\(Self.deadProcess)\(suffix)")))
        }
        let outcome = try runToyokoJourney(out: out)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(try contents(directory) == ["s.sqlite"])
    }

    @Test func aDirectoryWhereAFileBelongsIsNamedAsOne() throws {
        let directory = try TemporaryDirectory()
        let folder = directory.path("ride.gpx")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try expectRefused(["import-sessions", folder, "--out", directory.path("s.sqlite")], "\(folder): is a directory")
        try expectRefused(["sessions", "--sessions", folder], "\(folder): is a directory")
        try expectRefused(["replay", "--railways", SharedPaths.tokyoRailways, "--sessions", folder], "\(folder): is a directory")
        try expectRefused(["import", SharedPaths.caltrain, "--out", folder], "\(folder): is a directory")
        try expectRefused(
            ["export", "--railways", SharedPaths.tokyoRailways, "--sessions", folder, "--out", folder],
            "\(folder): is a directory")
        #expect(try contents(directory) == ["ride.gpx"])
    }

    // MARK: Misleading errors

    @Test func aTrainListedTwiceIsNamedInTheInputNotTheOutput() throws {
        let directory = try TemporaryDirectory()
        let folder = try miniTokyo3D(in: directory, track: "Tokyu.Kodomonokuni") { _ in }
        let timetables = folder + "/train-timetables"
        try FileManager.default.createDirectory(atPath: timetables, withIntermediateDirectories: true)
        let source = SharedPaths.miniTokyo3D + "/train-timetables/tokyu-kodomonokuni.json"
        // The same train file twice, as two railways' files.
        for name in ["a.json", "b.json"] { try FileManager.default.copyItem(atPath: source, toPath: timetables + "/" + name) }
        let records = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: source))) as? [[String: Any]])
        let first = try #require(records.first?["id"] as? String)
        let out = directory.path("out.sqlite")
        try expectRefused(
            ["import", folder, "--out", out], "\(timetables)/b.json: train '\(first)': field 'id': also in \(timetables)/a.json")
        #expect(try contents(directory) == ["mini-tokyo-3d"])
    }

    @Test(arguments: [
        (
            "UPDATE coordinate SET latitude = 1e300, longitude = 139 WHERE id = 1",
            "table 'coordinate', row '1', column 'latitude': not a position (1e+300, 139.0)"
        ),
        ("UPDATE coordinate SET longitude = NULL WHERE id = 1", "table 'coordinate', row '1', column 'longitude': missing"),
    ])
    func anEkiTrackCoordinateThatIsNoPositionIsNamedNotDropped(sql: String, problem: String) throws {
        let directory = try TemporaryDirectory()
        let railways = directory.path("caltrain.sqlite")
        #expect(try ToolRunner.run(["import", SharedPaths.caltrain, "--out", railways]).status == 0)
        try DatabaseQueue(path: railways).write { db in try db.execute(sql: sql) }
        try expectRefused(["network", "--railways", railways], "\(railways): \(problem)")
    }

    // MARK: Writes, all or nothing

    @Test func everyWriterLeavesOnlyItsFile() throws {
        let directory = try TemporaryDirectory()
        let sessions = directory.path("s.sqlite")
        #expect(try runToyokoJourney(out: sessions).status == 0)
        let export = try ToolRunner.run([
            "export", "--railways", SharedPaths.tokyoRailways, "--sessions", sessions, "--out", directory.path("ride.gpx"),
        ])
        #expect(export.status == 0)
        let replay = try ToolRunner.run([
            "replay", "--railways", SharedPaths.tokyoRailways, "--sessions", sessions, "--svg", directory.path("pictures"),
        ])
        #expect(replay.status == 0)
        #expect(try contents(directory) == ["pictures", "ride.gpx", "s.sqlite"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path("pictures")).allSatisfy {
                $0.hasSuffix(".svg") && !$0.hasPrefix(".")
            })
        // Into a folder that does not exist: named, and nothing written.
        let nowhere = directory.path("no/such/ride.gpx")
        try expectRefused(
            ["export", "--railways", SharedPaths.tokyoRailways, "--sessions", sessions, "--out", nowhere],
            "\(nowhere): cannot be written (no such folder \(directory.path("no/such")))")
    }

    @Test func simulateWritesBothFilesOrNeither() throws {
        let directory = try TemporaryDirectory()
        let out = directory.path("cases")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try Data("torn".utf8).write(to: URL(fileURLWithPath: out + "/.sessions.sqlite.tmp-\(Self.deadProcess)"))
        let arguments = ["simulate", "--railways", SharedPaths.caltrain, "--out", out, "--count", "1", "--scenario", "caltrain"]
        #expect(try ToolRunner.run(arguments).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["sessions.sqlite", "truth.json"])
        try FileManager.default.removeItem(atPath: out + "/sessions.sqlite")
        try expectRefused(arguments, "\(out)/truth.json: file exists; not overwriting it (use --force)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == ["truth.json"])
    }
}
