import Foundation
import Testing
import TrainTrackerTestSupport

/// `simulate` under each condition, and `evaluate` reporting conditions side by side.
@Suite(.tags(.sharedData)) struct ConditionsCommandTests {
    func simulate(_ out: String, _ options: [String]) throws -> ToolOutcome {
        try ToolRunner.run(
            [
                "simulate", "--railways", SharedPaths.caltrain, "--out", out, "--count", "2", "--seed", "31", "--scenario",
                "caltrain",
            ]
                + options)
    }

    @Test func everyConditionIsAnOptionAndTheCasesFileKeepsIt() throws {
        let directory = try TemporaryDirectory()
        let out = directory.path("hard")
        let outcome = try simulate(
            out, ["--phone", "background", "--map", "shifted", "--day", "disrupted", "--rider", "lingers", "--canyons"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("(background phone · shifted map · disrupted day · rider lingers · canyons)"))
        let data = try Data(contentsOf: URL(fileURLWithPath: out).appendingPathComponent("truth.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let conditions = try #require(json["conditions"] as? [String: Any])
        #expect(conditions["phone"] as? String == "background")
        #expect(conditions["map"] as? String == "shifted")
        #expect(conditions["day"] as? String == "disrupted")
        #expect(conditions["rider"] as? String == "lingers")
        #expect(conditions["canyons"] as? Bool == true)
        let cases = try #require(json["cases"] as? [[String: Any]])
        #expect(cases.allSatisfy { ($0["delay"] as? Double).map { (240...1_500).contains($0) } == true })
        let unknown = try simulate(directory.path("x"), ["--map", "napkin"])
        #expect(unknown.status != 0)
        #expect(unknown.standardError.contains("napkin"))
    }

    @Test func evaluateReportsConditionsSideBySideAndAsAMatrix() throws {
        let directory = try TemporaryDirectory()
        let good = directory.path("good")
        let background = directory.path("background")
        #expect(try simulate(good, []).status == 0)
        #expect(try simulate(background, ["--phone", "background"]).status == 0)
        let base = ["evaluate", "--railways", SharedPaths.caltrain, "--cases", good, "--cases", background]
        let table = try ToolRunner.run(base + ["--algorithm", "railway", "--untimed"])
        #expect(table.status == 0, "\(table.standardError)")
        let rows = table.standardOutput.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(rows.first?.prefix(2) == ["condition", "algorithm"])
        // Per condition and algorithm (default, default-untimed): all, then the scenario.
        #expect(rows.count == 1 + 2 * 2 * 2)
        #expect(Set(rows.dropFirst().map { String($0[0]) }) == ["good", "background"])
        #expect(rows.dropFirst().contains { $0[1] == "default-untimed" })

        let svg = directory.path("matrix.svg")
        let matrix = try ToolRunner.run(base + ["--algorithm", "railway", "--matrix", "railway", "--svg", svg])
        #expect(matrix.status == 0, "\(matrix.standardError)")
        let lines = matrix.standardOutput.split(separator: "\n")
        #expect(
            lines.first?.split(separator: " ", omittingEmptySubsequences: true) == ["railway", "scenario", "good", "background"])
        #expect(lines.count == 3, "a row for all and one for the scenario")
        #expect(lines.dropFirst().allSatisfy { $0.components(separatedBy: "%").count == 3 }, "a share per condition")
        let picture = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(picture.hasPrefix("<svg") && picture.contains(">background<") && picture.contains(">good<"))
    }

    @Test func aTuningConstantIsNamedOrRefused() throws {
        let directory = try TemporaryDirectory()
        let cases = directory.path("cases")
        #expect(try simulate(cases, []).status == 0)
        let base = ["evaluate", "--railways", SharedPaths.caltrain, "--cases", cases, "--algorithm", "railway"]
        let tuned = try ToolRunner.run(base + ["--tune", "positionWeight=0.3"])
        #expect(tuned.status == 0, "\(tuned.standardError)")
        let unknown = try ToolRunner.run(base + ["--tune", "luck=7"])
        #expect(unknown.status == 64)
        #expect(unknown.standardError.contains("--tune luck=7: expected NAME=VALUE with a NAME of"))
        let notANumber = try ToolRunner.run(base + ["--tune", "positionWeight=nan"])
        #expect(notANumber.status == 64)
        #expect(notANumber.standardError.contains("not a number"))
    }

    @Test(arguments: [2, 5])
    func aJitteryPhoneOnATrainHeldAtAStationKeepsItsLine(seed: Int) throws {
        // Keihin-Tohoku and Tokaido trains on one corridor, each held 5-30 minutes at a stop
        // (Yokohama's platforms lie beside the Keikyu's), logged by an Android phone under the
        // roof: position and time only, wandering 5-30 m. Read as creeping, the jitter made
        // other lines' departures: the line was named on 75-83 % of these rides' fixes.
        let directory = try TemporaryDirectory()
        let cases = directory.path("held")
        let simulated = try ToolRunner.run([
            "simulate", "--railways", SharedPaths.miniTokyo3D, "--out", cases, "--count", "3", "--seed", "\(seed)",
            "--scenario", "keihintohoku-tokaido", "--phone", "jittery", "--day", "held",
        ])
        #expect(simulated.status == 0, "\(simulated.standardError)")
        let json = try ToolRunner.run([
            "evaluate", "--railways", SharedPaths.miniTokyo3D, "--cases", cases, "--algorithm", "railway", "--format", "json",
        ])
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        let summary = try #require(reports.first?["summary"] as? [String: Any])
        let railway = try #require(summary["railwayAccuracy"] as? Double)
        let nextStop = try #require(summary["nextStopAccuracy"] as? Double)
        #expect(railway >= 0.95, "\(railway)")
        #expect(nextStop >= 0.95, "\(nextStop)")
    }
}
