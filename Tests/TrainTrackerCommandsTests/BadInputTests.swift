import Foundation
import Testing
import TrainTrackerTestSupport

/// Bad input: one line on stderr naming the file and the problem, exit status 2, nothing on stdout.
@Suite(.tags(.sharedData)) struct BadInputTests {
    /// One file per machine, written afresh by each run (a new name per run left one behind each time).
    static let notSQLite: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("traintracker-not-sqlite.txt").path
        FileManager.default.createFile(
            atPath: path, contents: Data(String(repeating: "plain text, not SQLite\n", count: 10).utf8))
        return path
    }()

    @Test(arguments: [
        (
            ["replay", "--railways", "/nonexistent/railway.sqlite", "--sessions", "/nonexistent/s.sqlite"],
            "/nonexistent/railway.sqlite: no such file"
        ),
        (["network", "--railways", "/nonexistent/railway.sqlite"], "/nonexistent/railway.sqlite: no such file"),
        (["sessions", "--sessions", "/nonexistent/s.sqlite"], "/nonexistent/s.sqlite: no such file"),
        (
            ["replay", "--railways", SharedPaths.tokyoRailways, "--sessions", "/nonexistent/s.sqlite"],
            "/nonexistent/s.sqlite: no such file"
        ),
        (
            ["replay", "--railways", SharedPaths.tokyoRailways, "--sessions", SharedPaths.tokyoRailways],
            "\(SharedPaths.tokyoRailways): missing table 'locations'"
        ),
        (
            ["bench", "--railways", SharedPaths.tokyoRailways, "--sessions", SharedPaths.tokyoRailways],
            "\(SharedPaths.tokyoRailways): missing table 'locations'"
        ),
        (["network", "--railways", notSQLite], "\(notSQLite): not an SQLite database"),
        (["sessions", "--sessions", notSQLite], "\(notSQLite): not an SQLite database"),
    ])
    func badFilesAreOneLineAndExitStatus2(arguments: [String], message: String) throws {
        let outcome = try ToolRunner.run(arguments)
        #expect(outcome.status == 2)
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardError == "traintracker: error: \(message)\n")
    }

    @Test func aSessionsFileUsedAsRailwaysNamesTheMissingTable() throws {
        let directory = try TemporaryDirectory()
        let sessions = directory.path("s.sqlite")
        #expect(try runToyokoJourney(out: sessions).status == 0)
        let wrong = try ToolRunner.run(["network", "--railways", sessions])
        #expect(wrong.status == 2)
        #expect(wrong.standardError == "traintracker: error: \(sessions): missing table 'coordinate'\n")
    }

    @Test(arguments: [
        (["--to", "Tokyu.Toyoko.Atlantis"], "railway 'Tokyu.Toyoko' has no station 'Tokyu.Toyoko.Atlantis' (--to)"),
        (
            ["--to", "Tokyu.Toyoko.Kikuna", "--stops", "Tokyu.Meguro.Hiyoshi"],
            "railway 'Tokyu.Toyoko' has no station 'Tokyu.Meguro.Hiyoshi' (--stops)"
        ),
    ])
    func aJourneyWithAStationOffTheLineWritesNothing(arguments: [String], message: String) throws {
        let directory = try TemporaryDirectory()
        let sessions = directory.path("s.sqlite")
        let outcome = try ToolRunner.run(
            [
                "journey", "--railways", SharedPaths.tokyoRailways, "--railway", "Tokyu.Toyoko", "--from", "Tokyu.Toyoko.Hiyoshi",
                "--out", sessions,
            ] + arguments)
        #expect(outcome.status == 2)
        // One line, ending with the command that lists the line's stations.
        #expect(outcome.standardError.hasPrefix("traintracker: error: \(SharedPaths.tokyoRailways): \(message)"))
        #expect(outcome.standardError.hasSuffix("--list-stations --railway 'Tokyu.Toyoko'` lists them.\n"))
        #expect(outcome.standardError.filter { $0 == "\n" }.count == 1)
        #expect(!FileManager.default.fileExists(atPath: sessions))
    }

    @Test func ridesAppendedToOneFileGetTheirOwnIds() throws {
        let directory = try TemporaryDirectory()
        let sessions = directory.path("s.sqlite")
        let common = ["journey", "--railways", SharedPaths.tokyoRailways, "--railway", "Tokyu.Toyoko", "--out", sessions]
        let first = try ToolRunner.run(common + ["--from", "Tokyu.Toyoko.Hiyoshi", "--to", "Tokyu.Toyoko.Tsunashima"])
        let second = try ToolRunner.run(
            common + ["--from", "Tokyu.Toyoko.Tsunashima", "--to", "Tokyu.Toyoko.Hiyoshi", "--append"])
        let again = try ToolRunner.run(
            common + ["--from", "Tokyu.Toyoko.Hiyoshi", "--to", "Tokyu.Toyoko.Tsunashima", "--append"])
        #expect(first.status == 0 && second.status == 0)
        #expect(again.status == 2, "the same ride twice is a duplicate session")
        let listing = try ToolRunner.run(["sessions", "--sessions", sessions])
        #expect(listing.standardOutput.hasSuffix("2 sessions\n"))
    }

    @Test func usageErrorsAreExplained() throws {
        let outcome = try ToolRunner.run(["replay", "--railways", "x", "--sessions", "y", "--utc-offset", "noon"])
        #expect(outcome.status != 0 && outcome.status != 2)
        #expect(outcome.standardError.contains("--utc-offset must look like +09:00"))
        let format = try ToolRunner.run(["replay", "--railways", "x", "--sessions", "y", "--format", "xml"])
        #expect(format.standardError.contains("xml"))
    }

    @Test func theServerRefusesABadConfigurationFileAndNamesIt() throws {
        let directory = try TemporaryDirectory()
        let config = directory.path("recorder.json")
        try "{\"modes\": ".write(toFile: config, atomically: true, encoding: .utf8)
        let db = directory.path("live.sqlite")
        let outcome = try ToolRunner.run([
            "serve", "--railways", SharedPaths.tokyoRailways, "--db", db, "--port", "0", "--config", config,
        ])
        #expect(outcome.status == 2)
        #expect(outcome.standardError == "traintracker: error: \(config): not JSON\n")
        let missing = try ToolRunner.run([
            "serve", "--railways", SharedPaths.tokyoRailways, "--db", db, "--config", directory.path("none.json"),
        ])
        #expect(missing.standardError == "traintracker: error: \(directory.path("none.json")): no such file\n")
        #expect(!FileManager.default.fileExists(atPath: db), "nothing written")
        // A tile template that could break the viewer's policy is refused before anything starts.
        let tiles = try ToolRunner.run([
            "serve", "--railways", SharedPaths.tokyoRailways, "--db", db, "--tiles",
            "https://a.example/{z}/{x}/{y}.png; img-src *",
        ])
        #expect(tiles.status != 0)
        #expect(
            tiles.standardError.contains("--tiles https://a.example/{z}/{x}/{y}.png; img-src *: it holds a space"),
            "\(tiles.standardError)")
        #expect(!FileManager.default.fileExists(atPath: db), "nothing written")
    }

    @Test func realtimeOptionsOutOfRangeAreRefusedWithTheirName() throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("s.sqlite")
        let serve = ["serve", "--railways", SharedPaths.tokyoRailways, "--db", db, "--port", "0"]
        for (extra, said) in [
            (
                ["--realtime", "ftp://feeds.example/trips?key=SECRET"],
                "--realtime ftp://feeds.example/trips: not an http or https URL"
            ),
            (["--realtime", "https://"], "not an http or https URL"),
            (["--realtime-every", "0"], "--realtime-every must be 1 to 86400 seconds"),
            (["--realtime-max-age", "nan"], "--realtime-max-age must be 1 to 86400 seconds"),
            (["--realtime-min-riders", "0"], "--realtime-min-riders must be 1 to 1000"),
            (["--realtime-share-riders=-1"], "--realtime-share-riders must be 0 to 1000"),
        ] {
            let outcome = try ToolRunner.run(serve + extra)
            #expect(outcome.status != 0 && outcome.standardError.contains(said), "\(extra): \(outcome.standardError)")
            #expect(!outcome.standardError.contains("SECRET"), "a feed's key is never echoed")
        }
        #expect(!FileManager.default.fileExists(atPath: db), "nothing written")
        let feed = try ToolRunner.run([
            "recording-feed", "--railways", SharedPaths.caltrain2024, "--cases", directory.path("none"), "--out",
            directory.path("f"),
        ])
        #expect(feed.status != 0 && feed.standardError.contains("--cases goes with --riders"), "\(feed.standardError)")
        let join = try ToolRunner.run([
            "evaluate", "--railways", SharedPaths.caltrain2024, "--recording", SharedPaths.caltrainRecording, "--join-after=-5",
        ])
        #expect(
            join.status != 0 && join.standardError.contains("--join-after must be 0 to 86400 seconds"), "\(join.standardError)")
    }

    @Test func aTokenIsForADeviceAnAdminOrAReaderNotTwo() throws {
        let directory = try TemporaryDirectory()
        let both = try ToolRunner.run(["token", "create", "--db", directory.path("t.sqlite"), "--device", "a", "--admin"])
        #expect(both.status != 0 && both.status != 2)
        #expect(both.standardError.contains("give exactly one of --device NAME, --admin and --reader"))
        let reading = try ToolRunner.run(["token", "create", "--db", directory.path("t.sqlite"), "--reader", "--admin"])
        #expect(reading.standardError.contains("give exactly one of --device NAME, --admin and --reader"))
        let neither = try ToolRunner.run(["token", "create", "--db", directory.path("t.sqlite")])
        #expect(neither.standardError.contains("give exactly one of --device NAME, --admin and --reader"))
        let notSQLite = directory.path("notes.txt")
        try "not a database".write(toFile: notSQLite, atomically: true, encoding: .utf8)
        let bad = try ToolRunner.run(["token", "create", "--db", notSQLite, "--admin"])
        #expect(bad.status == 2)
        #expect(bad.standardError == "traintracker: error: \(notSQLite): not an SQLite database\n")
    }
}
