import Testing

@testable import TrainTrackerCore

/// The position evidence: nearer scores higher, the cap holds, and a phone says the same per
/// second of riding whatever its rate.
@Suite struct PositionEvidenceTests {
    let evidence = PositionEvidence()

    @Test(arguments: [
        // (what, sigmas from the track and fix weight of the first, of the second, how the first stands)
        ("nearer the track", 0.5, 1.0, 2.0, 1.0, Comparison.higher),
        ("farther from the track", 3.0, 1.0, 1.0, 1.0, .lower),
        ("the same distance on the other side", 2.0, 1.0, 2.0, 1.0, .equal),
        ("past the cap, farther is no worse", 30.0, 1.0, 100.0, 1.0, .equal),
        ("a fix that counts less, as far off", 3.0, 0.1, 3.0, 1.0, .higher),
    ])
    func scores(_ what: String, z: Double, weight: Double, otherZ: Double, otherWeight: Double, comparison: Comparison) {
        let score = evidence.nats(z: z, fixWeight: weight)
        let other = evidence.nats(z: otherZ, fixWeight: otherWeight)
        #expect(comparison.holds(score, against: other), "\(what): \(score) against \(other)")
    }

    @Test func onTheTrackCostsNothingAndOneFixNeverMoreThanTheCap() {
        #expect(evidence.nats(z: 0, fixWeight: 1) == 0)
        #expect(evidence.nats(z: 1_000, fixWeight: 100) == -evidence.cap)
        #expect(evidence.outOfReach(fixWeight: 100) == -evidence.cap)
        // Out of reach is as bad as the farthest fix in reach.
        #expect(evidence.outOfReach(fixWeight: 0.2) <= evidence.nats(z: 1_000, fixWeight: 0.2))
    }

    /// Beyond one sigma the cost grows linearly (Huber), so a stretch of correlated error does
    /// not swing the evidence between two close tracks.
    @Test func growsLinearlyBeyondOneSigma() {
        let step = { (z: Double) in evidence.nats(z: z, fixWeight: 0.1) - evidence.nats(z: z + 1, fixWeight: 0.1) }
        #expect(abs(step(2) - step(4)) < 1e-12)
        #expect(step(0) < step(2))
    }

    @Test(arguments: [
        // (seconds between fixes, what a minute of such fixes says against a minute at 1 Hz)
        (2.0, Comparison.equal), (5.0, .equal), (10.0, .equal),
        // Beyond the phone's error memory a sparse fix is one measurement, not more.
        (30.0, .higher), (60.0, .higher),
    ])
    func evidencePerSecondOfRiding(interval: Seconds, comparison: Comparison) {
        let fixes = Int(60 / interval)
        let perFix = evidence.nats(
            z: 2, fixWeight: evidence.fixWeight(span: evidence.span(sinceLast: interval), speed: 15, stopped: false))
        let oneHertz = evidence.nats(
            z: 2, fixWeight: evidence.fixWeight(span: evidence.span(sinceLast: 1), speed: 15, stopped: false))
        #expect(comparison.holds(Double(fixes) * perFix, against: 60 * oneHertz))
    }

    @Test(arguments: [
        // (speed, stopped, how its fix counts against one at full speed)
        (15.0, false, Comparison.equal), (8.0, false, .equal), (4.0, false, .lower), (0.0, false, .lower), (0.0, true, .lower),
    ])
    func slowFixesCountLess(speed: MetersPerSecond, stopped: Bool, comparison: Comparison) {
        let weight = evidence.fixWeight(span: 1, speed: speed, stopped: stopped)
        #expect(comparison.holds(weight, against: evidence.fixWeight(span: 1, speed: 20, stopped: false)))
        #expect(weight > 0)
    }

    @Test(
        arguments: [
            // (reported accuracy, the accuracy used)
            (nil, 30.0), (Double.nan, 30.0), (-5.0, 5.0), (0.0, 5.0), (12.0, 12.0), (1e12, 3_000.0), (-Double.infinity, 5.0),
            (Double.infinity, 3_000.0),
        ] as [(Meters?, Meters)])
    func accuracyIsRangeChecked(reported: Meters?, used: Meters) {
        #expect(PositionEvidence.accuracy(reported: reported) == used)
    }

    @Test func theSearchReachesFartherForWorseFixesWithinBounds() {
        let good = evidence.searchRadius(sigma: evidence.sigma(accuracy: 5))
        let poor = evidence.searchRadius(sigma: evidence.sigma(accuracy: 100))
        #expect(good == 150)
        #expect(poor > good)
        #expect(evidence.searchRadius(sigma: evidence.sigma(accuracy: 3_000)) == 1_500)
    }

    @Test func theMapOffsetIsForgottenWithTravel() {
        #expect(evidence.offsetKept(over: 0) == 1)
        #expect(evidence.offsetKept(over: 300) > evidence.offsetKept(over: 3_000))
        #expect(evidence.offsetLearning(span: 1_000) == 1)
    }
}
