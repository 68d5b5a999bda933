extension RailwayTracker {
    /// A hypothesis out of reach for this many fixes in a row ...
    /// (Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.)
    static let forgottenAfterFixes = 30
    /// ... and this far below the switch cost behind the leader, is forgotten.
    /// Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.
    static let forgottenMargin: Nats = 1

    /// The decoding step: of the weighed hypotheses, the far-away are forgotten and the scores
    /// set relative to the leader, and the answer ranks them.
    mutating func decode(fix: Fix) -> TrackingResult {
        var list = hypotheses  // taken out, so that updating them copies nothing
        hypotheses = []
        var best = list.isEmpty ? 0 : -Double.infinity
        for index in list.indices { best = max(best, list[index].score) }
        let forget = -parameters.switching.cost - Self.forgottenMargin
        let forgotten = { (hypothesis: Hypothesis) in
            hypothesis.missed > Self.forgottenAfterFixes && hypothesis.score - best < forget
        }
        // `slots` holds each hypothesis's index (kept so by `findCandidates`): only a removal
        // moves them.
        if list.contains(where: forgotten) {
            for index in list.indices where forgotten(list[index]) { slots[line: list[index].line] = -1 }
            list.removeAll(where: forgotten)
            for index in list.indices { slots[line: list[index].line] = Int32(index) }
        }
        for index in list.indices { list[index].score -= best }
        hypotheses = list
        lastFix = fix.location
        // Standing still, the rider is on the train the answer named (or on its platform): a
        // new line is taken only once the train moves on it.
        // (A rider walking to another platform is standing as far as trains go.)
        let standing =
            parameters.holdsLineWhileStanding && (fix.stopped || fix.speed < MotionState.walkingSpeeds.upperBound)
        let (result, shown) = answer(
            at: fix.location.timestamp, speed: fix.speed, estimated: false, held: standing ? shownLine : nil)
        shownLine = shown
        var leader: Int?
        for index in hypotheses.indices where leader.map({ hypotheses[index].score > hypotheses[$0].score }) ?? true {
            leader = index
        }
        leaderLine = leader.map { hypotheses[$0].line }
        return result
    }
}
