import Testing

@testable import TrainTrackerCore

/// The lateral offset between a drawn track and where its trains run.
@Suite struct LateralOffsetTests {
    /// Feeds `laterals` one a second at 15 m/s and returns the last residual and the sum of
    /// squared residuals in sigmas (what the position evidence charges).
    func follow(_ laterals: [Meters], learning: Double = 0.02) -> (last: Meters, cost: Double) {
        var offset = LateralOffset(spread: 20)
        var cost = 0.0
        var last = 0.0
        for lateral in laterals {
            offset.travel(15, correlationLength: 3_000, spread: 20)
            let (residual, spread) = offset.residual(lateral, sigma: 8)
            cost += 0.5 * (residual / spread) * (residual / spread)
            last = residual
            offset.update(lateral, sigma: 8, weight: learning)
        }
        return (last, cost)
    }

    @Test(arguments: [
        // A steady offset is learnt: little is left after ten minutes.
        ("a steady 25 m", Array(repeating: 25.0, count: 600), 0.0...6.0),
        ("a steady 40 m the other way", Array(repeating: -40.0, count: 600), -9.0...0.0),
        // Fixes on the drawn track leave nothing to learn.
        ("on the track", Array(repeating: 0.0, count: 600), -0.01...0.01),
        // Fixes jumping from side to side are not an offset.
        ("from side to side", (0..<600).map { $0 % 2 == 0 ? 25.0 : -25.0 }, -26.0...(-24.0)),
    ])
    func aSteadyOffsetIsLearntAndAWanderingOneIsNot(name: String, laterals: [Meters], remaining: ClosedRange<Meters>) {
        #expect(remaining.contains(follow(laterals).last), "\(name): \(follow(laterals).last)")
    }

    @Test func aSteadyOffsetCostsOnceNotAtEveryFix() {
        let steady = Array(repeating: 25.0, count: 1_200)
        let learnt = follow(steady).cost
        let rigid = follow(steady, learning: 0).cost
        #expect(learnt < rigid / 4, "\(learnt) against \(rigid)")
        // And the cost of the second ten minutes is small beside the first's.
        let firstHalf = follow(Array(steady.prefix(600))).cost
        #expect(learnt - firstHalf < firstHalf)
    }

    @Test func travelForgetsTheOffsetOverItsCorrelationLength() {
        var offset = LateralOffset(spread: 20)
        for _ in 0..<600 { offset.update(30, sigma: 8, weight: 0.02) }
        let learnt = offset.residual(0, sigma: 0)
        offset.travel(3_000, correlationLength: 3_000, spread: 20)
        let later = offset.residual(0, sigma: 0)
        #expect(abs(later.residual) < abs(learnt.residual) * 0.4)
        #expect(later.spread > learnt.spread)
        offset.travel(0, correlationLength: 3_000, spread: 20)
        #expect(offset.residual(0, sigma: 0).residual == later.residual)
    }
}
