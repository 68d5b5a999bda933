import Testing
import TrainTrackerCore

@testable import TrainTrackerLab

/// The arrival model's fit on samples drawn from a known model.
struct ArrivalModelFitTests {
    static let truth = ArrivalModel(
        offset: -12, departureFloor: 130, lossPerStop: 9, lossPerMinute: -1.5, earlySpread: 0, lateSpread: 0)

    /// Samples from `model`, each delay off its prediction by a Laplace of scale `noise` ×
    /// (minutes + 1)^`growth`.
    static func samples(
        count: Int, noise: Seconds, seed: UInt64, from model: ArrivalModel = truth, later: Seconds = 0, growth: Double = 0.5
    ) -> [ArrivalModelFit.Sample] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            let stopsBefore = Int.random(in: 0...8, using: &random)
            let minutes = Double(stopsBefore) * 3 + Double.random(in: 0...3, using: &random)
            let median = Double.random(in: -60...900, using: &random) + later
            let uniform = Double.random(in: -0.5..<0.5, using: &random)
            let laplace = -(uniform < 0 ? -1.0 : 1.0) * Double.log(1 - 2 * abs(uniform))
            let delay =
                model.delay(at: stopsBefore, from: median, minutesAhead: minutes) + noise * Double.pow(minutes + 1, growth)
                * laplace
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
        let exponent = try #require(fitted.spreadExponent)
        #expect(abs(exponent - 0.5) < 0.15, "exponent \(exponent)")
        let atTenMinutes = { (spread: Seconds) in spread * Double.pow(11, exponent) }
        #expect(abs(atTenMinutes(fitted.earlySpread) - 24.1 * 11.0.squareRoot()) < 12, "early \(fitted.earlySpread)")
        #expect(abs(atTenMinutes(fitted.lateSpread) - 24.1 * 11.0.squareRoot()) < 12, "late \(fitted.lateSpread)")
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

    /// A spread that grows faster than a random walk's is fitted so: the interval holds as
    /// often at 1 minute as at 12.
    @Test func theSpreadsGrowthIsFittedToHoldAsOftenNearAsFar() throws {
        let fitted = try #require(ArrivalModelFit(samples: Self.samples(count: 8_000, noise: 8, seed: 21, growth: 0.9)).run())
        let exponent = try #require(fitted.spreadExponent)
        #expect(exponent >= 0.7, "exponent \(exponent)")
        for (range, label) in [(0.0..<3.0, "near"), (9.0..<15.0, "far")] {
            let fresh = Self.samples(count: 8_000, noise: 8, seed: 22, growth: 0.9).filter { range.contains($0.minutesAhead) }
            let held = fresh.count {
                let predicted = fitted.predict(
                    at: $0.stopsBefore, minutesAhead: $0.minutesAhead, low: $0.low, median: $0.median, high: $0.high)
                return predicted.low <= $0.delay && $0.delay <= predicted.high
            }
            let share = Double(held) / Double(fresh.count)
            #expect((0.72...0.88).contains(share), "\(label): \(share) of \(fresh.count)")
        }
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
