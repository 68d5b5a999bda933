import RealModule

extension RailwayTracker {
    /// The transition step, a Viterbi step (`SwitchingEvidence`): the hypothesis rises to the
    /// leader's score (`leaderScore`, on `leaderRailway`) less what taking over costs at this
    /// fix.
    func transition(_ hypothesis: inout Hypothesis, leaderScore: Nats, leaderRailway: Int?, fix: Fix) {
        let cost = parameters.switching.cost(
            atThroughServiceEnd: atThroughServiceEnd(hypothesis.line.railway, leader: leaderRailway, fix: fix),
            stopEnded: fix.change?.endedStop)
        hypothesis.charge(.switching, SwitchingEvidence.nats(score: hypothesis.score, leader: leaderScore, cost: cost))
    }

    /// Whether `railway` runs through from the leader's railway, and the fix is near the end of
    /// either: through service changes railway where one line ends.
    private func atThroughServiceEnd(_ railway: Int, leader: Int?, fix: Fix) -> Bool {
        guard let leader, model.throughService[leader].contains(railway) else { return false }
        return [railway, leader].contains { line in
            model.terminals[line].contains {
                fix.projection.distance(to: $0) <= parameters.switching.throughServiceReach
            }
        }
    }

    /// The rider walked away from the train: whatever train comes next starts afresh
    /// (`LeavingEvidence`); what the old train's stops said about its service pattern no
    /// longer applies.
    mutating func leaveTrain() {
        let total = hypotheses.reduce(0.0) { $0 + Double.exp($1.score) }
        let shares = hypotheses.map { total > 0 ? Double.exp($0.score) / total : 0 }
        for index in hypotheses.indices {
            var hypothesis = hypotheses[index]
            let reverse = slots[line: hypothesis.line.reversed]
            let nats = parameters.leaving.nats(
                score: hypothesis.score, trafficPrior: hypothesis.traffic.prior, share: shares[index],
                reverseShare: reverse >= 0 ? shares[Int(reverse)] : 0)
            hypothesis.charge(.leaving, nats)
            hypothesis.forgetTrain(model: model)
            hypotheses[index] = hypothesis
        }
    }
}
