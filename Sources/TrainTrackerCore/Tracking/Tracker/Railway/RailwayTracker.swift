import RealModule

/// The railway tracker (`--algorithm railway`): an online Viterbi over (railway, direction)
/// hypotheses. The default tracker, `TripTracker`, runs it beneath its belief over trips and
/// answers with it where no timetable applies; alone, it is a baseline.
///
/// Per fix, in four steps (`process(_:)`):
/// 1. **Candidates**: every railway within reach with a train running is a hypothesis in both
///    directions.
/// 2. **Transition**: the Viterbi step (`SwitchingEvidence`): a hypothesis may take over from
///    the leader at a cost, so early mistakes are forgotten once the evidence turns; walking
///    away from a train (`LeavingEvidence`) starts every line afresh.
/// 3. **Evidence**: the fix places each hypothesis's train along its line (filtered per
///    hypothesis, so far-off fixes are gated out and gaps are bridged by dead reckoning), then
///    each kind of evidence (`EvidenceKind`, in the order of `Parameters.visitKinds(_:_:)`) adds
///    nats to its score: `PositionEvidence` (the fix's distance from where the line's trains
///    run), `TunnelEvidence`, `CourseEvidence`, `SilenceEvidence` (gaps in the fixes),
///    `ProgressEvidence`, `TrafficEvidence` (how many trains run the stretch),
///    `PassageEvidence` (where the train is when, against the timetable), `StopEvidence` and
///    `CrossingEvidence` (stops and passes against the line's service patterns, which give the
///    train type and the next stop) and `DepartureEvidence` (departure times).
/// 4. **Decoding**: the far-away are forgotten, scores are set relative to the leader, and the
///    answer ranks the lines. `explains` keeps each term's share.
///
///     let model = TrackerModel(dataset: dataset)   // once per network
///     var tracker = RailwayTracker(model: model)   // once per rider
///     let answer = tracker.process(fix)
///
/// Memory is bounded: per hypothesis a few numbers and at most a few pending stations, and
/// hypotheses far from the train are dropped.
public struct RailwayTracker: TrackingAlgorithm {
    /// What one fix says, worked out once for every hypothesis.
    struct Fix {
        let location: Location
        /// Seconds since the previous fix (1 for the first).
        let dt: Seconds
        /// The train's speed: reported, else from the fixes; 0 when stopped.
        let speed: MetersPerSecond
        let stopped: Bool
        /// Still of the stop, but out of reach of where a phone without speeds stood: the
        /// train moving off (`MotionState.isLeavingStand`).
        let leavingStand: Bool
        /// A stop that started or ended at this fix.
        let change: MotionState.Change?
        /// The speed the previous fix reported, if it did (the speeds either side of a gap
        /// tell whether the train can have stopped in it).
        let previousSpeed: MetersPerSecond?
        /// Seconds since the last fix that saw the train stand (`dt` when none did).
        let sinceSeenStanding: Seconds
        let accuracy: Meters
        /// The fix's error against a drawn track.
        let sigma: Meters
        let projection: LocalProjection
        /// The seconds of riding it speaks for, and how much it counts.
        let span: Seconds
        let weight: Double
        /// How much of each line's map offset carries over since the last fix.
        let offsetKept: Double
        /// A gap longer than this is a silence.
        let silentAfter: Seconds
    }

    /// The prepared network and timetable.
    public let model: TrackerModel
    /// The constants.
    public let parameters: Parameters

    /// Live hypotheses, and where each (railway, direction) key sits among them (-1: none).
    var hypotheses: [Hypothesis] = []
    var slots: [Int32]
    /// Railways within reach of the latest fix (`Reach`), and where each sits among them (-1: none).
    var near: [Reach] = []
    var nearSlot: [Int32]
    /// Per railway, the edge nearest the latest fix (-1: out of reach): the next search's hint.
    var nearestEdges: [Int32]
    var motion = MotionState()
    var lastFix: Location?
    var lastSpeed: MetersPerSecond = 0
    var cadence = PhoneCadence()
    var leaderLine: LineDirection?
    /// The line the last answer named first: kept first while the rider stands still.
    var shownLine: LineDirection?
    /// Wild fixes left out since the last fix taken, that agree with one another
    /// (`isWild(_:)`).
    var wildFixes: [Location] = []
    /// Per (railway, direction), the minute (since 1970) its calendar was last asked whether
    /// a train runs, and the answer (`TimetableModel.hasTrainRunning`): asked once a minute.
    var serviceMinute: [Int32]
    var serviceRunning: [Bool]
    /// What the latest GTFS-realtime feed says about the trips (an operator's feed, or other
    /// riders'), set before a fix by whoever holds the feeds (`LiveTracker` replays an archive):
    /// a reported delay replaces the on-time prior for its trip, a cancelled trip is no
    /// candidate. A feed older than `liveFeedLongest` at a fix says nothing.
    public var live: LiveTrips?
    /// Whether each hypothesis keeps what each kind of evidence added at the latest fix
    /// (`explanation()`); off by default, as it costs a little per fix.
    public var explains = false

    /// A tracker with no history.
    public init(model: TrackerModel, parameters: Parameters = Parameters()) {
        self.model = model
        self.parameters = parameters
        nearestEdges = Array(repeating: -1, count: model.network.railways.count)
        slots = Array(repeating: -1, count: model.network.railways.count * 2)
        nearSlot = Array(repeating: -1, count: model.network.railways.count)
        serviceMinute = Array(repeating: -1, count: model.network.railways.count * 2)
        serviceRunning = Array(repeating: true, count: model.network.railways.count * 2)
    }

    /// Takes the next fix and returns the ranked answer.
    ///
    /// Four steps, after Barefoot's and Meili's map matchers: the candidates (every line within
    /// reach with a train running, `RailwayTracker+Candidates.swift`), the transition (each
    /// may take over from the leader, `+Transition.swift`), the evidence (each kind weighs each
    /// hypothesis, `+Evidence.swift`) and the decoding (the ranked answer, `+Decoding.swift`).
    ///
    /// - Complexity: O(R log V) for the railways within reach, plus O(H · S) for the
    ///   hypotheses' station bookkeeping.
    public mutating func process(_ reported: Location) -> TrackingResult {
        // A standing phone's claim to move that where it lies does not bear out is noise.
        let location = motion.borneOut(reported)
        // A wild fix (farther than any train goes since the last) is left out: the answer holds.
        if isWild(location) { return estimate(at: location.timestamp) }
        if explains {
            for index in hypotheses.indices { hypotheses[index].startExplaining() }
        }
        let fix = read(location)
        let leaderScore = findCandidates(for: fix)
        var list = hypotheses  // taken out, so that updating them copies nothing
        hypotheses = []
        let fixed = Observation.Fixed(
            fix: fix, model: model, parameters: parameters, cadence: cadence.seconds, live: liveFeed(at: location.timestamp))
        let leaderRailway = leaderLine?.railway
        // The helpers below only read the tracker: called on a constant, not on `self` (which
        // is `inout` here), they do not copy the whole tracker at each call.
        let tracker = self
        for index in list.indices {
            tracker.transition(&list[index], leaderScore: leaderScore, leaderRailway: leaderRailway, fix: fix)
            let weighing = Weighing(observation: Observation(fixed: fixed, placement: tracker.place(&list[index], fix: fix)))
            fixed.parameters.visitKinds(weighing, &list[index])
        }
        hypotheses = consume list  // (consumed: a copy still held would be copied on write)
        return decode(fix: fix)
    }

    /// A feed made this long before a fix no longer speaks for the trains.
    /// Set by hand on 2026-11-25 with the first GTFS-realtime rules; the reason for ten minutes is
    /// not recorded.
    public static let liveFeedLongest: Seconds = 600

    /// `live`, if it was made at most `liveFeedLongest` before `time` (and not after it).
    func liveFeed(at time: Timestamp) -> LiveTrips? {
        guard let live else { return nil }
        let age = time.seconds(since: live.timestamp)
        return age >= 0 && age <= Self.liveFeedLongest ? live : nil
    }

    /// With a fix that gives no speed, and is this inaccurate, the last speed holds.
    /// Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.
    static let speedFromFixesAccuracy: Meters = 50
    /// The time since the last fix is taken as at least this (two fixes of one second).
    /// (Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.)
    static let shortestWait: Seconds = 0.1
    /// ... and as this at the first fix.
    /// Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.
    static let firstWait: Seconds = 1
    /// A speed below this, from a train that ran faster than `movingSpeed` at the last fix and
    /// is not stopped, is a phone's lone 0.0: the last speed holds.
    /// Both set by hand on 2026-11-22 with the first default tracker, developed on simulated seed
    /// 2026; the reason is not recorded.
    static let loneZeroSpeed: MetersPerSecond = 0.5
    static let movingSpeed: MetersPerSecond = 3

    /// What the fix says before any hypothesis is weighed: time since the last, speed, stops,
    /// errors and weights.
    private mutating func read(_ location: Location) -> Fix {
        let dt = lastFix.map { max(Self.shortestWait, location.timestamp.seconds(since: $0.timestamp)) } ?? Self.firstWait
        // A silence is a gap much longer than the phone's usual wait (judged before this gap counts).
        let silentAfter = parameters.silence.threshold(cadence: cadence.seconds)
        if lastFix != nil { cadence.add(dt) }
        let wasWalking = motion.isWalking
        let wasStopped = motion.isStopped
        let change = motion.update(location)
        let stopped = motion.isStopped
        if motion.isWalking, !wasWalking { leaveTrain() }
        // (Read as the fix came, unless the train stood: a standing phone's claim is no speed.)
        let previousSpeed = wasStopped ? 0 : lastFix?.speed.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        var speed = location.speed ?? 0
        if let last = lastFix, location.speed == nil {
            speed = last.coordinate.distance(to: location.coordinate) / dt
            if (location.horizontalAccuracy ?? PositionEvidence.assumedAccuracy) > Self.speedFromFixesAccuracy {
                speed = lastSpeed
            }
        }
        if stopped {
            speed = 0
        } else if speed < Self.loneZeroSpeed, lastSpeed > Self.movingSpeed {
            speed = lastSpeed
        }
        lastSpeed = speed
        let position = parameters.position
        let accuracy = PositionEvidence.accuracy(reported: location.horizontalAccuracy)
        let span = position.span(sinceLast: lastFix == nil ? nil : dt)
        return Fix(
            location: location, dt: dt, speed: speed, stopped: stopped, leavingStand: motion.isLeavingStand,
            change: change, previousSpeed: previousSpeed,
            sinceSeenStanding: motion.lastSeenStanding.map {
                max(Self.shortestWait, location.timestamp.seconds(since: $0))
            } ?? dt,
            accuracy: accuracy,
            sigma: position.sigma(accuracy: accuracy), projection: LocalProjection(origin: location.coordinate), span: span,
            weight: position.fixWeight(span: span, speed: speed, stopped: stopped),
            offsetKept: stopped ? 1 : position.offsetKept(over: speed * dt), silentAfter: silentAfter)
    }

    /// Why each hypothesis stands where it does after the latest fix, the leader first (at most
    /// `limit`); empty unless `explains` was set before the fix.
    public func explanation(limit: Int = 8) -> [EvidenceExplanation] {
        let network = model.network
        return hypotheses.filter { $0.evidence != nil }.sorted { $0.score > $1.score }.prefix(limit).map { hypothesis in
            let railway = network.railways[hypothesis.line.railway]
            let terms = zip(EvidenceTerm.allCases, hypothesis.evidence ?? []).filter { $0.1 != 0 }.map { ($0.0, $0.1) }
            return EvidenceExplanation(
                railwayID: railway.id, directionName: railway.name(of: hypothesis.line.direction),
                score: hypothesis.score, terms: terms)
        }
    }

    /// What each line's evidence of the kinds the trip tracker takes (`EvidenceTerm.lineEvidence`:
    /// stops and passes against its service patterns, course, place) added since the last
    /// call, by `LineDirection.index`; the tally starts again from zero. A line dropped
    /// meanwhile is not listed.
    mutating func takeLineEvidence() -> [Int: LineEvidence] {
        var taken: [Int: LineEvidence] = [:]
        for index in hypotheses.indices {
            taken[hypotheses[index].line.index] = hypotheses[index].untaken
            hypotheses[index].untaken = LineEvidence()
        }
        return taken
    }

    /// Where the last fix lay across each line's track within reach, by `LineDirection.index`:
    /// its signed distance from the drawn track (left positive) and the line's map offset learnt
    /// so far (`LateralOffset`), for the trip model to measure a fix against where the line's
    /// trains run rather than where its map draws them.
    func lateralPlaces() -> [Int: (lateral: Meters, offset: Meters)] {
        var places: [Int: (lateral: Meters, offset: Meters)] = [:]
        // (Taken in proportion to how sure it is: an offset within its own spread of the drawn
        // track is the fixes' noise on a true map, not the map's error.)
        for hypothesis in hypotheses {
            let slot = nearSlot[hypothesis.line.railway]
            guard slot >= 0 else { continue }
            let mean = hypothesis.offset.mean
            let sure = mean * mean / max(mean * mean + hypothesis.offset.variance, .leastNormalMagnitude)
            places[hypothesis.line.index] = (near[Int(slot)].lateral, sure * mean)
        }
        return places
    }

    /// How many (railway, direction) hypotheses the tracker holds now.
    public var hypothesisCount: Int { hypotheses.count }

    /// The most entries any hypothesis keeps in its lists (pending stations, stops, patterns).
    var largestHypothesis: Int {
        hypotheses.map {
            max($0.stops.pending.count, $0.stops.positions.count, $0.patterns.weights.count, $0.trains.trips.count)
        }.max() ?? 0
    }

    /// The answer at `time` without a new fix: positions advance with the last speed (and
    /// stop at the next stop), and the answer says it is estimated once the last fix is
    /// older than `staleAfter`.
    public mutating func estimate(at time: Timestamp) -> TrackingResult {
        guard let last = lastFix else { return TrackingResult(candidates: []) }
        let elapsed = time.seconds(since: last.timestamp)
        let held = parameters.holdsLineWhileStanding && motion.isStopped ? shownLine : nil
        guard elapsed > parameters.staleAfter else {
            return answer(at: time, speed: lastSpeed, estimated: false, held: held).result
        }
        var projected = self
        let live = liveFeed(at: time)
        for index in projected.hypotheses.indices {
            guard let along = projected.hypotheses[index].along else { continue }
            let hypothesis = projected.hypotheses[index]
            // A train a feed reports: where the feed says it is.
            if let live, let reported = reportedPosition(of: hypothesis, live: live, at: time) {
                projected.hypotheses[index].along = reported
                continue
            }
            var distance = lastSpeed * elapsed
            if let stop = projected.nextStop(of: hypothesis, from: along) {
                distance = min(distance, max(0, hypothesis.walk.distanceAhead(from: along, to: stop.position)))
            }
            projected.hypotheses[index].along = hypothesis.walk.advance(along, by: distance)
        }
        return projected.answer(at: time, speed: lastSpeed, estimated: true, held: held).result
    }

    /// A reported vehicle position this old still says where its train is now.
    /// Set by hand on 2026-11-25 after a security review of the live rules; the reason for two
    /// minutes is not recorded.
    static let vehicleFreshness: Seconds = 120
    /// A reported train further than this ahead of (or any way behind) a hypothesis's last
    /// position is another train: its report does not move the hypothesis.
    /// Set by hand on 2026-11-25 after a security review of the live rules; the reason for 10 km is
    /// not recorded.
    static let reportedReach: Meters = 10_000

    /// Where the train `hypothesis` follows is at `time` by an operator's feed `live` (riders'
    /// reports never move a rider): its vehicle's
    /// position (at most `vehicleFreshness` old), else its timetable and reported delay; on
    /// its track, ahead of the hypothesis's last position within `reportedReach`.
    func reportedPosition(of hypothesis: Hypothesis, live: LiveTrips, at time: Timestamp) -> Meters? {
        guard let along = hypothesis.along,
            let followed = hypothesis.trains.trips.max(by: { $0.logWeight < $1.logWeight }),
            let report = live.trip(followed.trip, of: hypothesis.line, origin: followed.origin), !report.cancelled,
            report.informs
        else { return nil }
        let railway = model.network.railways[hypothesis.line.railway]
        var place: Coordinate?
        if let vehicle = report.vehicle, abs(time.seconds(since: vehicle.time)) <= Self.vehicleFreshness {
            place = vehicle.coordinate
        } else if let delay = report.delay {
            if let id = model.timetable.tripNames.id(line: hypothesis.line, trip: Int(followed.trip)) {
                place = model.progress(ofTrip: id, delay: delay, at: time)?.coordinate
            }
        }
        guard let place, let projection = railway.track.polyline.projection(of: place, within: TrackerModel.delayReach)
        else { return nil }
        let ahead = hypothesis.walk.distanceAhead(from: along, to: projection.alongTrack)
        return (0...Self.reportedReach).contains(ahead) ? projection.alongTrack : nil
    }
}

/// The railway tracker's name until the trip model became the default tracker (0.16.0).
@available(*, deprecated, renamed: "RailwayTracker", message: "the default tracker is TripTracker")
public typealias DefaultTracker = RailwayTracker
