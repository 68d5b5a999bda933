import TrainTrackerCore

/// How one algorithm did on one simulated session.
public struct CaseScore: Hashable, Sendable, Codable {
    /// The session.
    public var sessionID: String
    /// Its scenario, if any.
    public var scenario: String?
    /// Fixes scored: those from `warmUp` seconds after the first departure on (after a change
    /// of trains, not the walk, the wait and the first `warmUp` seconds of the second train).
    public var scoredFixes: Int
    /// Scored fixes whose best answer named the true railway.
    public var railwayCorrect: Int
    /// ... the true railway and direction.
    public var directionCorrect: Int
    /// ... the true railway, or one whose services the ride has not yet told apart from its
    /// train (`CaseTruth.Telling`): where two lines cannot yet be told apart, either.
    public var railwayAlikeCorrect = 0
    /// ... a station and phase the truth shows within ±20 s.
    public var focusCorrect: Int
    /// ... the true next stop (the focus station for algorithms without a next stop) within ±20 s.
    public var nextStopCorrect: Int
    /// Whether the answer settled on the true railway and direction and kept it to the end.
    public var locked: Bool
    /// Seconds from the first departure to that lock.
    public var lockTime: Seconds?
    /// The stations the train stopped at after that departure and before the lock: 0 when the
    /// answer locked before the first stop, 1 when at or after it and before the second.
    public var lockStations: Int? = nil
    /// Whether the ride has a telling station: every other service that could be its train is
    /// told apart at some station of the ride (`CaseTruth.Telling`).
    public var told = false
    /// Whether some other service calls where the train calls to the ride's end.
    public var untold = false
    /// The stations the train reached after the telling station and before the answer settled on
    /// the service (the lock, and the true train type whenever it names one): 0 when it settled before
    /// reaching the next one (or before the telling station itself); nil without a telling
    /// station or such a lock.
    public var stationsAfterTelling: Int? = nil
    /// The algorithm's time per fix, in microseconds.
    public var microsecondsPerFix: Double
    /// Scored fixes with the right next stop, an arrival time, and the train not yet there.
    public var etaScored = 0
    /// ... whose arrival time was within a minute of the true arrival.
    public var etaWithinMinute = 0
    /// ... the sum of their absolute arrival-time errors, in seconds.
    public var etaAbsoluteError: Seconds = 0
    /// Scored fixes whose best answer named the true train (the timetable's train id).
    public var trainCorrect = 0
    /// Scored fixes whose best answer named a next stop (`TrackingCandidate.nextStopID`),
    /// whatever railway it named, ...
    public var stopsShown = 0
    /// ... and the true service's next stop within ±20 s (a station of another railway at the
    /// same place counts: services not yet told apart stop at one place under two ids).
    public var stopsShownRight = 0
    /// Scored fixes answered with more than one service still possible (`TrackingResult.undecided`).
    public var undecidedFixes = 0
    /// Seconds from the first departure (the second train's, after a change of trains) to the
    /// last answer with more than one service possible: 0 when none was (every ride of an
    /// algorithm that lists no services); nil when the last answer still had more than one.
    public var undecidedFor: Seconds?
}

/// How one scored fix went, for breakdowns finer than a ride (by hour of day).
public struct FixVerdict: Hashable, Sendable {
    /// When, in seconds since 1970.
    public var time: Double
    /// Whether the best answer named the true railway, ...
    public var railway: Bool
    /// ... the true next stop, ...
    public var nextStop: Bool
    /// ... and the true train.
    public var train: Bool
    /// The railway the best answer named, if any.
    public var railwayID: String?
    /// The arrival time the answer gave, when it was scored.
    public var arrival: ArrivalVerdict?
    /// The answer's predicted arrivals at the stops ahead (`TrackingCandidate.arrivals`), each
    /// at a station where the truth's train arrives after the fix.
    public var stopsAhead: [StopAheadVerdict] = []
}

/// A predicted arrival at a stop ahead, scored at a fix: its horizon (the predicted arrival
/// less the fix's time), how long before the true arrival the fix came, its error (positive:
/// later than the truth), in seconds, and whether its interval held the true arrival.
public struct StopAheadVerdict: Hashable, Sendable {
    public var horizon: Seconds
    public var ahead: Seconds
    public var error: Seconds
    public var covered: Bool
}

/// An arrival time scored at a fix: how long before the true arrival the fix came, and the
/// answer's error (positive: later than the truth), in seconds.
public struct ArrivalVerdict: Hashable, Sendable {
    public var ahead: Seconds
    public var error: Seconds
}

/// The summary of one algorithm over a set of cases.
public struct AlgorithmScore: Hashable, Sendable, Codable {
    /// The algorithm's name.
    public var algorithm: String
    /// The cases scored.
    public var sessions: Int
    /// Scored fixes in all.
    public var fixes: Int
    /// Shares of scored fixes, 0 ... 1.
    public var railwayAccuracy: Double
    /// ... naming the true railway or one not yet told apart from it.
    public var railwayAlikeAccuracy: Double = 0
    public var directionAccuracy: Double
    public var focusAccuracy: Double
    public var nextStopAccuracy: Double
    /// The share of sessions that locked and stayed locked.
    public var lockedShare: Double
    /// The median lock time after the first departure, over locked sessions.
    public var medianLockTime: Seconds?
    /// The median number of stations stopped at before the lock, over locked sessions.
    public var medianLockStations: Double? = nil
    /// Rides with a telling station, and those with a service never told apart.
    public var toldRides = 0
    public var untoldRides = 0
    /// The share of rides with a telling station that locked at most one station after it.
    public var decidedShare: Double? = nil
    /// The median stations reached after the telling station before the lock, over those rides.
    public var medianStationsAfterTelling: Double? = nil
    /// Time per fix over all cases, in microseconds.
    public var microsecondsPerFix: Double
    /// The share of arrival times (right next stop, train not yet there) within a minute of the truth.
    public var etaWithinMinuteShare: Double?
    /// The share of scored fixes whose best answer named the true train.
    public var trainAccuracy: Double
    /// Their mean absolute error, in seconds.
    public var meanETAError: Seconds?
    /// Shares of scored fixes whose best answer named a next stop that was right for the true
    /// service (whatever railway it named), and one that was wrong; the rest named none (the
    /// next station shown as a station, while the services are not told apart).
    public var shownStopRightShare: Double = 0
    public var shownStopWrongShare: Double = 0
    /// The share of scored fixes answered with more than one service still possible.
    public var undecidedShare: Double = 0
    /// The median seconds rides stayed undecided after their first departure (`CaseScore.undecidedFor`),
    /// over rides decided by their end, and the rides still undecided at their end.
    public var medianUndecidedFor: Seconds?
    public var undecidedAtEnd = 0

    /// A ride counts as decided when it locks at most this many stations after its telling
    /// station (issue 42's target: within one station after the first that tells).
    public static let decidedWithin = 1

    /// Sums `scores` into one line.
    public init(algorithm: String, scores: [CaseScore]) {
        self.algorithm = algorithm
        sessions = scores.count
        let fixes = scores.reduce(0) { $0 + $1.scoredFixes }
        self.fixes = fixes
        func share(_ value: (CaseScore) -> Int) -> Double {
            fixes == 0 ? 0 : Double(scores.reduce(0) { $0 + value($1) }) / Double(fixes)
        }
        railwayAccuracy = share(\.railwayCorrect)
        railwayAlikeAccuracy = share(\.railwayAlikeCorrect)
        directionAccuracy = share(\.directionCorrect)
        focusAccuracy = share(\.focusCorrect)
        nextStopAccuracy = share(\.nextStopCorrect)
        trainAccuracy = share(\.trainCorrect)
        shownStopRightShare = share(\.stopsShownRight)
        shownStopWrongShare = share(\.stopsShown) - shownStopRightShare
        undecidedShare = share(\.undecidedFixes)
        medianUndecidedFor = scores.compactMap(\.undecidedFor).median
        undecidedAtEnd = scores.filter { $0.undecidedFor == nil }.count
        lockedShare = scores.isEmpty ? 0 : Double(scores.filter(\.locked).count) / Double(scores.count)
        medianLockTime = scores.compactMap(\.lockTime).median
        medianLockStations = scores.compactMap { $0.lockStations.map(Double.init) }.median
        let told = scores.filter(\.told)
        toldRides = told.count
        untoldRides = scores.filter(\.untold).count
        let decided = told.filter { ($0.stationsAfterTelling ?? .max) <= Self.decidedWithin }.count
        decidedShare = told.isEmpty ? nil : Double(decided) / Double(told.count)
        medianStationsAfterTelling = told.compactMap { $0.stationsAfterTelling.map(Double.init) }.median
        let weighted = scores.reduce(0.0) { $0 + $1.microsecondsPerFix * Double($1.scoredFixes) }
        microsecondsPerFix = fixes == 0 ? 0 : weighted / Double(fixes)
        let etaScored = scores.reduce(0) { $0 + $1.etaScored }
        etaWithinMinuteShare = etaScored == 0 ? nil : Double(scores.reduce(0) { $0 + $1.etaWithinMinute }) / Double(etaScored)
        meanETAError = etaScored == 0 ? nil : scores.reduce(0) { $0 + $1.etaAbsoluteError } / Double(etaScored)
    }
}

/// Scores tracking algorithms against simulated ground truth.
public struct Evaluator: Sendable {
    /// Fixes in the first seconds after departure are not scored (the algorithm is still learning).
    public var warmUp: Seconds = 90
    /// A focus or next stop counts when the truth shows it within this many seconds.
    public var tolerance: Seconds = 20
    /// An arrival time counts as right within this many seconds of the true arrival.
    public static let arrivalTolerance: Seconds = 60
    /// The network the cases ride, for the places of stations: with it, a next stop shown
    /// under another railway's id at the same place (`RailwayTracker.samePlace`) is the true
    /// one; without it, only the same id is.
    public var network: RailwayNetwork?

    /// The defaults: scoring from 90 s after departure, ±20 s tolerance.
    public init() {}

    /// Replays `fixes` through `tracker` and scores the answers against `truth`.
    ///
    /// - Complexity: O(n) in the number of fixes, plus the algorithm's own cost.
    public func score(
        fixes: [RecordedFix], truth: CaseTruth, tracker: some TrackingAlgorithm, clock: some Clock<Duration> = ContinuousClock(),
        observe: ((FixVerdict) -> Void)? = nil
    ) -> CaseScore {
        var tracker = tracker
        var results: [TrackingResult] = []
        results.reserveCapacity(fixes.count)
        let elapsed = clock.measure {
            for fix in fixes { results.append(tracker.process(fix.location)) }
        }
        let truthByID = Dictionary(truth.fixes.map { ($0.locationID, $0) }, uniquingKeysWith: { first, _ in first })
        let timeline = truth.fixes.sorted { $0.time < $1.time }
        var score = CaseScore(
            sessionID: truth.sessionID, scenario: truth.scenario, scoredFixes: 0, railwayCorrect: 0, directionCorrect: 0,
            focusCorrect: 0, nextStopCorrect: 0, locked: false, lockTime: nil,
            microsecondsPerFix: fixes.isEmpty ? 0 : elapsed.microseconds / Double(fixes.count))
        var locks = LockWatch()
        let arrivals = Self.arrivals(of: truth, inOrder: timeline)
        // After a change of trains, the lock is measured from the second train's departure.
        let lockFrom = truth.transfer?.secondDeparture ?? truth.departure
        var lastUndecided: Double? = nil
        var endsUndecided = false
        for (fix, result) in zip(fixes, results) {
            guard let actual = truthByID[fix.id] else { continue }
            let best = result.best
            let railway = actual.railwayID ?? truth.railwayID
            let direction = actual.directionName ?? truth.directionName
            if actual.time >= lockFrom {
                endsUndecided = !result.undecided.isEmpty
                if endsUndecided { lastUndecided = actual.time }
                locks.observe(best, railway: railway, direction: direction, at: actual.time, truth: truth)
            }
            guard actual.time >= truth.departure + warmUp, actual.scored != false else { continue }
            // A rider between trains is on no train yet: the second ride is scored like the first.
            if let transfer = truth.transfer, let arrival = transfer.firstArrival,
                actual.time >= arrival, actual.time < transfer.secondDeparture + warmUp
            {
                continue
            }
            score.scoredFixes += 1
            if !result.undecided.isEmpty { score.undecidedFixes += 1 }
            // (The truth's records around the fix, looked up once for every judgement of it.)
            let window = Self.window(timeline, around: actual.time, tolerance: tolerance)
            if let shown = best?.nextStopID {
                score.stopsShown += 1
                if window.contains(where: { $0.nextStop.map { samePlace(shown, $0) } ?? false }) { score.stopsShownRight += 1 }
            }
            let rightTrain = best?.trainID == truth.trainID && actual.railwayID == nil
            if rightTrain { score.trainCorrect += 1 }
            if let named = best?.railwayID, named == railway || Self.stillAlike(named, truth: truth, at: actual.time) {
                score.railwayAlikeCorrect += 1
            }
            // (What the rider is told of the stops ahead counts whether the railway is right or not.)
            let stopsAhead = best.map { Self.stopsAhead($0, at: actual.time, arrivals: arrivals) } ?? []
            guard let best, best.railwayID == railway else {
                var verdict = FixVerdict(
                    time: actual.time, railway: false, nextStop: false, train: false, railwayID: best?.railwayID)
                verdict.stopsAhead = stopsAhead
                observe?(verdict)
                continue
            }
            score.railwayCorrect += 1
            if best.directionName == direction { score.directionCorrect += 1 }
            // (Judged whether or not anyone observes: the verdict counts into the score.)
            var verdict = judge(best, at: actual, rightTrain: rightTrain, window: window, arrivals: arrivals, into: &score)
            verdict.stopsAhead = stopsAhead
            observe?(verdict)
        }
        locks.record(into: &score, from: lockFrom, arrivals: arrivals, truth: truth)
        score.undecidedFor = endsUndecided ? nil : max(0, (lastUndecided ?? lockFrom) - lockFrom)
        return score
    }

    /// Whether stations `first` and `second` are one place: the same id, or within
    /// `samePlace` of each other on `network`.
    func samePlace(_ first: String, _ second: String) -> Bool {
        guard first != second else { return true }
        guard let network, let one = network.station(id: first), let other = network.station(id: second) else { return false }
        return one.coordinate.distance(to: other.coordinate) <= RailwayTracker.samePlace
    }

    /// The focus, next stop and arrival time of `best`, an answer that named the true railway
    /// at the fix `actual`, into `score`; the fix's verdict.
    private func judge(
        _ best: TrackingCandidate, at actual: TruthFix, rightTrain: Bool, window: ArraySlice<TruthFix>,
        arrivals: [(station: String, time: Double)], into score: inout CaseScore
    ) -> FixVerdict {
        if window.contains(where: { $0.station == best.focusStationID && $0.phase == best.phase }) { score.focusCorrect += 1 }
        let nextStop = best.nextStopID ?? best.focusStationID
        let rightStop = window.contains { $0.nextStop == nextStop }
        if rightStop { score.nextStopCorrect += 1 }
        var verdict = FixVerdict(
            time: actual.time, railway: true, nextStop: rightStop, train: rightTrain, railwayID: best.railwayID)
        // The arrival time, while the train is on its way to the right next stop.
        if let eta = best.eta, actual.nextStop == nextStop, actual.nextStopPhase != .now,
            let arrival = Self.arrival(at: nextStop, after: actual.time, in: arrivals)
        {
            let error = abs(eta.secondsSince1970 - arrival)
            score.etaScored += 1
            score.etaAbsoluteError += error
            if error <= Self.arrivalTolerance { score.etaWithinMinute += 1 }
            verdict.arrival = ArrivalVerdict(ahead: arrival - actual.time, error: eta.secondsSince1970 - arrival)
        }
        return verdict
    }

    /// When the ride's train reached each of its stops: the truth's own stop arrivals where it
    /// has them (a recording's, timed at each station's mark), else when it came to a stop
    /// at each station (`arrivals(_:)`, from its fixes in time order: `inOrder`, where the
    /// caller has them sorted already).
    static func arrivals(of truth: CaseTruth, inOrder: [TruthFix]? = nil) -> [(station: String, time: Double)] {
        truth.stopArrivals.map { $0.map { ($0.station, $0.time) } }
            ?? arrivals(inOrder ?? truth.fixes.sorted { $0.time < $1.time })
    }

    /// When the train came to a stop at each station it stopped at, in time order.
    static func arrivals(_ timeline: [TruthFix]) -> [(station: String, time: Double)] {
        var arrivals: [(station: String, time: Double)] = []
        var standing = false
        for fix in timeline {
            let atStation = fix.speed == 0 && fix.phase == .now && fix.scored != false
            if atStation, !standing, arrivals.last?.station != fix.station { arrivals.append((fix.station, fix.time)) }
            standing = atStation
        }
        return arrivals
    }

    /// `best`'s predicted arrivals at the stops ahead, scored at `time` against the first true
    /// arrival at each station after it (a station the truth's train does not reach is not scored).
    static func stopsAhead(_ best: TrackingCandidate, at time: Double, arrivals: [(station: String, time: Double)])
        -> [StopAheadVerdict]
    {
        best.arrivals.compactMap { predicted in
            guard let actual = arrival(at: predicted.stationID, after: time, in: arrivals) else { return nil }
            let predictedTime = predicted.time.secondsSince1970
            return StopAheadVerdict(
                horizon: predictedTime - time, ahead: actual - time, error: predictedTime - actual,
                covered: predicted.earliest.secondsSince1970 <= actual && actual <= predicted.latest.secondsSince1970)
        }
    }

    /// The first arrival at `station` after `time`.
    static func arrival(at station: String, after time: Double, in arrivals: [(station: String, time: Double)]) -> Double? {
        arrivals.first { $0.time > time && $0.station == station }?.time
    }

    /// The truth records within `tolerance` seconds of `time` (`timeline` is in time order).
    static func window(_ timeline: [TruthFix], around time: Double, tolerance: Seconds) -> ArraySlice<TruthFix> {
        var low = 0
        var high = timeline.count
        while low < high {
            let middle = (low + high) / 2
            if timeline[middle].time < time - tolerance { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < timeline.count, timeline[end].time <= time + tolerance { end += 1 }
        return timeline[low..<end]
    }
}

extension Duration {
    /// The duration in microseconds.
    var microseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    }
}
