import TrainTrackerCore

/// How a tracker did on one logged rail leg ridden with a phone (`PhoneRailLegs`).
public struct PhoneLegScore: Hashable, Sendable, Codable {
    /// Fixes scored: from `PhoneRailLegs.warmUp` after the logged departure to the arrival.
    public var fixes = 0
    /// ... whose best answer named a right line (`PhoneRailLegs`), ...
    public var line = 0
    /// ... and ran the right way.
    public var direction = 0
    /// Scored fixes within `PhoneRailLegs.offTrack` of the leg's railway: the next stop there
    /// is known (the focus rule over the leg's stops), ...
    public var nextStopKnown = 0
    /// ... and the answer's next stop was it (any railway; stations compared by code).
    public var nextStop = 0
    /// Of those, fixes on the way to the alighting station (its last stretch), ...
    public var approach = 0
    /// ... whose answer named the alighting station as the next stop.
    public var alightingNamed = 0
    /// Of the fixes where the next stop is known, those whose answer named a next stop
    /// (`TrackingCandidate.nextStopID`, not the next station shown while undecided), ...
    public var stopsShown = 0
    /// ... and it was the leg's next stop.
    public var stopsShownRight = 0
    /// Scored fixes answered with more than one service still possible (`TrackingResult.undecided`).
    public var undecided = 0

    /// Nothing scored yet.
    public init() {}

    /// Sums scores.
    public static func + (lhs: PhoneLegScore, rhs: PhoneLegScore) -> PhoneLegScore {
        var sum = PhoneLegScore()
        for field in [
            \PhoneLegScore.fixes, \.line, \.direction, \.nextStopKnown, \.nextStop, \.approach, \.alightingNamed,
            \.stopsShown, \.stopsShownRight, \.undecided,
        ] {
            sum[keyPath: field] = lhs[keyPath: field] + rhs[keyPath: field]
        }
        return sum
    }
}

/// How the answer to one fix of a logged rail leg went, for drawing a leg.
public struct PhoneFixVerdict: Hashable, Sendable {
    /// What the answer named.
    public enum Outcome: Hashable, Sendable {
        /// No railway.
        case none
        /// A railway that is not the leg's line.
        case wrongLine
        /// The line, the wrong way.
        case wrongDirection
        /// The line and its direction.
        case right
    }

    /// Seconds after the logged departure (negative before it).
    public var secondsFromDeparture: Seconds
    /// Whether the fix is scored (from `PhoneRailLegs.warmUp` after departure).
    public var scored: Bool
    /// How the answer went.
    public var outcome: Outcome
    /// The answer's railway and direction, as a rider reads them ("K to Helsinki").
    public var named: String?
    /// How many of the leg's stations after the boarding one the train is past (along the
    /// leg's railway), when the fix lies near it.
    public var stationsPassed: Int?
}

/// When the answer to a logged leg locked: the first fix from the departure on after which
/// every answer named a right line the right way to the leg's end.
public struct PhoneLegLock: Hashable, Sendable {
    /// Seconds after the logged departure (0: right from it).
    public var seconds: Seconds
    /// The leg's stations after the boarding one the train was past then (nil when the fix
    /// lay off the leg's railway).
    public var stations: Int?

    /// A lock `seconds` after the departure, `stations` stations on.
    public init(seconds: Seconds, stations: Int?) {
        self.seconds = seconds
        self.stations = stations
    }

    /// The lock of a leg's `verdicts` (in time order), or nil when its last answer is not right.
    ///
    /// - Complexity: O(n) in the verdicts.
    public init?(verdicts: [PhoneFixVerdict]) {
        let ridden = verdicts.drop { $0.secondsFromDeparture < 0 }
        guard let last = ridden.last, last.outcome == .right else { return nil }
        let wrong = ridden.lastIndex { $0.outcome != .right }
        let first = ridden[wrong.map { ridden.index(after: $0) } ?? ridden.startIndex]
        seconds = first.secondsFromDeparture
        stations = first.stationsPassed
    }
}

extension PhoneRailLegs.Leg {
    /// Replays the leg's fixes through `tracker` and scores its answers; `observe` hears how
    /// every fix went, before the warm-up too.
    ///
    /// - Complexity: O(n) in the leg's fixes, plus the tracker's own cost.
    public func score(_ tracker: some TrackingAlgorithm, observe: ((PhoneFixVerdict) -> Void)? = nil) -> PhoneLegScore {
        var tracker = tracker
        var score = PhoneLegScore()
        guard problem == nil else { return score }
        let focus = truth.map { FocusRule(stations: $0.stops, walk: TrackWalk(railway: $0.railway, direction: $0.direction)) }
        for fix in fixes {
            let result = tracker.process(fix)
            let best = result.best
            let elapsed = fix.timestamp.seconds(since: logged.start)
            let along = truth?.railway.track.polyline.projection(of: fix.coordinate, within: PhoneRailLegs.offTrack)?.alongTrack
            let expected = along.flatMap { focus?.focus(at: $0) }.map { RailLineRailways.code(ofStationID: $0.station) }
            let right = accepted(toward: expected)
            // Any metro railway is the metro; a train's line must have the logged stops.
            let lines = kind == "metro" ? Set(paths.map(\.answer.railwayID)) : Set(right.map(\.railwayID))
            let outcome: PhoneFixVerdict.Outcome
            if let best {
                if right.contains(PhoneRailLegs.Answer(railwayID: best.railwayID, directionName: best.directionName)) {
                    outcome = .right
                } else {
                    outcome = lines.contains(best.railwayID) ? .wrongDirection : .wrongLine
                }
            } else {
                outcome = .none
            }
            let scored = elapsed >= PhoneRailLegs.warmUp
            if let observe {
                observe(
                    PhoneFixVerdict(
                        secondsFromDeparture: elapsed, scored: scored, outcome: outcome,
                        named: best.map { "\($0.railwayID): \($0.directionName)" },
                        stationsPassed: along.flatMap(stationsPassed(at:))))
            }
            guard scored else { continue }
            score.fixes += 1
            if outcome == .right || outcome == .wrongDirection { score.line += 1 }
            if outcome == .right { score.direction += 1 }
            if !result.undecided.isEmpty { score.undecided += 1 }
            guard let expected else { continue }
            let answered = (best?.nextStopID ?? best?.focusStationID).map(RailLineRailways.code(ofStationID:))
            score.nextStopKnown += 1
            if answered == expected { score.nextStop += 1 }
            if let shown = best?.nextStopID {
                score.stopsShown += 1
                if RailLineRailways.code(ofStationID: shown) == expected { score.stopsShownRight += 1 }
            }
            if expected == to?.code {
                score.approach += 1
                if answered == expected { score.alightingNamed += 1 }
            }
        }
        return score
    }

    /// How many of the leg's stations after the boarding one lie more than
    /// `PhoneRailLegs.stationPassed` behind `along`, measured on from the boarding station (so
    /// that a loop counts only the stations ridden past).
    ///
    /// - Complexity: O(s) in the leg's stations.
    func stationsPassed(at along: Meters) -> Int? {
        guard let truth, let boarding = truth.stops.first else { return nil }
        let walk = TrackWalk(railway: truth.railway, direction: truth.direction)
        let ridden = walk.distanceAhead(from: boarding.position, to: along)
        return truth.stops.dropFirst().filter {
            walk.distanceAhead(from: boarding.position, to: $0.position) + PhoneRailLegs.stationPassed < ridden
        }.count
    }
}
