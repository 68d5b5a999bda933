import Testing
import TrainTrackerCore
import TrainTrackerLab

/// Arrival times scored as the Transit ETA Accuracy Benchmark scores them.
@Suite struct ArrivalBenchmarkTests {
    /// 0–3 min ahead: right when the train arrives at most 30 s before or 90 s after the
    /// prediction; an early train is the worse error, so its side is the narrower.
    @Test(arguments: [(-30.0, true), (-31.0, false), (90.0, true), (91.0, false), (0.0, true)])
    func theNearestBucketsWindow(lateness: Seconds, right: Bool) {
        var benchmark = ArrivalBenchmark()
        benchmark.add(predicted: 1_120, actual: 1_120 + lateness, at: 1_000)
        #expect(benchmark.buckets[0].predictions == 1)
        #expect(benchmark.buckets[0].right == (right ? 1 : 0))
        #expect(benchmark.headline == (right ? 1 : 0))
    }

    /// The windows widen with the horizon: 40 s early is wrong 2 minutes out, right 5 out.
    @Test func theWindowWidensWithTheHorizon() {
        var benchmark = ArrivalBenchmark()
        benchmark.add(predicted: 120, actual: 80, at: 0)
        benchmark.add(predicted: 300, actual: 260, at: 0)
        #expect(benchmark.buckets.map(\.right) == [0, 1, 0, 0])
        // The headline is the mean of the buckets that hold predictions, not of predictions.
        benchmark.add(predicted: 100, actual: 100, at: 0)
        #expect(benchmark.buckets[0].share == 0.5)
        #expect(benchmark.headline == 0.75)
    }

    /// Predictions more than 15 minutes ahead, or of an arrival already past, are not scored.
    @Test func outsideTheHorizonsNothingIsScored() {
        var benchmark = ArrivalBenchmark()
        benchmark.add(predicted: 1_000, actual: 1_000, at: 0)
        benchmark.add(predicted: 0, actual: 0, at: 10)
        #expect(benchmark.buckets.allSatisfy { $0.predictions == 0 })
        #expect(benchmark.headline == nil)
        #expect(benchmark.buckets.map(\.label) == ["0–3 min", "3–6 min", "6–10 min", "10–15 min"])
    }

    @Test func mergingAddsTheTallies() {
        var first = ArrivalBenchmark()
        first.add(predicted: 100, actual: 100, at: 0)
        var second = ArrivalBenchmark()
        second.add(predicted: 100, actual: 300, at: 0)
        first.merge(second)
        #expect(first.buckets[0].predictions == 2 && first.buckets[0].right == 1)
    }
}
