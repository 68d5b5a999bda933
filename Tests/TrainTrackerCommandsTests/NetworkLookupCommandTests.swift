import Foundation
import Testing
import TrainTrackerTestSupport

/// A newcomer with a GTFS feed names railways and stations as the feed's riders do, and is
/// shown the names when one is wrong.
@Suite(.tags(.sharedData)) struct NetworkLookupCommandTests {
    @Test func aJourneyTakesTheRailwayAndStationsByName() throws {
        let directory = try TemporaryDirectory()
        let byName = try ToolRunner.run([
            "journey", "--railways", SharedPaths.caltrain2024, "--railway", "local weekday", "--from", "San Francisco",
            "--to", "San Jose Diridon", "--stops", "Millbrae", "Palo Alto", "--out", directory.path("name.sqlite"),
        ])
        #expect(byName.status == 0, "\(byName.standardError)")
        let byID = try ToolRunner.run([
            "journey", "--railways", SharedPaths.caltrain2024, "--railway", "Local Weekday", "--from",
            "Local Weekday.san_francisco", "--to", "Local Weekday.sj_diridon", "--stops", "Local Weekday.place_MLBR",
            "Local Weekday.palo_alto", "--out", directory.path("id.sqlite"),
        ])
        #expect(byID.status == 0, "\(byID.standardError)")
        // The same ride either way: as many fixes.
        let count = { (text: String) in text.split(separator: " ").first { Int($0) != nil } }
        #expect(count(byName.standardError) != nil && count(byName.standardError) == count(byID.standardError))
    }

    @Test func aMistypedRailwaySuggestsTheClosestAndTheCommandThatListsThem() throws {
        let directory = try TemporaryDirectory()
        let outcome = try ToolRunner.run([
            "journey", "--railways", SharedPaths.caltrain2024, "--railway", "Local Wekday", "--from", "San Francisco", "--to",
            "Tamien", "--out", directory.path("s.sqlite"),
        ])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("unknown railway 'Local Wekday' (--railway). Did you mean 'Local Weekday'"))
        #expect(outcome.standardError.hasSuffix("--verbose` lists the railways.\n"))
        #expect(!FileManager.default.fileExists(atPath: directory.path("s.sqlite")))
    }

    @Test func simulateTakesItsRailwaysByNameAndSuggestsForAMistypedOne() throws {
        let directory = try TemporaryDirectory()
        let base = ["simulate", "--railways", SharedPaths.caltrain2024, "--count", "1", "--railway"]
        let named = try ToolRunner.run(base + ["local weekend", "--out", directory.path("named")])
        #expect(named.status == 0, "\(named.standardError)")
        let mistyped = try ToolRunner.run(base + ["Local Wekend", "--out", directory.path("mistyped")])
        #expect(mistyped.status == 2)
        #expect(mistyped.standardError.contains("unknown railway 'Local Wekend' (--railway). Did you mean 'Local Weekend'"))
    }

    @Test func listStationsGivesEachRailwaysIdsAndNamesInLineOrder() throws {
        let one = try ToolRunner.run([
            "network", "--railways", SharedPaths.caltrain2024, "--list-stations", "--railway", "express",
        ])
        #expect(one.status == 0, "\(one.standardError)")
        let lines = one.standardOutput.split(separator: "\n")
        #expect(lines.first?.hasPrefix("Express (Express): 11 stations") == true, "\(lines.first ?? "")")
        // A header row and the eleven stations, north or south end first.
        #expect(lines.count == 13)
        let ends = [lines[2], lines[12]].map { String($0) }
        #expect(
            ends.contains { $0.contains("San Francisco Caltrain Station") } && ends.contains { $0.contains("San Jose Diridon") })
        let all = try ToolRunner.run(["network", "--railways", SharedPaths.caltrain2024, "--list-stations"])
        #expect(all.status == 0)
        for railway in ["Local Weekday", "Local Weekend", "Limited", "Express", "South County"] {
            #expect(all.standardOutput.contains("\n\(railway) (") || all.standardOutput.hasPrefix("\(railway) ("), "\(railway)")
        }
    }

    @Test func anUnknownRailwayToListIsOneLine() throws {
        let outcome = try ToolRunner.run([
            "network", "--railways", SharedPaths.caltrain2024, "--list-stations", "--railway", "Bullet",
        ])
        #expect(outcome.status == 2)
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardError.filter { $0 == "\n" }.count == 1)
        #expect(outcome.standardError.contains("unknown railway 'Bullet' (--railway)"))
    }
}
