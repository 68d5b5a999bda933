import Testing
import TrainTrackerCore

@testable import TrainTrackerLab

/// The arrival model's fit on samples drawn from a known model.
struct ArrivalModelFitTests {
    static let truth = ArrivalModel(
        offset: -12, departureFloor: 130, lossPerStop: 9, lossPerMinute: -1.5, earlySpread: 0, lateSpread: 0)

    /// Samples from `model`, each delay off its prediction by a Laplace of scale `noise` × √(minutes + 1).
    static func samples(count: Int, noise: Seconds, seed: UInt64, from model: ArrivalModel = truth, later: Seconds = 0)
        -> [ArrivalModelFit.Sample]
    {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            let stopsBefore = Int.random(in: 0...8, using: &random)
            let minutes = Double(stopsBefore) * 3 + Double.random(in: 0...3, using: &random)
            let median = Double.random(in: -60...900, using: &random) + later
            let uniform = Double.random(in: -0.5..<0.5, using: &random)
            let laplace = -(uniform < 0 ? -1.0 : 1.0) * Double.log(1 - 2 * abs(uniform))
            let delay =
                model.delay(at: stopsBefore, from: median, minutesAhead: minutes) + noise * (minutes + 1).squareRoot() * laplace
            return ArrivalModelFit.Sample(
                stopsBefore: stopsBefore, minutesAhead: minutes, low: median, median: median, high: median, delay: delay)
        }
    }

    @Test func theFitFindsTheModelTheSamplesWereDrawnFrom() throws {
        let fitted = try #require(ArrivalModelFit(samples: Self.samples(count: 6_000, noise: 10, seed: 7)).run())
        #expect(abs(fitted.offset - Self.truth.offset) < 4, "offset \(fitted.offset)")
        #expect(abs((fitted.departureFloor ?? 0) - 130) <= 10, "floor \(String(describing: fitted.departureFloor))")
        #expect(abs(fitted.lossPerStop - Self.truth.lossPerStop) < 2, "a stop \(fitted.lossPerStop)")
        #expect(abs(fitted.lossPerMinute - Self.truth.lossPerMinute) < 1, "a minute \(fitted.lossPerMinute)")
    }

    @Test func theIntervalLeavesATenthOutOnEachSideOfSamplesItNeverSaw() throws {
        let fitted = try #require(ArrivalModelFit(samples: Self.samples(count: 6_000, noise: 15, seed: 11)).run())
        // A Laplace's 90th percentile lies ln 5 scales out: 15 × 1.61 ≈ 24 s per √(minute + 1).
        #expect(abs(fitted.earlySpread - 24.1) < 3 && abs(fitted.lateSpread - 24.1) < 3)
        let fresh = Self.samples(count: 6_000, noise: 15, seed: 12)
        var below = 0
        var above = 0
        for sample in fresh {
            let predicted = fitted.predict(
                at: sample.stopsBefore, minutesAhead: sample.minutesAhead, low: sample.low, median: sample.median,
                high: sample.high)
            if sample.delay < predicted.low { below += 1 }
            if sample.delay > predicted.high { above += 1 }
        }
        #expect((420...780).contains(below) && (420...780).contains(above), "below \(below), above \(above) of 6,000")
    }

    @Test func samplesThatNeverWaitFitNoFloor() throws {
        // Every train later than any floor tried: a floor tells nothing, and none is kept.
        var unheld = Self.truth
        unheld.departureFloor = nil
        let late = Self.samples(count: 3_000, noise: 5, seed: 3, from: unheld, later: 700)
        let fitted = try #require(ArrivalModelFit(samples: late).run())
        #expect(fitted.departureFloor == nil)
        #expect(abs(fitted.lossPerStop - 9) < 2)
    }

    @Test func noSamplesFitNoModel() {
        #expect(ArrivalModelFit(samples: []).run() == nil)
    }
}
