import Foundation
import Testing
import TrainTrackerTestSupport

/// `traintracker modes` on the real Helsinki phones, imported with their activity samples.
@Suite(.tags(.sharedData)) struct ModesCommandTests {
    static var helsinki: String { SharedPaths.data.appendingPathComponent("helsinki/device_data.csv").path }

    /// Imports the Helsinki device CSV and returns the file and its session ids.
    static func imported(into directory: TemporaryDirectory) throws -> (path: String, sessions: [String]) {
        let path = directory.path("helsinki.sqlite")
        let outcome = try ToolRunner.run(["import-sessions", helsinki, "--out", path, "--utc-offset", "+03:00"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let sessions = outcome.standardError.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("imported session ") else { return nil }
            return line.dropFirst("imported session ".count).split(separator: ":").first.map(String.init)
        }
        return (path, sessions)
    }

    @Test func theDeviceCSVImportsOneSessionPerPhoneWithItsActivities() throws {
        let directory = try TemporaryDirectory()
        let (path, sessions) = try Self.imported(into: directory)
        #expect(sessions.count == 8)
        // Every row carries an activity: as many samples as fixes, per phone.
        let listing = try ToolRunner.run(["sessions", "--sessions", path])
        #expect(listing.standardOutput.hasSuffix("8 sessions\n"))
        let outcome = try ToolRunner.run(["import-sessions", Self.helsinki, "--out", directory.path("again.sqlite")])
        #expect(outcome.standardError.contains("707 fixes, 707 motion activities"))
    }

    @Test func noPhoneOfTheHelsinkiDayFlaps() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try Self.imported(into: directory)
        let outcome = try ToolRunner.run(["modes", "--sessions", path, "--format", "json"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let days = try outcome.standardOutput.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(days.count == 8, "one line per phone")
        let parse = ISO8601DateFormatter()
        parse.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for day in days {
            let times = try #require(day["transitions"] as? [[String: Any]]).compactMap {
                ($0["time"] as? String).flatMap(parse.date)
            }
            #expect(times.count > 3, "a day of rides changes modes")
            // Every mode lasts its minute: none is left within 60 s of entering it.
            let shortest = zip(times, times.dropFirst()).map { $1.timeIntervalSince($0) }.min() ?? .infinity
            #expect(shortest >= 60, "\(day["session"] ?? ""): a mode lasted \(shortest) s")
        }
    }

    @Test func aDayIsReplayedThroughTheModesWithItsEnergy() throws {
        let directory = try TemporaryDirectory()
        let (path, sessions) = try Self.imported(into: directory)
        let session = try #require(sessions.first)
        let text = try ToolRunner.run(["modes", "--sessions", path, "--session", session, "--utc-offset", "+03:00"])
        #expect(text.status == 0, "\(text.standardError)")
        let lines = text.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasSuffix("activelyMoving (10 m)  start") == true)
        #expect(lines.contains { $0.contains("inFastVehicle (10 m)") }, "a day on trams, metro and trains")
        #expect(lines.contains { $0.contains("stopped (100 m)") })
        #expect(lines.last?.hasPrefix("energy: ") == true && lines.last?.hasSuffix("% saved") == true)
        let json = try ToolRunner.run(["modes", "--sessions", path, "--session", session, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let seconds = try #require(object["secondsPerMode"] as? [String: Double])
        #expect(seconds.count == 4)
        let saving = try #require(object["saving"] as? Double)
        #expect(saving > 0 && saving < 1)
        // A stricter fast speed means less time in the fast-vehicle mode.
        let config = directory.path("recorder.json")
        try #"{"thresholds": {"fastSpeedKilometresPerHour": 150}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        let strict = try ToolRunner.run([
            "modes", "--sessions", path, "--session", session, "--format", "json", "--config", config,
        ])
        let strictObject = try #require(
            try JSONSerialization.jsonObject(with: Data(strict.standardOutput.utf8)) as? [String: Any])
        let strictSeconds = try #require(strictObject["secondsPerMode"] as? [String: Double])
        #expect((strictSeconds["inFastVehicle"] ?? 0) < (seconds["inFastVehicle"] ?? 0))
    }

    @Test func aBadSettingsFileIsNamed() throws {
        let directory = try TemporaryDirectory()
        let (path, sessions) = try Self.imported(into: directory)
        let config = directory.path("recorder.json")
        try #"{"thresholds": {"activelyMovingTime": 0}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        let outcome = try ToolRunner.run(["modes", "--sessions", path, "--session", sessions[0], "--config", config])
        #expect(outcome.status == 2)
        #expect(
            outcome.standardError == "traintracker: error: \(config): thresholds.activelyMovingTime must be a positive number\n")
    }
}
