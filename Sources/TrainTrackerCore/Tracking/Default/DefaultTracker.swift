import RealModule

/// TrainTracker's own algorithm: an online Viterbi over (railway, direction) hypotheses.
///
/// Per fix, every railway within reach is a hypothesis in both directions, and each kind of
/// evidence adds nats to each hypothesis's score: `PositionEvidence` (the fix's distance from
/// where the line's trains run), `TunnelEvidence`, `CourseEvidence`, `ProgressEvidence`,
/// `SilenceEvidence` (gaps in the fixes), `TrafficEvidence` (how many trains run the stretch),
/// `StopEvidence` (stops and passes against the line's service patterns, which give the train
/// type and the next stop), `DepartureEvidence` (departure times against the timetable) and
/// `LeavingEvidence` (the rider walked away). `SwitchingEvidence` is the Viterbi step: a
/// hypothesis may take over from the leader at a cost, so early mistakes are forgotten once
/// the evidence turns. Along-track position is filtered per hypothesis, so far-off fixes are
/// gated out and gaps are bridged by dead reckoning. `explains` keeps each term's share.
///
///     let model = TrackerModel(dataset: dataset)   // once per network
///     var tracker = DefaultTracker(model: model)   // once per rider
///     let answer = tracker.process(fix)
///
/// Memory is bounded: per hypothesis a few numbers and at most a few pending stations, and
/// hypotheses far from the train are dropped.
public struct DefaultTracker: TrackingAlgorithm {
    /// The tuning constants: one value per kind of evidence, with its own constants.
    public struct Parameters: Hashable, Sendable {
        /// The Viterbi step: taking over from the leader.
        public var switching = SwitchingEvidence()
        /// Walking away from a train.
        public var leaving = LeavingEvidence()
        /// The fix against where the line's trains run.
        public var position = PositionEvidence()
        /// A fix under the sky against a line in a tunnel.
        public var tunnel = TunnelEvidence()
        /// The reported course against the track's.
        public var course = CourseEvidence()
        /// Backward progress between fixes.
        public var progress = ProgressEvidence()
        /// Gaps in the fixes.
        public var silence = SilenceEvidence()
        /// How many of the line's trains run the stretch.
        public var traffic = TrafficEvidence()
        /// Stops and passes against the service patterns.
        public var stops = StopEvidence()
        /// Departure times against the timetable.
        public var departures = DepartureEvidence()
        /// Where the train is when, against the timetable.
        public var passages = PassageEvidence()
        /// Weight of the timetable prior in the ranking (busier lines win ties), in nats per
        /// unit of log prior; it never enters the scores.
        public var priorWeight = 0.01
        /// Fixes older than this make the answer estimated.
        public var staleAfter: Seconds = 3
        /// Whether the line shown first is kept while the rider stands still (or walks): a new
        /// line is taken only once a train moves on it.
        public var holdsLineWhileStanding = true

        /// The defaults.
        public init() {}
    }

    /// What one fix says, worked out once for every hypothesis.
    struct Fix {
        let location: Location
        /// Seconds since the previous fix (1 for the first).
        let dt: Seconds
        /// The train's speed: reported, else from the fixes; 0 when stopped.
        let speed: MetersPerSecond
        let stopped: Bool
        /// A stop that started or ended at this fix.
        let change: MotionState.Change?
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
    /// - Complexity: O(R log V) for the railways within reach, plus O(H · S) for the
    ///   hypotheses' station bookkeeping.
    public mutating func process(_ location: Location) -> TrackingResult {
        // A wild fix (farther than any train goes since the last) is left out: the answer holds.
        if isWild(location) { return estimate(at: location.timestamp) }
        if explains {
            for index in hypotheses.indices { hypotheses[index].startExplaining() }
        }
        let fix = read(location)
        findRailways(near: fix)
        // Calendars are law: a line with no train running now is no hypothesis.
        var ended: [Int] = []
        for index in hypotheses.indices where !isRunning(hypotheses[index].line, at: location.timestamp) {
            ended.append(index)
        }
        if !ended.isEmpty {
            for index in ended.reversed() {
                slots[line: hypotheses[index].line] = -1
                hypotheses.remove(at: index)
            }
            for index in hypotheses.indices { slots[line: hypotheses[index].line] = Int32(index) }
        }
        var leaderScore = hypotheses.isEmpty ? 0 : -Double.infinity
        // (Fields read in place, by index: copying a hypothesis copies and retains its lists.)
        for index in hypotheses.indices { leaderScore = max(leaderScore, hypotheses[index].score) }
        addHypotheses(score: leaderScore - parameters.switching.cost, at: location.timestamp)

        let leaderRailway = leaderLine?.railway
        var list = hypotheses  // taken out, so that updating them copies nothing
        hypotheses = []
        for index in list.indices {
            let cost = parameters.switching.cost(
                atThroughServiceEnd: atThroughServiceEnd(list[index].line.railway, leader: leaderRailway, fix: fix),
                stopEnded: fix.change?.endedStop)
            list[index].charge(.switching, SwitchingEvidence.nats(score: list[index].score, leader: leaderScore, cost: cost))
            weigh(&list[index], fix: fix)
        }

        // Normalise, forget the far-away.
        var best = list.isEmpty ? 0 : -Double.infinity
        for index in list.indices { best = max(best, list[index].score) }
        let forget = -parameters.switching.cost - 1
        if list.contains(where: { $0.missed > Self.forgottenAfter && $0.score - best < forget }) {
            list.removeAll { $0.missed > Self.forgottenAfter && $0.score - best < forget }
        }
        for index in list.indices {
            list[index].score -= best
            slots[line: list[index].line] = Int32(index)
        }
        for key in slots.indices where slots[key] >= 0 {
            let slot = Int(slots[key])
            if slot >= list.count || list[slot].line.index != key { slots[key] = -1 }
        }
        hypotheses = list
        lastFix = location
        // Standing still, the rider is on the train the answer named (or on its platform): a
        // new line is taken only once the train moves on it.
        // (A rider walking to another platform is standing as far as trains go.)
        let standing =
            parameters.holdsLineWhileStanding && (fix.stopped || fix.speed < MotionState.walkingSpeeds.upperBound)
        let (result, shown) = answer(at: location.timestamp, speed: fix.speed, estimated: false, held: standing ? shownLine : nil)
        shownLine = shown
        var leader: Int?
        for index in hypotheses.indices where leader.map({ hypotheses[index].score > hypotheses[$0].score }) ?? true {
            leader = index
        }
        leaderLine = leader.map { hypotheses[$0].line }
        return result
    }

    /// A hypothesis out of reach for this many fixes in a row, and far behind, is forgotten.
    static let forgottenAfter = 30
    /// With a fix that gives no speed, and is this inaccurate, the last speed holds.
    static let speedFromFixesAccuracy: Meters = 50

    /// What the fix says before any hypothesis is weighed: time since the last, speed, stops,
    /// errors and weights.
    private mutating func read(_ location: Location) -> Fix {
        let dt = lastFix.map { max(0.1, location.timestamp.seconds(since: $0.timestamp)) } ?? 1
        // A silence is a gap much longer than the phone's usual wait (judged before this gap counts).
        let silentAfter = parameters.silence.threshold(cadence: cadence.seconds)
        if lastFix != nil { cadence.add(dt) }
        let wasWalking = motion.isWalking
        let change = motion.update(location)
        let stopped = motion.isStopped
        if motion.isWalking, !wasWalking { leaveTrain() }
        var speed = location.speed ?? 0
        if let last = lastFix, location.speed == nil {
            speed = last.coordinate.distance(to: location.coordinate) / dt
            if (location.horizontalAccuracy ?? 30) > Self.speedFromFixesAccuracy { speed = lastSpeed }
        }
        if stopped { speed = 0 } else if speed < 0.5, lastSpeed > 3 { speed = lastSpeed }  // a lone 0.0 while moving
        lastSpeed = speed
        let position = parameters.position
        let accuracy = PositionEvidence.accuracy(reported: location.horizontalAccuracy)
        let span = position.span(sinceLast: lastFix == nil ? nil : dt)
        return Fix(
            location: location, dt: dt, speed: speed, stopped: stopped, change: change, accuracy: accuracy,
            sigma: position.sigma(accuracy: accuracy), projection: LocalProjection(origin: location.coordinate), span: span,
            weight: position.fixWeight(span: span, speed: speed, stopped: stopped),
            offsetKept: stopped ? 1 : position.offsetKept(over: speed * dt), silentAfter: silentAfter)
    }

    /// Every railway within reach is a hypothesis in both directions: a new one starts at `score`.
    private mutating func addHypotheses(score: Double, at time: Timestamp) {
        for item in near {
            for direction in TravelDirection.allCases {
                let line = LineDirection(railway: item.railway, direction: direction)
                guard slots[line: line] < 0, isRunning(line, at: time) else { continue }
                slots[line: line] = Int32(hypotheses.count)
                var hypothesis = Hypothesis(
                    line: line, score: score, offset: LateralOffset(spread: parameters.position.mapOffsetSpread),
                    patternWeights: model.patternPriors[line: line], stopChance: model.initialStopChance[line: line],
                    walk: TrackWalk(railway: model.network.railways[item.railway], direction: direction))
                if explains { hypothesis.startExplaining() }
                hypotheses.append(hypothesis)
            }
        }
    }

    /// Whether `line` has a train running at `time` by its calendar (asked of the model once a
    /// minute per line).
    mutating func isRunning(_ line: LineDirection, at time: Timestamp) -> Bool {
        guard model.hasTimetable else { return true }
        let minute = Int32(clamping: Int(flooring: time.secondsSince1970 / 60, within: -1_000_000_000...1_000_000_000))
        if serviceMinute[line: line] != minute {
            serviceMinute[line: line] = minute
            serviceRunning[line: line] = model.timetable.hasTrainRunning(line: line.index, at: time)
        }
        return serviceRunning[line: line]
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

    /// Every kind of evidence the fix gives one hypothesis, after the switching step.
    private func weigh(_ hypothesis: inout Hypothesis, fix: Fix) {
        let railway = hypothesis.line.railway
        if nearSlot[railway] >= 0 {
            let place = near[Int(nearSlot[railway])]
            hypothesis.missed = 0
            // Against where this line's trains run, as its fixes have shown: the drawn track
            // plus a slowly changing offset to one side.
            let position = parameters.position
            hypothesis.offset.relax(keeping: fix.offsetKept, spread: position.mapOffsetSpread)
            let (residual, spread) = hypothesis.offset.residual(place.lateral, sigma: fix.accuracy)
            let z = abs(residual) / spread
            hypothesis.charge(.position, position.nats(z: z, fixWeight: fix.weight))
            if z <= PositionEvidence.offsetGate {
                hypothesis.offset.update(place.lateral, sigma: fix.accuracy, weight: position.offsetLearning(span: fix.span))
            }
            if place.underground { hypothesis.charge(.tunnel, parameters.tunnel.nats(fixWeight: fix.weight)) }
            let walk = hypothesis.walk
            let course = parameters.course.nats(
                course: fix.location.course, speed: fix.speed, trackCourse: place.course, reversed: !(walk.sign > 0)
            ) { neighbouringCourses(railway: railway, projection: fix.projection) }
            if let course { hypothesis.charge(.course, course) }
            // Whether this fix is good enough to place the train on this line, asked once.
            let placing = Hypothesis.placesTheTrain(distance: abs(residual), sigma: spread)
            track(&hypothesis, measured: place.along, placing: placing, fix: fix)
            parameters.progress.observe(
                &hypothesis, measured: place.along, sigma: spread, placing: placing, at: fix.location.timestamp)
            parameters.traffic.observe(&hypothesis, model: model)
            parameters.passages.observe(
                &hypothesis, model: model, placing: placing, speed: fix.speed, at: fix.location.timestamp,
                departures: parameters.departures, cadence: cadence.seconds)
        } else {
            hypothesis.missed += 1
            hypothesis.charge(.position, parameters.position.outOfReach(fixWeight: fix.weight))
            if let along = hypothesis.along, !fix.stopped {
                hypothesis.along = hypothesis.walk.advance(along, by: fix.speed * fix.dt)
            }
        }
        let departed = parameters.stops.observe(
            &hypothesis, model: model, change: fix.change, stopped: fix.stopped,
            travelled: fix.stopped ? 0 : fix.speed * fix.dt * 1.5 + 40, gap: fix.dt)
        if let departed {
            parameters.departures.observe(&hypothesis, model: model, station: departed, at: fix.location.timestamp)
        }
        parameters.stops.judgeLeftBehind(&hypothesis, model: model)
    }

    /// The rider walked away from the train: whatever train comes next starts afresh
    /// (`LeavingEvidence`); what the old train's stops said about its service pattern no
    /// longer applies.
    private mutating func leaveTrain() {
        let total = hypotheses.reduce(0.0) { $0 + Double.exp($1.score) }
        let shares = hypotheses.map { total > 0 ? Double.exp($0.score) / total : 0 }
        for index in hypotheses.indices {
            var hypothesis = hypotheses[index]
            let reverse = slots[line: hypothesis.line.reversed]
            let nats = parameters.leaving.nats(
                score: hypothesis.score, trafficPrior: hypothesis.trafficPrior, share: shares[index],
                reverseShare: reverse >= 0 ? shares[Int(reverse)] : 0)
            hypothesis.charge(.leaving, nats)
            hypothesis.patternWeights = model.patternPriors[line: hypothesis.line]
            hypothesis.stopChance = model.initialStopChance[line: hypothesis.line]
            hypothesis.trainTypeID = nil
            hypothesis.pending = []
            hypothesis.progressAnchor = nil
            hypothesis.lastPassage = nil
            hypothesis.passageUnmatched = false
            hypothesis.passageLostTrain = false
            hypothesis.stops = []
            hypothesis.trips = []
            hypotheses[index] = hypothesis
        }
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

    /// How many (railway, direction) hypotheses the tracker holds now.
    public var hypothesisCount: Int { hypotheses.count }

    /// The most entries any hypothesis keeps in its lists (pending stations, stops, patterns).
    var largestHypothesis: Int {
        hypotheses.map { max($0.pending.count, $0.stops.count, $0.patternWeights.count, $0.trips.count) }.max() ?? 0
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
        for index in projected.hypotheses.indices {
            guard let along = projected.hypotheses[index].along else { continue }
            let hypothesis = projected.hypotheses[index]
            var distance = lastSpeed * elapsed
            if let stop = projected.nextStop(of: hypothesis, from: along) {
                distance = min(distance, max(0, hypothesis.walk.distanceAhead(from: along, to: stop.position)))
            }
            projected.hypotheses[index].along = hypothesis.walk.advance(along, by: distance)
        }
        return projected.answer(at: time, speed: lastSpeed, estimated: true, held: held).result
    }
}
