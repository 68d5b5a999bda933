import Foundation
import Testing
import TrainTrackerCore
import TrainTrackerStorage
import TrainTrackerTestSupport

/// `traintracker speed`: a session's smoothed speed as CSV, JSON and a picture, and the
/// filters scored on simulated rides.
@Suite(.tags(.sharedData)) struct SpeedCommandTests {
    static let network = Result { try RailwayDatabase.load(path: SharedPaths.tokyoRailways) }

    @Test func aSessionsSpeedComesAsCSVJSONAndAPicture() throws {
        let directory = try TemporaryDirectory()
        let sessions = directory.path("sessions.sqlite")
        let count = try writeToyokoSession(to: sessions, network: try Self.network.get())
        let picture = directory.path("speed.svg")
        let csv = try ToolRunner.run([
            "speed", "--sessions", sessions, "--session", "TOYOKO-1", "--filter", "decay", "--svg", picture,
        ])
        #expect(csv.status == 0, "\(csv.standardError)")
        let lines = csv.standardOutput.split(separator: "\n")
        #expect(lines.first == "time,rawSpeed,smoothedSpeed,paceMinutesPerKilometre,stopped")
        #expect(lines.count == count + 1)
        // At speed the pace is minutes per kilometre; standing has none.
        let moving = try #require(lines.dropFirst().first { $0.hasSuffix(",false") && !$0.contains(",,") })
        let fields = moving.split(separator: ",", omittingEmptySubsequences: false)
        let (speed, pace) = (try #require(Double(fields[2])), try #require(Double(fields[3])))
        #expect(abs(pace - 1_000 / speed / 60) < 0.01)
        #expect(lines.contains { $0.hasSuffix(",true") && $0.split(separator: ",", omittingEmptySubsequences: false)[3].isEmpty })
        let svg = try String(contentsOfFile: picture, encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && svg.contains("<polyline") && svg.contains("fill=\"#f4c7c3\""))
        let json = try ToolRunner.run(["speed", "--sessions", sessions, "--session", "TOYOKO-1", "--format", "json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(rows.count == count)
        #expect(Set(rows[0].keys) == ["time", "rawSpeed", "smoothedSpeed", "paceMinutesPerKilometre", "stopped"])
    }

    @Test func theFiltersAreScoredOnSimulatedRides() throws {
        let directory = try TemporaryDirectory()
        let out = directory.path("cases")
        let simulated = try ToolRunner.run([
            "simulate", "--railways", SharedPaths.caltrain, "--out", out, "--count", "2", "--seed", "3", "--scenario", "caltrain",
            "--phone", "noisy",
        ])
        #expect(simulated.status == 0, "\(simulated.standardError)")
        let outcome = try ToolRunner.run(["speed", "--cases", out, "--format", "json"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let scores = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [[String: Any]])
        let rmse = Dictionary(uniqueKeysWithValues: scores.map { ($0["filter"] as? String ?? "", $0["rmse"] as? Double ?? 0) })
        #expect(Set(rmse.keys) == Set(SpeedFilterName.allCases.map(\.rawValue)))
        // On a poor phone every smoothing filter beats the raw speed.
        for name in ["window", "decay", "kalman"] { #expect(try #require(rmse[name]) < rmse["raw"] ?? 0, "\(name)") }
        #expect(scores.allSatisfy { ($0["trueStops"] as? Int ?? 0) > 0 })
    }

    @Test func itNeedsEitherASessionOrCases() throws {
        let neither = try ToolRunner.run(["speed"])
        #expect(neither.status != 0 && neither.status != 2)
        #expect(neither.standardError.contains("give --sessions PATH --session ID, or --cases DIRECTORY"))
        let directory = try TemporaryDirectory()
        let sessions = directory.path("sessions.sqlite")
        _ = try writeToyokoSession(to: sessions, network: try Self.network.get())
        let unknown = try ToolRunner.run(["speed", "--sessions", sessions, "--session", "NOPE"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError == "traintracker: error: \(sessions): no session with id 'NOPE'\n")
    }
}
