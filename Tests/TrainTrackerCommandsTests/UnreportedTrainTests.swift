import Foundation
import Testing
import TrainTrackerTestSupport

/// A rider on a late train, with an operator's feed of the day's delays (TripUpdates, no
/// positions): a train of another
/// line that no feed has reported, although it would have left minutes ago, is not taken for
/// the rider's (`PassageEvidence.unreportedShare`).
@Suite(.tags(.sharedData)) struct UnreportedTrainTests {
    /// Simulated disrupted day on Caltrain (seed 3101, 3 rides): a Baby Bullet leaving San
    /// Francisco 16 minutes late, just as an unreported Limited was due. Without a feed every
    /// fix names the right railway. With the feed the Limited used to be named for a quarter of
    /// the ride (85 %; rule 8 mended half of it, 90 %); since a reported train is judged by its
    /// report and its own course together, the feed costs nothing, with rule 8 or without.
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
        func railway(_ options: [String]) throws -> (untold: Double, told: Double) {
            let outcome = try ToolRunner.run(
                [
                    "evaluate", "--railways", SharedPaths.caltrain, "--cases", cases, "--algorithm", "railway",
                    "--realtime", directory.path("feed"), "--format", "json",
                ] + options)
            #expect(outcome.status == 0, "\(outcome.standardError)")
            let reports = try #require(JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [[String: Any]])
            let summaries = reports.compactMap { $0["summary"] as? [String: Any] }
            let share = { (algorithm: String) in
                summaries.first { $0["algorithm"] as? String == algorithm }?["railwayAccuracy"] as? Double
            }
            return (try #require(share("railway")), try #require(share("railway-realtime")))
        }
        let blind = try railway(["--tune", "unreportedShare=1"])
        let weighed = try railway([])
        #expect(weighed.untold > 0.99, "without a feed: \(weighed.untold)")
        #expect(weighed.told >= weighed.untold, "the feed costs the ride: \(weighed.untold) → \(weighed.told)")
        #expect(blind.told >= blind.untold, "without rule 8 the feed costs the ride: \(blind.untold) → \(blind.told)")
    }
}
