import Foundation
import Testing
import TrainTrackerTestSupport

/// `traintracker budget` on simulated Caltrain rides: accuracy against energy.
@Suite(.tags(.sharedData)) struct BudgetCommandTests {
    static func run(_ extra: [String]) throws -> ToolOutcome {
        try ToolRunner.run(
            [
                "budget", "--railways", SharedPaths.caltrain, "--scenario", "caltrain", "--count", "3", "--seed", "5",
                "--accuracies",
                "10,1000", "--intervals", "1,30", "--fast-speeds", "50", "--active-intervals", "1,5",
            ] + extra)
    }

    @Test func sparserRequestsCostLessAndTheCurveAndTheRecommendationArePrinted() throws {
        let directory = try TemporaryDirectory()
        let picture = directory.path("budget.svg")
        let outcome = try Self.run(["--svg", picture])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        func energy(_ request: String) throws -> Double {
            let line = try #require(lines.first { $0.hasPrefix(request) }, "\(request)")
            let share = try #require(line.dropFirst(request.count).split(separator: " ").first.flatMap { Double($0) })
            return share
        }
        // Satellites a second throughout is the reference; a cell fix every 30 s with a fix every
        // 5 s while moving costs a fraction of it.
        let always = try energy("10 m (satellites) every 1 s, fast from 50 km/h, moving every 1 s")
        let sparse = try energy("1000 m (cell) every 30 s, fast from 50 km/h, moving every 5 s")
        #expect(always > 90 && always <= 101)
        #expect(sparse < always / 2)
        // Eight choices, cheapest first.
        let rows = lines.filter {
            $0.contains(", moving every ") && !$0.hasPrefix("100.0 %") && $0.first?.isNumber == true && $0.contains(" m (")
        }
        #expect(rows.count >= 8)
        #expect(lines.contains { $0.hasPrefix("energy budget") } && lines.contains { $0.hasPrefix("10.0 %") })
        #expect(lines.contains { $0.hasPrefix("cheapest with the railway right") || $0.hasPrefix("no request keeps") })
        let svg = try String(contentsOfFile: picture, encoding: .utf8)
        #expect(svg.components(separatedBy: "<circle cx=").count - 1 >= 8 + 1, "a dot per choice and the legend's")
    }

    @Test func jsonListsEveryChoiceCheapestFirst() throws {
        let outcome = try Self.run(["--format", "json"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let items = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [[String: Any]])
        #expect(items.count == 8)
        let energies = items.compactMap { $0["energyShare"] as? Double }
        #expect(energies.count == 8 && energies == energies.sorted())
        #expect(items.allSatisfy { ($0["railwayAccuracy"] as? Double).map { (0...1).contains($0) } ?? false })
    }

    @Test(arguments: [
        (["--intervals", "0"], "--intervals must be seconds from 1 to 600"),
        (["--accuracies", "ten"], "--accuracies must be metres"),
        (["--fast-speeds", "50,"], "--fast-speeds must be km/h"),
        (["--count", "0"], "--count must be 1 to 200"),
        (["--scenario", "moon"], "unknown scenario 'moon'"),
    ])
    func badOptionsAreNamed(options: [String], problem: String) throws {
        let outcome = try ToolRunner.run(["budget", "--railways", SharedPaths.caltrain] + options)
        #expect(outcome.status != 0)
        #expect(outcome.standardError.contains(problem), "\(outcome.standardError)")
    }
}
