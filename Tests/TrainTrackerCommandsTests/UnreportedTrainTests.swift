import Foundation
import Testing
import TrainTrackerTestSupport

/// A rider on a late train, with an operator's feed of the day's delays (TripUpdates, no
/// positions): a train of another
/// line that no feed has reported, although it would have left minutes ago, is not taken for
/// the rider's (`PassageEvidence.unreportedShare`).
@Suite(.tags(.sharedData)) struct UnreportedTrainTests {
    /// Simulated disrupted day on Caltrain (seed 3101, 3 rides): a Baby Bullet leaving San
    /// Francisco 16 minutes late, just as an unreported Limited was due; with the feed and no
    /// rule, the Limited is named for a quarter of the ride.
    @Test func aTrainNoFeedReportedIsNotTheRidersLateOne() throws {
        let directory = try TemporaryDirectory()
        let cases = directory.path("cases")
        let simulated = try ToolRunner.run([
            "simulate", "--railways", SharedPaths.caltrain, "--scenario", "caltrain", "--count", "3", "--seed", "3101",
            "--phone", "good", "--day", "disrupted", "--out", cases, "--feed", directory.path("feed"),
            // Delays only: with the trains' positions too, the Limited is nowhere near the rider.
            "--feed-without-positions",
        ])
        #expect(simulated.status == 0, "\(simulated.standardError)")
        func railway(_ options: [String]) throws -> Double {
            let outcome = try ToolRunner.run(
                [
                    "evaluate", "--railways", SharedPaths.caltrain, "--cases", cases, "--algorithm", "default",
                    "--realtime", directory.path("feed"), "--format", "json",
                ] + options)
            #expect(outcome.status == 0, "\(outcome.standardError)")
            let reports = try #require(JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [[String: Any]])
            let told = try #require(
                reports.compactMap { $0["summary"] as? [String: Any] }.first { $0["algorithm"] as? String == "default-realtime" })
            return try #require(told["railwayAccuracy"] as? Double)
        }
        let blind = try railway(["--tune", "unreportedShare=1"])
        let weighed = try railway([])
        #expect(weighed > blind + 0.03, "\(blind) → \(weighed)")
    }
}
