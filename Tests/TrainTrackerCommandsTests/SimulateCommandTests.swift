import Foundation
import Testing
import TrainTrackerTestSupport

@Suite(.tags(.sharedData)) struct SimulateCommandTests {
    func simulate(_ out: String, seed: Int, extra: [String] = []) throws -> ToolOutcome {
        try ToolRunner.run(
            [
                "simulate", "--railways", SharedPaths.caltrain, "--out", out, "--count", "2", "--seed", "\(seed)", "--scenario",
                "caltrain",
            ] + extra)
    }

    @Test func theSameSeedWritesTheSameCases() throws {
        let directory = try TemporaryDirectory()
        let first = directory.path("a")
        let second = directory.path("b")
        let third = directory.path("c")
        #expect(try simulate(first, seed: 5).status == 0)
        #expect(try simulate(second, seed: 5).status == 0)
        #expect(try simulate(third, seed: 6).status == 0)
        let truth = { (folder: String) in try Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent("truth.json"))
        }
        #expect(try truth(first) == truth(second))
        #expect(try truth(first) != truth(third))
        let sessions = try ToolRunner.run(["sessions", "--sessions", first + "/sessions.sqlite"])
        #expect(
            sessions.standardOutput
                == (try ToolRunner.run(["sessions", "--sessions", second + "/sessions.sqlite"])).standardOutput)
        #expect(sessions.standardOutput.hasSuffix("2 sessions\n"))
        let json = try #require(try JSONSerialization.jsonObject(with: truth(first)) as? [String: Any])
        let cases = try #require(json["cases"] as? [[String: Any]])
        #expect(cases.count == 2)
        #expect(cases.allSatisfy { ($0["scenario"] as? String) == "caltrain" && ($0["fixes"] as? [Any])?.isEmpty == false })
        let fix = try #require((cases.first?["fixes"] as? [[String: Any]])?.first)
        #expect(Set(fix.keys) == ["locationID", "time", "alongTrack", "speed", "station", "phase", "nextStop", "nextStopPhase"])
    }

    @Test func evaluateReportsEveryMeasureAsATableAndAsJSON() throws {
        let directory = try TemporaryDirectory()
        let cases = directory.path("cases")
        #expect(try simulate(cases, seed: 3).status == 0)
        let table = try ToolRunner.run(["evaluate", "--railways", SharedPaths.caltrain, "--cases", cases, "--per-session"])
        #expect(table.status == 0)
        let lines = table.standardOutput.split(separator: "\n")
        #expect(
            lines.first?.split(separator: " ", omittingEmptySubsequences: true).prefix(4) == [
                "algorithm", "cases", "sessions", "fixes",
            ])
        #expect(lines.count == 1 + 2 * (2 + 2), "header; per algorithm (default, eki): all, the scenario, two sessions")
        let json = try ToolRunner.run(["evaluate", "--railways", SharedPaths.caltrain, "--cases", cases, "--format", "json"])
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        let summary = try #require(reports.first?["summary"] as? [String: Any])
        for key in [
            "railwayAccuracy", "directionAccuracy", "focusAccuracy", "nextStopAccuracy", "lockedShare", "microsecondsPerFix",
        ] {
            #expect((summary[key] as? Double).map { (0...1_000).contains($0) } == true, "\(key)")
        }
        #expect((reports.first?["scenarios"] as? [String: Any])?.keys.sorted() == ["caltrain"])
    }

    @Test func aFileImportedFromTheFeedIsTheSameMapAndAnotherMapIsSaidToBe() throws {
        let directory = try TemporaryDirectory()
        let cases = directory.path("cases")
        #expect(try simulate(cases, seed: 3).status == 0)
        let imported = directory.path("caltrain.sqlite")
        #expect(try ToolRunner.run(["import", "--from", "gtfs", SharedPaths.caltrain, "--out", imported]).status == 0)
        let header = { (railways: String) throws -> String in
            let outcome = try ToolRunner.run([
                "evaluate", "--railways", railways, "--cases", cases, "--algorithm", "railway", "--matrix", "railway",
            ])
            return outcome.standardOutput.split(separator: "\n").first.map(String.init) ?? ""
        }
        #expect(try header(imported).hasSuffix(" good"), "the feed's own railways, from the file imported from it")
        // Caltrain's 2024 feed draws the same line as the 2017 one the cases rode, but not the same map.
        #expect(try header(SharedPaths.caltrain2024).hasSuffix(" good · other map"))
    }

    @Test func aPictureOfOneScenarioIsWideEnoughForItsTitleAndLegend() throws {
        let directory = try TemporaryDirectory()
        let cases = directory.path("cases")
        #expect(try simulate(cases, seed: 3).status == 0)
        let picture = directory.path("scores.svg")
        let outcome = try ToolRunner.run([
            "evaluate", "--railways", SharedPaths.caltrain, "--cases", cases, "--svg", picture,
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let svg = try String(contentsOfFile: picture, encoding: .utf8)
        let width = try #require(
            svg.firstMatch(of: /width="(\d+)"/).flatMap { Int($0.1) })
        // The legend's last words, 11 px Helvetica at some 6.6 px a letter, end inside the picture.
        let legend = try #require(svg.firstMatch(of: /<text x="([\d.]+)"[^>]*>(algorithms, left to right: [^<]*)</))
        let legendEnd = (Double(legend.1) ?? 0) + Double(legend.2.count) * 6.6
        #expect(Double(width) >= legendEnd, "\(width) px for a legend ending near \(legendEnd)")
        #expect(width > 294)
    }

    @Test func badArgumentsAreExplained() throws {
        let directory = try TemporaryDirectory()
        let unknown = try ToolRunner.run([
            "simulate", "--railways", SharedPaths.caltrain, "--out", directory.path("x"), "--scenario", "moon",
        ])
        #expect(unknown.standardError.contains("unknown scenario 'moon'"))
        let wrongNetwork = try ToolRunner.run([
            "simulate", "--railways", SharedPaths.caltrain, "--out", directory.path("y"), "--scenario", "toyoko-meguro",
        ])
        #expect(wrongNetwork.status == 2)
        #expect(wrongNetwork.standardError.contains("scenario toyoko-meguro needs railways Tokyu.Meguro, Tokyu.Toyoko"))
        let noTimetables = try ToolRunner.run(["simulate", "--railways", SharedPaths.tokyoRailways, "--out", directory.path("z")])
        #expect(noTimetables.status == 2)
        #expect(noTimetables.standardError.contains("no timetables; give --timetables"))
        let noCases = try ToolRunner.run(["evaluate", "--railways", SharedPaths.caltrain, "--cases", directory.path("none")])
        #expect(noCases.status == 2)
        #expect(noCases.standardError.contains("truth.json: no such file"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty, "nothing written")
    }
}
