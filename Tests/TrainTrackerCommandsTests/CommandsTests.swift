import Foundation
import Testing
import TrainTrackerCore
import TrainTrackerStorage
import TrainTrackerTestSupport

@Suite(.tags(.sharedData)) struct CommandsTests {
    @Test func theDemoRunsWithNoDataAndNamesBothRidesRight() throws {
        let outcome = try ToolRunner.run(["demo"])
        #expect(outcome.status == 0)
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        let verdicts = lines.filter { $0.contains("→ the tracker ends on") }
        #expect(
            verdicts == [
                "  → the tracker ends on Demo Local Line: right", "  → the tracker ends on Demo Express Line: right",
            ])
        #expect(lines.contains { $0.hasSuffix("Demo Express Line → Yama  Next: Hikari") })
        #expect(!lines.contains { $0.hasSuffix("Demo Express Line → Yama  Now: Oka") }, "the express passes Oka")
    }

    @Test func sessionsListsIdStartDurationAndCount() throws {
        let network = try RailwayDatabase.load(path: SharedPaths.tokyoRailways)
        let directory = try TemporaryDirectory()
        let sessions = directory.path("s.sqlite")
        let count = try writeToyokoSession(to: sessions, network: network)
        let outcome = try ToolRunner.run(["sessions", "--sessions", sessions])
        #expect(outcome.status == 0)
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        #expect(
            lines.first?.split(separator: " ", omittingEmptySubsequences: true) == [
                "id", "start", "(UTC)", "duration", "locations",
            ])
        let row = lines[1].split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        #expect(row.first == "TOYOKO-1")
        #expect(row.last == "\(count)")
        #expect(row.contains("2025-09-20"))
        #expect(lines.last == "1 session")
    }

    @Test func networkDescribesTheTokyoNetwork() throws {
        let outcome = try ToolRunner.run(["network", "--railways", SharedPaths.tokyoRailways])
        #expect(outcome.status == 0)
        let text = outcome.standardOutput
        #expect(text.contains("railways         179\n"))
        #expect(text.contains("stations         2583\n"))
        #expect(text.contains("loop lines       1\n"))
        #expect(text.contains("bounding box     34.679263,138.527645 – 36.970267,140.864379"))
    }

    @Test func benchReportsItsFiguresAsJSON() throws {
        let network = try RailwayDatabase.load(path: SharedPaths.tokyoRailways)
        let directory = try TemporaryDirectory()
        let sessions = directory.path("s.sqlite")
        let count = try writeToyokoSession(to: sessions, network: network)
        let outcome = try ToolRunner.run([
            "bench", "--railways", SharedPaths.tokyoRailways, "--sessions", sessions, "--minimum-seconds", "0",
        ])
        #expect(outcome.status == 0)
        let json = try #require(JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        #expect(json["fixesPerPass"] as? Int == count)
        #expect(json["railways"] as? Int == 179)
        for key in ["networkLoadSeconds", "fixesPerSecond", "microsecondsPerFix", "peakMemoryMB"] {
            #expect((json[key] as? Double).map { $0 > 0 } == true, "\(key) is a positive number")
        }
    }
}
