import Foundation
import GRDB
import Testing
import TrainTrackerCore
import TrainTrackerStorage
import TrainTrackerTestSupport

@testable import TrainTrackerLab

/// `evaluate --sessions --log`: rides scored against a rider's own log, end to end.
@Suite(.tags(.sharedData)) struct LogEvaluationTests {
    /// The JSON report: per algorithm, the summary and the events.
    struct Report: Decodable {
        struct Summary: Decodable {
            var departures: Int
            var departuresRight: Int
            var arrivals: Int
            var arrivalsRight: Int
            var saidNow: Int
            var medianNowOffset: Double?
            var worstNowOffset: Double?
            var unscored: Int
        }
        struct Event: Decodable {
            var event: String
            var logged: String
            var expected: String
            var right: Bool?
            var nowOffset: Double?
            var unscoredReason: String?
        }
        var algorithm: String
        var summary: Summary
        var events: [Event]
    }

    func evaluate(_ arguments: [String]) throws -> [Report] {
        let outcome = try ToolRunner.run(["evaluate", "--format", "json"] + arguments)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        return try JSONDecoder().decode([Report].self, from: Data(outcome.standardOutput.utf8))
    }

    // MARK: Logs written from simulated rides

    /// Five simulated Caltrain rides (seed 9): their session file and their truth.
    static func simulatedCases(in directory: TemporaryDirectory) throws -> (sessions: String, cases: [CaseTruth]) {
        let out = directory.path("cases")
        let simulate = try ToolRunner.run([
            "simulate", "--railways", SharedPaths.caltrain, "--out", out, "--count", "5", "--seed", "9", "--scenario", "caltrain",
        ])
        #expect(simulate.status == 0, "\(simulate.standardError)")
        struct Cases: Decodable { var cases: [CaseTruth] }
        let truth = try JSONDecoder().decode(Cases.self, from: Data(contentsOf: URL(fileURLWithPath: out + "/truth.json")))
        #expect(truth.cases.count == 5)
        return (out + "/sessions.sqlite", truth.cases)
    }

    /// Simulated Caltrain rides, and the log their truth makes.
    func simulatedRides(in directory: TemporaryDirectory) throws -> (sessions: String, log: [RiderLogEvent]) {
        let (sessions, cases) = try Self.simulatedCases(in: directory)
        return (sessions, cases.flatMap { $0.riderLog() })
    }

    @Test func logsOfSimulatedRidesScoreNearlyAllRightAndAWrongLineScoresWrong() throws {
        let directory = try TemporaryDirectory()
        let (sessions, log) = try simulatedRides(in: directory)
        try RiderLogCSV.text(log).write(toFile: directory.path("log.csv"), atomically: true, encoding: .utf8)
        let reports = try evaluate([
            "--railways", SharedPaths.caltrain, "--sessions", sessions, "--log", directory.path("log.csv"),
        ])
        #expect(reports.map(\.algorithm) == ["default", "eki"])
        let summary = try #require(reports.first?.summary)
        #expect(summary.unscored == 0)
        #expect(summary.departures >= 10 && summary.arrivals >= 10, "a departure and an arrival at each stop")
        #expect(Double(summary.departuresRight) >= 0.9 * Double(summary.departures), "\(summary)")
        #expect(Double(summary.arrivalsRight) >= 0.9 * Double(summary.arrivals), "\(summary)")
        #expect(Double(summary.saidNow) >= 0.9 * Double(summary.arrivals))
        #expect(abs(try #require(summary.medianNowOffset)) <= 30)

        // The same log with the other direction at every departure: each departure is wrong.
        let wrong = log.map { event -> RiderLogEvent in
            var event = event
            event.direction = event.direction.map { $0 == "North" ? "South" : "North" }
            return event
        }
        #expect(log.contains { $0.direction == "North" } && log.contains { $0.direction == "South" })
        try RiderLogCSV.text(wrong).write(toFile: directory.path("wrong.csv"), atomically: true, encoding: .utf8)
        let wrongReports = try evaluate([
            "--railways", SharedPaths.caltrain, "--sessions", sessions, "--log", directory.path("wrong.csv"), "--algorithm",
            "railway",
        ])
        let wrongSummary = try #require(wrongReports.first?.summary)
        #expect(wrongSummary.departures == summary.departures && wrongSummary.departuresRight == 0)
    }

    @Test func aGroundTruthLoggerFileWithLocalTimesAndNotesScoresAsTheCSVDoes() throws {
        let directory = try TemporaryDirectory()
        let (sessions, log) = try simulatedRides(in: directory)
        try RiderLogCSV.text(log).write(toFile: directory.path("log.csv"), atomically: true, encoding: .utf8)
        // Pacific daylight time, notes as the app keeps them: "station, railway, direction".
        try GroundTruthLog.write(log, utcOffset: -25_200, to: directory.path("events.sqlite"))
        let common = ["--railways", SharedPaths.caltrain, "--sessions", sessions, "--algorithm", "railway"]
        let fromCSV = try evaluate(common + ["--log", directory.path("log.csv")])
        let fromApp = try evaluate(common + ["--log", directory.path("events.sqlite"), "--utc-offset", "-07:00"])
        #expect(fromApp.first?.summary.unscored == 0, "\(fromApp.first?.events.compactMap(\.unscoredReason) ?? [])")
        #expect(fromApp.first?.events.map(\.right) == fromCSV.first?.events.map(\.right))
        // Read as UTC the times are seven hours off: no session covers them.
        let shifted = try ToolRunner.run(
            ["evaluate", "--railways", SharedPaths.caltrain, "--sessions", sessions, "--log", directory.path("events.sqlite")])
        #expect(shifted.status == 0)
        #expect(shifted.standardError.contains("is --utc-offset right?"))
        #expect(shifted.standardOutput.contains("not scored: no session's fixes cover this time"))
    }

    // MARK: A hand-written log of a journey

    /// A rider's notes of a JR Tokaido ride from Shinagawa to Yokohama with a stop at
    /// Kawasaki, in Tokyo time, as typed on the phone (names, not ids; times to the second).
    static let handWrittenLog = """
        time,event,station,railway,direction
        2025-09-20 17:00:21,departure,Shinagawa,Tokaido Line,for Yokohama
        2025-09-20 17:08:40,arrival,Kawasaki,,
        2025-09-20 17:09:11,departure,Kawasaki,,
        2025-09-20 17:16:36,arrival,Yokohama,,
        2025-09-20 17:18:00,walking,,,
        """

    @Test func aHandWrittenLogOfAJourneyIsScoredEndToEnd() throws {
        let directory = try TemporaryDirectory()
        let sessions = directory.path("ride.sqlite")
        let journey = try ToolRunner.run([
            "journey", "--railways", SharedPaths.tokyoRailways, "--railway", "JR-East.Tokaido", "--from",
            "JR-East.Tokaido.Shinagawa", "--to", "JR-East.Tokaido.Yokohama", "--stops", "JR-East.Tokaido.Kawasaki", "--noise",
            "8", "--out", sessions,
        ])
        #expect(journey.status == 0, "\(journey.standardError)")
        try Self.handWrittenLog.write(toFile: directory.path("log.csv"), atomically: true, encoding: .utf8)
        let arguments = [
            "evaluate", "--railways", SharedPaths.tokyoRailways, "--sessions", sessions, "--log", directory.path("log.csv"),
            "--utc-offset", "+09:00",
        ]
        let table = try ToolRunner.run(arguments)
        #expect(table.status == 0, "\(table.standardError)")
        let lines = table.standardOutput.split(separator: "\n").map(String.init)
        // The times on the log's clock, which the header names.
        #expect(lines.first?.hasPrefix("time (UTC+09:00)  event      logged") == true, "\(table.standardOutput)")
        #expect(
            lines.contains {
                $0.hasPrefix("17:00:21 ") && $0.contains(" departure  Shinagawa  Tokaido Line Outbound")
            })
        #expect(table.standardOutput.contains("(1 walking, automotive or location events not scored)"))
        let reports = try evaluate(Array(arguments.dropFirst()))
        let summary = try #require(reports.first { $0.algorithm == "default" }?.summary)
        #expect(summary.departures == 2 && summary.arrivals == 2 && summary.unscored == 0)
        #expect(summary.departuresRight == 2 && summary.arrivalsRight == 2, "\(table.standardOutput)")
        #expect(summary.saidNow == 2 && abs(summary.worstNowOffset ?? .infinity) <= 45, "\(table.standardOutput)")
        let expected = reports.first?.events.map(\.expected)
        #expect(
            expected == ["Tokaido Line Outbound", "Kawasaki", "Tokaido Line Outbound", "Yokohama"], "still on the Tokaido Line")

        // The same ride logged on the parallel Keihin-Tohoku Line: its departures are wrong.
        let wrongLine = Self.handWrittenLog.replacingOccurrences(of: "Tokaido Line", with: "Keihin-Tohoku Line")
            .replacingOccurrences(of: "departure,Kawasaki,,", with: "departure,Kawasaki,Keihin-Tohoku,for Yokohama")
        try wrongLine.write(toFile: directory.path("wrong.csv"), atomically: true, encoding: .utf8)
        var wrongArguments = Array(arguments.dropFirst())
        wrongArguments[wrongArguments.firstIndex(of: directory.path("log.csv")) ?? 0] = directory.path("wrong.csv")
        let wrong = try #require(try evaluate(wrongArguments + ["--algorithm", "railway"]).first?.summary)
        #expect(wrong.departures == 2 && wrong.departuresRight == 0)
    }

    // MARK: Bad input

    func expectRefused(
        _ log: String, named name: String = "log.csv", _ message: (String) -> String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path(name)
        try log.write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try ToolRunner.run([
            "evaluate", "--railways", SharedPaths.caltrain, "--sessions", directory.path("none.sqlite"), "--log", path,
        ])
        #expect(outcome.status == 2, sourceLocation: sourceLocation)
        #expect(outcome.standardOutput.isEmpty, sourceLocation: sourceLocation)
        #expect(outcome.standardError == "traintracker: error: \(message(path))\n", sourceLocation: sourceLocation)
    }

    @Test func malformedCSVLogsAreRefusedNamingTheLineAndField() throws {
        let header = "time,event,station,railway,direction\n"
        try expectRefused(header + "2025-09-20 17:00:45,departure,A,,\nyesterday,arrival,B,,\n") {
            "\($0): line 3: field 'time': not a time 'yesterday' (ISO 8601 such as 2025-09-22T08:01:05+09:00, or 2025-09-22 08:01:05 local time)"
        }
        try expectRefused(header + "2025-09-20 17:00:45,teleport,A,,\n") {
            "\($0): line 2: field 'event': unknown event 'teleport' (departure, arrival, walking, automotive or significantLocation)"
        }
        try expectRefused(header + "2025-09-20 17:00:45,,A,,\n") { "\($0): line 2: field 'event': empty" }
        try expectRefused(header + "2025-09-20 17:00:45,departure,A,,\n2025-09-20 17:05:00,arr") {
            "\($0): line 3: ends after 2 of 5 fields (the file is cut short)"
        }
        try expectRefused(header + "2025-09-20 17:00:45,departure,\"Shinag") {
            "\($0): line 2: a quote opened here is never closed (the file is cut short or malformed)"
        }
        try expectRefused("when,station\n2025-09-20 17:00:45,A\n") {
            "\($0): field 'event': missing column (looked for event, kind, category, type, what; the header is time,event,station,railway,direction)"
        }
        try expectRefused(header) { "\($0): no events" }
        try expectRefused(header + "2025-09-20 17:00:45,walking,,,\n") {
            "\($0): no departure or arrival events (only walking, automotive or location ones)"
        }
        try expectRefused(header + "2025-13-40 17:00:45,departure,A,,\n") {
            "\($0): line 2: field 'time': not a time '2025-13-40 17:00:45' (ISO 8601 such as 2025-09-22T08:01:05+09:00, or 2025-09-22 08:01:05 local time)"
        }
    }

    @Test func malformedGroundTruthLoggerFilesAreRefusedNamingTheRowAndColumn() throws {
        let directory = try TemporaryDirectory()
        func database(_ name: String, _ sql: String) throws -> String {
            let path = directory.path(name)
            let queue = try DatabaseQueue(path: path)
            try queue.write { try $0.execute(sql: sql) }
            try queue.close()
            return path
        }
        func refused(_ path: String) throws -> String {
            let outcome = try ToolRunner.run([
                "evaluate", "--railways", SharedPaths.caltrain, "--sessions", directory.path("none.sqlite"), "--log", path,
            ])
            #expect(outcome.status == 2)
            #expect(outcome.standardOutput.isEmpty)
            return outcome.standardError
        }
        let table = "CREATE TABLE events (id TEXT, timestamp TEXT, category TEXT, notes TEXT);"
        let noTable = try database("none.db", "CREATE TABLE other (id TEXT);")
        #expect(try refused(noTable) == "traintracker: error: \(noTable): missing table 'events'\n")
        let noColumn = try database("column.db", "CREATE TABLE events (id TEXT, timestamp TEXT, notes TEXT);")
        #expect(try refused(noColumn) == "traintracker: error: \(noColumn): table 'events' has no column 'category'\n")
        let badTime = try database(
            "time.db", table + "INSERT INTO events VALUES ('E1', '20/09/2025 17:00', 'trainDeparture', 'Shinagawa');")
        #expect(
            try refused(badTime)
                == "traintracker: error: \(badTime): table 'events', row 'E1', column 'timestamp': not a time '20/09/2025 17:00' (yyyy-MM-dd HH:mm:ss.SSS)\n"
        )
        let noTime = try database("null.db", table + "INSERT INTO events VALUES ('E2', NULL, 'trainArrival', NULL);")
        #expect(
            try refused(noTime)
                == "traintracker: error: \(noTime): table 'events', row 'E2', column 'timestamp': not a time: NULL\n")
        let numberTime = try database("number.db", table + "INSERT INTO events VALUES (NULL, 1e300, 'trainArrival', NULL);")
        #expect(
            try refused(numberTime)
                == "traintracker: error: \(numberTime): table 'events', row 'rowid 1', column 'timestamp': not a time '1.0e+300' (yyyy-MM-dd HH:mm:ss.SSS)\n"
        )
        let badCategory = try database(
            "category.db", table + "INSERT INTO events VALUES ('E3', '2025-09-20 17:00:45.000', 'trainTeleport', NULL);")
        #expect(
            try refused(badCategory).contains(
                "\(badCategory): table 'events', row 'E3', column 'category': unknown category 'trainTeleport'"))
        let empty = try database("empty.db", table)
        #expect(try refused(empty) == "traintracker: error: \(empty): no events\n")
        let notSQLite = directory.path("garbage.sqlite")
        try Data("SQLite format 3\u{0}".utf8 + [UInt8](repeating: 0xFF, count: 200)).write(to: URL(fileURLWithPath: notSQLite))
        #expect(try refused(notSQLite).hasPrefix("traintracker: error: \(notSQLite): "))
    }

    @Test func theModesAreExclusiveAndTheirFilesNamed() throws {
        let directory = try TemporaryDirectory()
        let both = try ToolRunner.run([
            "evaluate", "--railways", SharedPaths.caltrain, "--cases", directory.path("c"), "--log", directory.path("l.csv"),
        ])
        #expect(
            both.status != 0
                && both.standardError.contains(
                    "give either --cases DIR, --recording FILE, --sessions FILE with --log FILE, or --rides FOLDER")
        )
        let neither = try ToolRunner.run(["evaluate", "--railways", SharedPaths.caltrain])
        #expect(neither.status != 0 && neither.standardError.contains("give either --cases DIR"))
        let missing = try ToolRunner.run([
            "evaluate", "--railways", SharedPaths.caltrain, "--sessions", directory.path("s.sqlite"), "--log",
            directory.path("l.csv"),
        ])
        #expect(missing.status == 2)
        #expect(missing.standardError == "traintracker: error: \(directory.path("l.csv")): no such file\n")
        let badOffset = try ToolRunner.run([
            "evaluate", "--railways", SharedPaths.caltrain, "--sessions", "s", "--log", "l", "--utc-offset", "+99:00",
        ])
        #expect(badOffset.status != 0 && badOffset.standardError.contains("--utc-offset must look like +09:00"))
    }
}
