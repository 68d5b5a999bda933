import Foundation
import Testing

@testable import TrainTrackerCore

/// The switching step, leaving a train, and the traffic prior.
@Suite struct SwitchingAndTrafficEvidenceTests {
    @Test(
        arguments: [
            // (what, at a through-service end, a stop that just ended, the cost)
            ("anywhere", false, nil, 26.0),
            ("where through service changes railway", true, nil, 4.0),
            ("after a short stop", false, 30.0, 26.0),
            ("after a stop long enough to change trains", false, 120.0, 4.0),
            ("both", true, 120.0, 4.0),
        ] as [(String, Bool, Seconds?, Double)])
    func switchingCost(_ what: String, throughService: Bool, stopEnded: Seconds?, expected: Double) {
        #expect(SwitchingEvidence().cost(atThroughServiceEnd: throughService, stopEnded: stopEnded) == expected, "\(what)")
    }

    @Test(arguments: [
        // (score, leader, cost, the score after the step)
        (-30.0, 0.0, 14.0, -14.0),  // far behind: rises to the leader less the cost
        (-5.0, 0.0, 14.0, -5.0),  // close behind: keeps its own
        (0.0, 0.0, 14.0, 0.0),  // the leader itself
        (-30.0, 0.0, 4.0, -4.0),
    ])
    func aHypothesisMayTakeOverFromTheLeader(score: Double, leader: Double, cost: Double, after: Double) {
        let nats = SwitchingEvidence.nats(score: score, leader: leader, cost: cost)
        #expect(nats >= 0)
        #expect(score + nats == after)
    }

    @Test(arguments: [
        // (what, share of the line left, of the same line the other way, against a line nobody was on)
        ("the line just left", 1.0, 0.0, Comparison.lower),
        ("the same line back", 0.0, 1.0, .lower),
        ("a line nobody was on", 0.0, 0.0, .equal),
    ])
    func leavingATrain(_ what: String, share: Double, reverseShare: Double, comparison: Comparison) {
        let leaving = LeavingEvidence()
        let score = leaving.nats(score: 0, trafficPrior: 0, share: share, reverseShare: reverseShare)
        #expect(comparison.holds(score, against: leaving.nats(score: 0, trafficPrior: 0, share: 0, reverseShare: 0)), "\(what)")
        // Back the other way is half as unlikely again as the same way.
        #expect(
            leaving.nats(score: 0, trafficPrior: 0, share: 0, reverseShare: 1)
                > leaving.nats(score: 0, trafficPrior: 0, share: 1, reverseShare: 0))
    }

    @Test func leavingForgetsTheOldScoreButKeepsTheTrafficPrior() {
        let nats = LeavingEvidence().nats(score: -7, trafficPrior: 1.2, share: 0, reverseShare: 0)
        #expect(abs(-7 + nats - 1.2) < 1e-12)
    }

    @Test(arguments: [
        // (trains on the first stretch, on the second, weight, how the first stands)
        (120.0, 12.0, 0.3, Comparison.higher),
        (12.0, 120.0, 0.3, .lower),
        (120.0, 12.0, 0.0, .equal),
        (50.0, 50.0, 0.3, .equal),
    ])
    func busierStretchesArePriorMoreLikely(trains: Double, otherTrains: Double, weight: Double, comparison: Comparison) {
        var traffic = TrafficEvidence()
        traffic.weight = weight
        let prior = traffic.prior(logTraffic: log1p(trains))
        let other = traffic.prior(logTraffic: log1p(otherTrains))
        #expect(comparison.holds(prior, against: other))
    }
}
