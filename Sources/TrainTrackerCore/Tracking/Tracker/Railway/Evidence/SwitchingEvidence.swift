/// Switching: a Viterbi step. Any hypothesis may take over from the leader at a cost, so an
/// early mistake is forgotten once the evidence turns; the cost is lower where riders really
/// change railway without a new train (through service at a line's end) or change trains
/// (after a long stop).
public struct SwitchingEvidence: Hashable, Sendable {
    /// What a hypothesis must gain on the leader to take over: the most a ride's evidence
    /// can lead one line by over another (a rider changes trains only at a stop, which costs
    /// `changeOfTrainsCost`; this cap is for forgetting early mistakes). At 14 (set by hand with
    /// the first default tracker) two stops where a shared-track service's pattern passes (each
    /// about 3.5 nats) undid a ride's history of passes (issue 59).
    /// Fitted by `evaluate --tune switchCost=` on simulated seed 6363 (2026-12-07) over 14, 17,
    /// 20, 26 and 40: only the drifting phone on a held day moved, railway without timetables
    /// 81.9 → 86.0 (20) → 88.6 % (26) → 91.3 % (40), with them 80.9 → 82.0 % (26); 26 taken
    /// rather than the edge of the range, where the cap would no longer forget. Fresh seed
    /// 7575: drifting 89.6 → 91.1 % and drifting on a held day 80.9 → 83.5 % without
    /// timetables, 77.3 → 78.3 % with them; nothing else moved 0.3 points or more, nor did the
    /// hard conditions (7373, 7474) or Helsinki's phones. (A dearer change of trains, 8 or 10,
    /// gained 1.2 points on 6363 and lost up to 3 on 7575: not taken.)
    public var cost: Nats = 26
    /// ... along a through-service link from the leader's railway.
    /// Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.
    public var throughServiceCost: Nats = 4
    /// How close to the end of a line the cheaper through-service switch applies.
    /// (Set by hand on 2026-11-22 when the cheap through-service switch was kept to a line's end;
    /// the reason for 1.5 km is not recorded.)
    public var throughServiceReach: Meters = 1_500
    /// ... as a stop long enough to change trains ends.
    /// Set by hand on 2026-11-22 with the change-of-trains rule; the reason for 4 nats is not
    /// recorded.
    public var changeOfTrainsCost: Nats = 4
    /// A stop at least this long may be a change of trains.
    /// Set by hand on 2026-11-22 with the change-of-trains rule; the reason for 90 s is not
    /// recorded.
    public var changeOfTrainsStop: Seconds = 90
    /// What a line within reach starts at below the leader when it started running (a train
    /// of it is due to leave within the hour) since the last fix, and the rider stands or was
    /// silent: the rider may have been waiting for that train, unseen (a phone asleep on the
    /// platform; an operator's recorded train standing at its origin, its repeated positions
    /// dropped as stale). As a change of trains costs. (4, the change-of-trains cost: 14, 7, 4
    /// and 0 named the railway of Caltrain's recorded trains on 98.2, 98.4, 98.7 and 98.7 % of
    /// fixes without a feed, 99.6, 99.7, 99.8 and 99.8 % with the trains' own feed; at 0 the
    /// weekday locals lost half a point.)
    /// Tuned by hand on Caltrain's recorded days of 29 November – 2 December 2024 (2026-11-26); not
    /// fitted.
    public var firstTrainCost: Nats = 4

    /// The defaults.
    public init() {}

    /// What taking over from the leader costs at this fix: `atThroughServiceEnd` when the
    /// hypothesis's railway runs through from the leader's and the fix is near the end of
    /// either; `stopEnded` the length of a stop that ended at this fix.
    public func cost(atThroughServiceEnd: Bool, stopEnded: Seconds?) -> Nats {
        var cost = atThroughServiceEnd ? throughServiceCost : self.cost
        if let stopEnded, stopEnded >= changeOfTrainsStop { cost = min(cost, changeOfTrainsCost) }
        return cost
    }

    /// What a line just added starts at below the leader: `firstTrainCost` when it started
    /// running since the last fix and the rider may be boarding (`firstTrain`), else `cost`.
    public func entryCost(firstTrain: Bool) -> Nats {
        firstTrain ? min(cost, firstTrainCost) : cost
    }

    /// Nats added to a hypothesis at `score` when the leader stands at `leader` and taking over
    /// costs `cost`: it rises to `leader − cost` if it stood lower (never negative).
    public static func nats(score: Nats, leader: Nats, cost: Nats) -> Nats {
        max(0, leader - cost - score)
    }
}

/// Leaving: the rider walked away from a train. Whatever train comes next starts afresh, every
/// line nearby equally likely again, less the one just left (and, half as much, the same line
/// back the other way), by how sure the tracker was of it.
public struct LeavingEvidence: Hashable, Sendable {
    /// How much less likely boarding the same line in the same direction again is than any
    /// other line, at full certainty of it.
    /// (Set by hand on 2026-11-22 with the walked-away rule; the reason for 3 nats is not
    /// recorded.)
    public var walkedAwayPenalty: Nats = 3
    /// ... and boarding it back the other way, as a share of that.
    /// Set by hand on 2026-11-22 for a ride of seed 73 that changed at Naka-meguro from the Toyoko
    /// to the Hibiya Line, on parallel track for 50 s; the reason for a half is not recorded.
    public var walkedBackShare = 0.5

    /// The defaults.
    public init() {}

    /// Nats that bring a hypothesis at `score` back to its traffic prior `trafficPrior`, less
    /// the penalty for the line left: `share` is how sure the tracker was of this line and
    /// direction, `reverseShare` of the same line the other way.
    public func nats(score: Nats, trafficPrior: Nats, share: Double, reverseShare: Double) -> Nats {
        let left = share + walkedBackShare * reverseShare
        return -walkedAwayPenalty * left + trafficPrior - score
    }
}

extension SwitchingEvidence: Tunable {
    static var tunables: [String: WritableKeyPath<Self, Double>] {
        [
            "switchCost": \.cost, "throughServiceSwitchCost": \.throughServiceCost, "throughServiceReach": \.throughServiceReach,
            "changeOfTrainsSwitchCost": \.changeOfTrainsCost, "changeOfTrainsStop": \.changeOfTrainsStop,
            "firstTrainSwitchCost": \.firstTrainCost,
        ]
    }
}

extension LeavingEvidence: Tunable {
    static var tunables: [String: WritableKeyPath<Self, Double>] {
        [
            "walkedAwayPenalty": \.walkedAwayPenalty, "walkedBackShare": \.walkedBackShare,
        ]
    }
}
