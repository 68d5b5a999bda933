import Algorithms
import RealModule

/// TrainTracker's own algorithm: an online Viterbi over (railway, direction) hypotheses.
///
/// Per fix, every railway within reach gets a position likelihood from the fix's distance
/// to its track (a Gaussian in the fix's reported accuracy, capped so one far-off fix cannot
/// decide), weighted by how much the train moved; each direction a course and progress
/// likelihood. Stops (a robust stopped/moving signal) and station passes are evidence
/// against the service patterns of each hypothesis: stopping where a line has no station, or
/// passing a station its trains serve, costs; the patterns come from the timetable and
/// give the train type and the next stop. A hypothesis may take over from the leader at a
/// fixed cost (cheaper along through-service links), so early mistakes are forgotten once
/// the evidence turns. Along-track position is filtered per hypothesis, so far-off fixes are
/// gated out and gaps are bridged by dead reckoning.
///
///     let model = TrackerModel(dataset: dataset)   // once per network
///     var tracker = DefaultTracker(model: model)   // once per rider
///     let answer = tracker.process(fix)
///
/// Memory is bounded: per hypothesis a few numbers and at most a few pending stations, and
/// hypotheses far from the train are dropped.
public struct DefaultTracker: TrackingAlgorithm {
    /// The tuning constants, named after their role.
    public struct Parameters: Hashable, Sendable {
        /// Nats a hypothesis must gain on the leader to take over.
        public var switchCost = 14.0
        /// ... along a through-service link from the leader's railway.
        public var throughServiceSwitchCost = 4.0
        /// How close to the end of a line the cheaper through-service switch applies.
        public var throughServiceReach: Meters = 1_500
        /// ... as a stop long enough to change trains ends.
        public var changeOfTrainsSwitchCost = 4.0
        /// A stop at least this long may be a change of trains.
        public var changeOfTrainsStop: Seconds = 90
        /// After the rider walks away from a train, how much less likely boarding the same
        /// line in the same direction again is than any other line.
        public var walkedAwayPenalty = 3.0
        /// ... and boarding it back the other way, as a share of that.
        public var walkedBackShare = 0.5
        /// The most a single fix's distance can cost, in nats.
        public var positionCap = 6.0
        /// Position evidence per second of riding, as a share of an independent measurement:
        /// phone errors are correlated over several seconds, so consecutive fixes say less than
        /// their count suggests.
        public var positionWeight = 0.25
        /// A fix speaks for the seconds since the previous one, up to this many: beyond the
        /// phone's error memory, a sparse fix is one independent measurement, not more.
        public var positionMemory: Seconds = 10
        /// Progress is judged over spans at least this long (1 Hz fixes a span apart, a sparse
        /// phone's fixes one by one), so a phone says the same per second whatever its rate.
        public var progressSpan: Seconds = 10
        /// Nats per sigma of backward progress beyond the first, over one span ...
        public var progressWeight = 1.0
        /// ... at most this much per span.
        public var progressCap = 4.0
        /// A station crossed between two fixes this far apart or more may have been stopped at
        /// unseen, unless the train covered the distance too fast for a stop: a stop costs at
        /// least `unseenStopTime` over running through at `fastRun`.
        public var unseenStopTime: Seconds = 20
        /// ... the fastest a train runs between stations.
        public var fastRun: MetersPerSecond = 30
        /// ... and only when the fixes either side are this far from the station: a fix at the
        /// platform may be in the middle of a stop the next fix does not show.
        public var passClearance: Meters = 200
        /// A silence counts only when it is this many times longer than the phone's usual wait
        /// between fixes (a background phone's minute between fixes is not a tunnel).
        public var silenceOverCadence = 4.0
        /// Added (in quadrature) to the reported accuracy when looking for lines within reach:
        /// the drawn track's own error.
        public var trackUncertainty: Meters = 10
        /// How far to one side of its drawn track a line's trains may run (one sigma of
        /// `LateralOffset`): maps draw a corridor's lines metres to tens of metres off.
        public var mapOffsetSpread: Meters = 20
        /// Over how much travel that offset changes.
        public var mapOffsetLength: Meters = 3_000
        /// How much of an independent measurement one second of fixes is to the offset's
        /// estimate: slow learning keeps an exact map's evidence, fast learning forgives a poor map.
        public var mapOffsetLearning = 0.02
        /// Stopping where a line has no station.
        public var strayStopCost = 4.0
        /// A pattern's probability of an event it does not explain.
        public var patternMismatch = 0.03
        /// Without a timetable, the chance a train passes a station of its line.
        public var untimedPassProbability = 0.25
        /// Course agreement weight (nats at 90°).
        public var courseWeight = 1.5
        /// Weight of the timetable prior in the ranking (busier lines win ties).
        public var priorWeight = 0.01
        /// A stop counts when it lasts this long.
        public var minimumStop: Seconds = 8
        /// A stop belongs to a station within this distance.
        public var stationReach: Meters = 250
        /// Fixes older than this make the answer estimated.
        public var staleAfter: Seconds = 3
        /// A departure is on time this many seconds either side of its published time.
        public var onTimeDepartures: ClosedRange<Seconds> = -20...70
        /// The share of departures on time.
        public var onTimeShare = 0.8
        /// How late a late train is on average.
        public var meanLateDelay: Seconds = 240
        /// How much a train's delay typically changes from one station to the next.
        public var delayChangeScale: Seconds = 20
        /// The chance a train is off its timetable altogether (or runs a trip the file lacks).
        public var offTimetableShare = 0.05
        /// How likely a followed train leaves a station it does not call at, against a random time.
        public var missedCallDensity = 0.02
        /// A gap in the fixes longer than this is evidence of a tunnel ...
        public var silentGap: Seconds = 30
        /// ... costing a line this much per minute its train would have spent above ground,
        public var silentSurfaceCost = 1.0
        /// ... at most this much.
        public var silentSurfaceCap = 4.0
        /// A fix at least this accurate was taken under the sky.
        public var skyAccuracy: Meters = 50
        /// How far inside a tunnel a track must be for such a fix to count against it (the
        /// drawn portals are approximate).
        public var portalMargin: Meters = 150
        /// What a fix under the sky costs a line deep in a tunnel there, before the speed weighting.
        public var tunnelCost = 4.0
        /// Weight of the traffic prior (log of the trains running the stretch the train is on).
        public var trafficPriorWeight = 0.3
        /// A stop ending after a gap in the fixes longer than this left at an unknown time.
        public var departureGap: Seconds = 10
        /// The most one departure time can say, in nats.
        public var departureEvidenceCap = 4.5

        /// Whether the line shown first is kept while the rider stands still (or walks): a new
        /// line is taken only once a train moves on it.
        public var holdsLineWhileStanding = true

        /// The defaults.
        public init() {}
    }

    /// The prepared network and timetable.
    public let model: TrackerModel
    /// The constants.
    public let parameters: Parameters

    /// Live hypotheses, and where each (railway, direction) key sits among them (-1: none).
    private var hypotheses: [Hypothesis] = []
    private var slots: [Int32]
    /// Railways within reach of the latest fix, with distance, along-track position, course,
    /// and whether the track there runs deep in a tunnel while the fix saw the sky.
    private var near: [(railway: Int, distance: Meters, lateral: Meters, along: Meters, course: Degrees, underground: Bool)] = []
    private var nearSlot: [Int32]
    private var motion = MotionState()
    private var nearestEdges: [Int32]
    private var lastFix: Location?
    private var lastSpeed: MetersPerSecond = 0
    /// The phone's usual wait between fixes (a running geometric mean), in seconds.
    private var cadence: Seconds = 1
    private var intervals = 0
    private var leaderLine: LineDirection?
    /// The line the last answer named first: kept first while the rider stands still.
    private var shownLine: LineDirection?
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
    }

    /// Takes the next fix and returns the ranked answer.
    ///
    /// - Complexity: O(R log V) for the railways within reach, plus O(H · S) for the
    ///   hypotheses' station bookkeeping.
    public mutating func process(_ location: Location) -> TrackingResult {
        if explains {
            for index in hypotheses.indices {
                hypotheses[index].evidence = Array(repeating: 0, count: EvidenceTerm.allCases.count)
            }
        }
        let dt = lastFix.map { max(0.1, location.timestamp.seconds(since: $0.timestamp)) } ?? 1
        // A silence is a gap much longer than the phone's usual wait (judged before this gap counts).
        let silent = max(parameters.silentGap, parameters.silenceOverCadence * cadence)
        if lastFix != nil {
            // The mean of the logarithms over the first ten waits, then a running one.
            intervals += 1
            let weight = max(0.1, 1 / Double(intervals))
            cadence = Double.exp((1 - weight) * Double.log(cadence) + weight * Double.log(min(dt, 300)))
        }
        let wasWalking = motion.isWalking
        let change = motion.update(location)
        let stopped = motion.isStopped
        if motion.isWalking, !wasWalking { leaveTrain() }
        var speed = location.speed ?? 0
        if let last = lastFix, location.speed == nil {
            speed = last.coordinate.distance(to: location.coordinate) / dt
            if (location.horizontalAccuracy ?? 30) > 50 { speed = lastSpeed }
        }
        if stopped { speed = 0 } else if speed < 0.5, lastSpeed > 3 { speed = lastSpeed }  // a lone 0.0 while moving
        lastSpeed = speed
        let accuracy = min(max(location.horizontalAccuracy ?? 30, 5), 3_000)
        let sigma = (accuracy * accuracy + parameters.trackUncertainty * parameters.trackUncertainty).squareRoot()
        // Beyond about seven sigma the position cost is capped anyway: no need to look farther.
        let radius = min(max(8 * sigma, 150), 1_500)
        let projection = LocalProjection(origin: location.coordinate)

        // Railways within reach.
        for item in near { nearSlot[item.railway] = -1 }
        near.removeAll(keepingCapacity: true)
        let polylines = model.network.trackPolylines
        // The grid lists the railways within its margin; a wider reach asks every railway.
        let asked: [Int32] =
            radius <= RailwayGrid.margin
            ? model.grid.railways(near: location.coordinate) : (0..<Int32(polylines.count)).map { $0 }
        for railway in asked {
            let index = Int(railway)
            let polyline = polylines[index]
            let hint = nearestEdges[index] >= 0 ? Int(nearestEdges[index]) : nil
            guard let nearest = polyline.nearestEdge(from: projection, within: radius, hint: hint) else {
                nearestEdges[index] = -1
                continue
            }
            nearestEdges[index] = Int32(nearest.edge)
            let place = polyline.alongAndCourse(
                edge: nearest.edge, fraction: nearest.fraction, projection: projection, distance: nearest.distance)
            nearSlot[index] = Int32(near.count)
            // A good fix comes from above ground: deep in a tunnel, this line cannot be it.
            let underground =
                parameters.tunnelCost > 0 && accuracy <= parameters.skyAccuracy
                && model.tunnelDepth(railway: index, along: place.along) > parameters.portalMargin
            near.append((index, place.distance, place.lateral, place.along, place.course, underground))
        }

        // Every railway within reach is a hypothesis in both directions.
        var leaderScore = hypotheses.isEmpty ? 0 : -Double.infinity
        for hypothesis in hypotheses { leaderScore = max(leaderScore, hypothesis.score) }
        for item in near {
            for direction in TravelDirection.allCases {
                let line = LineDirection(railway: item.railway, direction: direction)
                guard slots[line: line] < 0 else { continue }
                slots[line: line] = Int32(hypotheses.count)
                hypotheses.append(
                    Hypothesis(
                        line: line, score: leaderScore - parameters.switchCost,
                        offset: LateralOffset(spread: parameters.mapOffsetSpread), patternWeights: model.patternPriors[line: line],
                        stopChance: model.initialStopChance[line: line],
                        walk: TrackWalk(railway: model.network.railways[item.railway], direction: direction)))
                if explains { hypotheses[hypotheses.count - 1].evidence = Array(repeating: 0, count: EvidenceTerm.allCases.count) }
            }
        }

        // Viterbi step: any hypothesis may take over from the leader at a cost.
        let leaderRailway = leaderLine?.railway
        // Evidence per second of riding: a fix speaks for the seconds since the previous one.
        let span = lastFix == nil ? 1 : min(dt, parameters.positionMemory)
        let moved = parameters.positionWeight * span * (stopped ? 0.1 : min(1, max(0.15, speed / 8)))
        // How much of each line's map offset carries over the distance travelled since the last fix.
        let offsetKeep = stopped ? 1 : Double.exp(-speed * dt / max(parameters.mapOffsetLength, 1))
        var list = hypotheses  // taken out, so that updating them copies nothing
        hypotheses = []
        for index in list.indices {
            let railway = list[index].line.railway
            // Through service changes railway where one line ends: near a terminal of either.
            let linked = leaderRailway.map { model.throughService[$0].contains(railway) } == true
            let atBoundary =
                linked
                && [railway, leaderRailway ?? railway].contains { line in
                    model.terminals[line].contains { projection.distance(to: $0) <= parameters.throughServiceReach }
                }
            var cost = atBoundary ? parameters.throughServiceSwitchCost : parameters.switchCost
            // A long stop is where riders change trains: the next train starts nearly afresh.
            if case .ended(let duration) = change, duration >= parameters.changeOfTrainsStop {
                cost = min(cost, parameters.changeOfTrainsSwitchCost)
            }
            list[index].charge(.switching, max(0, leaderScore - cost - list[index].score))
            if nearSlot[railway] >= 0 {
                let place = near[Int(nearSlot[railway])]
                list[index].missed = 0
                // Huber: quadratic near the track, linear beyond one sigma, so that a stretch of
                // correlated error does not swing the evidence between two close tracks.
                // Against where this line's trains run, as its fixes have shown: the drawn track
                // plus a slowly changing offset to one side.
                list[index].offset.relax(keeping: offsetKeep, spread: parameters.mapOffsetSpread)
                let (residual, spread) = list[index].offset.residual(place.lateral, sigma: accuracy)
                let z = abs(residual) / spread
                list[index].charge(
                    .position, -min(moved * min(z <= 1 ? 0.5 * z * z : z - 0.5, parameters.positionCap), parameters.positionCap))
                if z <= 3 {
                    list[index].offset.update(place.lateral, sigma: accuracy, weight: min(1, parameters.mapOffsetLearning * span))
                }
                if place.underground { list[index].charge(.tunnel, -moved * parameters.tunnelCost) }
                if let course = location.course, speed > 2 {
                    let flip: Degrees = list[index].walk.sign > 0 ? 0 : 180
                    var cosine = Double.cos((course - place.course - flip) * .pi / 180)
                    // Near a vertex the fix may belong to either edge (drawn tracks kink at
                    // junctions and terminals): the better agreement counts.
                    // (A reversal is the other direction's evidence, not a kink.)
                    if cosine < 0.9, cosine > -0.9 {
                        let edge = Int(nearestEdges[railway])
                        for neighbour in [edge - 1, edge + 1] {
                            guard let other = polylines[railway].course(ofEdge: neighbour, projection: projection) else {
                                continue
                            }
                            cosine = max(cosine, Double.cos((course - other - flip) * .pi / 180))
                        }
                    }
                    list[index].charge(.course, parameters.courseWeight * (cosine - 1))
                }
                track(
                    &list[index], measured: place.along, distance: abs(residual), sigma: spread, dt: dt, speed: speed,
                    stopped: stopped, silentAfter: silent)
                progress(&list[index], measured: place.along, distance: abs(residual), sigma: spread, at: location.timestamp)
                applyTrafficPrior(&list[index])
            } else {
                list[index].missed += 1
                list[index].charge(.position, -min(moved * parameters.positionCap, parameters.positionCap))
                if let along = list[index].along, !stopped {
                    list[index].along = list[index].walk.advance(along, by: speed * dt)
                }
            }
            stationEvents(
                &list[index], change: change, stopped: stopped, time: location.timestamp,
                travelled: stopped ? 0 : speed * dt * 1.5 + 40, dt: dt)
        }

        // Normalise, forget the far-away.
        var best = list.isEmpty ? 0 : -Double.infinity
        for hypothesis in list { best = max(best, hypothesis.score) }
        list.removeAll { $0.missed > 30 && $0.score - best < -parameters.switchCost - 1 }
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
        let standing = parameters.holdsLineWhileStanding && (stopped || speed < MotionState.walkingSpeeds.upperBound)
        let (result, shown) = answer(at: location.timestamp, speed: speed, estimated: false, held: standing ? shownLine : nil)
        shownLine = shown
        leaderLine = hypotheses.max { $0.score < $1.score }?.line
        return result
    }

    /// The rider walked away from the train: whatever train comes next starts afresh. Every
    /// line nearby is equally likely again, less the one just left (and, half as much, the
    /// same line back the other way), by how sure the tracker was of it; what the old train's
    /// stops said about its service pattern no longer applies.
    private mutating func leaveTrain() {
        let total = hypotheses.reduce(0.0) { $0 + Double.exp($1.score) }
        let shares = hypotheses.map { total > 0 ? Double.exp($0.score) / total : 0 }
        for index in hypotheses.indices {
            var hypothesis = hypotheses[index]
            let reverse = slots[line: hypothesis.line.reversed]
            let left = shares[index] + (reverse >= 0 ? parameters.walkedBackShare * shares[Int(reverse)] : 0)
            hypothesis.charge(.leaving, -parameters.walkedAwayPenalty * left + hypothesis.trafficPrior - hypothesis.score)
            hypothesis.patternWeights = model.patternPriors[line: hypothesis.line]
            hypothesis.stopChance = model.initialStopChance[line: hypothesis.line]
            hypothesis.trainTypeID = nil
            hypothesis.pending = []
            hypothesis.progressAnchor = nil
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
        guard elapsed > parameters.staleAfter else { return answer(at: time, speed: lastSpeed, estimated: false, held: held).result }
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

    // MARK: Along-track position

    private func track(
        _ hypothesis: inout Hypothesis, measured: Meters, distance: Meters, sigma: Meters, dt: Seconds, speed: MetersPerSecond,
        stopped: Bool, silentAfter: Seconds
    ) {
        let placing = Self.placesTheTrain(distance: distance, sigma: sigma)
        guard let along = hypothesis.along else {
            // A position is taken only from a fix good enough to place the train.
            if placing {
                hypothesis.along = measured
                hypothesis.previousAlong = measured
                // Placed on this line only after a silence: its train came from somewhere, at about
                // the speed it has now (at least 5 m/s, as it may be braking).
                if dt > silentAfter {
                    silence(&hypothesis, from: hypothesis.walk.advance(measured, by: -max(speed, 5) * dt), to: measured, dt: dt)
                }
            }
            return
        }
        let predicted = stopped ? along : hypothesis.walk.advance(along, by: speed * dt)
        let innovation = hypothesis.walk.distanceAhead(from: predicted, to: measured)
        let signedInnovation =
            hypothesis.walk.isLoop && innovation > hypothesis.walk.length / 2
            ? innovation - hypothesis.walk.length : innovation
        // A far-off or inaccurate fix does not move the train; a long gap re-anchors it.
        if dt > 10 || abs(signedInnovation) > 2_000 {
            // No fix for a long while: likely in a tunnel. A line that ran above ground all the
            // way from where the train was to where it is now would have given fixes.
            if dt > silentAfter, placing {
                silence(&hypothesis, from: along, to: measured, dt: dt)
            }
            hypothesis.along = measured
        } else if placing {
            let gain = stopped ? 0.2 : 0.6
            hypothesis.along = hypothesis.walk.advance(predicted, by: gain * signedInnovation)
        } else {
            hypothesis.along = predicted
        }
    }

    /// Whether a fix `distance` from where the line's trains run, with error `sigma`, is good
    /// enough to place the train: near this track, and not wildly inaccurate.
    private static func placesTheTrain(distance: Meters, sigma: Meters) -> Bool {
        distance <= max(3 * sigma, 60) && sigma <= 150
    }

    /// Progress against the direction of travel counts against it: judged between fixes that
    /// place the train at least `progressSpan` apart, in sigmas of the two fixes' errors.
    private func progress(_ hypothesis: inout Hypothesis, measured: Meters, distance: Meters, sigma: Meters, at time: Timestamp) {
        guard Self.placesTheTrain(distance: distance, sigma: sigma) else { return }
        guard let anchor = hypothesis.progressAnchor else {
            hypothesis.progressAnchor = (time, measured, sigma)
            return
        }
        guard time.seconds(since: anchor.time) >= parameters.progressSpan else { return }
        var progress = hypothesis.walk.distanceAhead(from: anchor.along, to: measured)
        if hypothesis.walk.isLoop, progress > hypothesis.walk.length / 2 { progress -= hypothesis.walk.length }
        let spread = (sigma * sigma + anchor.sigma * anchor.sigma).squareRoot()
        let backward = -progress / spread
        hypothesis.charge(.progress, -parameters.progressWeight * min(max(backward - 1, 0), parameters.progressCap))
        hypothesis.progressAnchor = (time, measured, sigma)
    }

    /// A silence of `dt` seconds while the train went from `start` to `end`: a line whose
    /// train ran above ground there would have given fixes. A line the train only just came
    /// onto (no position before the silence) is judged over the stretch behind, as far as its
    /// train would have run in the time.
    private func silence(_ hypothesis: inout Hypothesis, from start: Meters, to end: Meters, dt: Seconds) {
        let walk = hypothesis.walk
        let path = walk.distanceAhead(from: start, to: end)
        guard path > 0, !walk.isLoop || path < walk.length else { return }
        let (low, high) = walk.sign > 0 ? (start, end) : (end, start)
        // Beyond the end of the line the train was at its terminal: above ground or not, as the track there.
        let (from, to) = (max(low, 0), min(high, walk.length))
        let underground = from <= to ? model.undergroundLength(railway: hypothesis.line.railway, from: from, to: to) : 0
        let surfaceMinutes = dt / 60 * max(0, 1 - underground / max(to - from, 1))
        hypothesis.charge(.silence, -min(parameters.silentSurfaceCap, parameters.silentSurfaceCost * surfaceMinutes))
    }

    /// The prior of being on this line here: how many of its trains run the stretch between
    /// the stations either side (a through-service stretch few trains run, a branch of short
    /// workings), kept in the score as it changes along the line.
    private func applyTrafficPrior(_ hypothesis: inout Hypothesis) {
        guard model.hasTimetable, parameters.trafficPriorWeight > 0, let along = hypothesis.along else { return }
        // Still between the same two stations: nothing changes.
        if hypothesis.trafficStretch.contains(along) { return }
        let railway = hypothesis.line.railway
        let order = model.stationOrder[railway]
        guard order.count >= 2 else { return }
        var segment = order.partitioningIndex { $0.position > along } - 1
        if segment >= 0, segment < order.count - 1 {
            hypothesis.trafficStretch = order[segment].position..<order[segment + 1].position
        } else {
            segment = model.network.isLoop[railway] ? order.count - 1 : min(max(segment, 0), order.count - 2)
            hypothesis.trafficStretch = 0..<0
        }
        let term = parameters.trafficPriorWeight * model.segmentTraffic[line: hypothesis.line][segment]
        hypothesis.charge(.traffic, term - hypothesis.trafficPrior)
        hypothesis.trafficPrior = term
    }

    // MARK: Stops and station passes

    /// Stations crossed, stops made and departures seen. A stop that ends after a gap in the
    /// fixes (a tunnel) is judged where the train stood, its departure time is unknown, and
    /// the stations crossed in the gap say nothing.
    private func stationEvents(
        _ hypothesis: inout Hypothesis, change: MotionState.Change?, stopped: Bool, time: Timestamp, travelled: Meters,
        dt: Seconds
    ) {
        guard let along = hypothesis.along else { return }
        let afterGap = dt > parameters.departureGap
        let railway = hypothesis.line.railway
        // Stations crossed since the last fix wait until the train is well past them.
        // (Lists are read in place, only where needed: this runs per hypothesis per fix.)
        if let previous = hypothesis.previousAlong {
            let step = hypothesis.walk.distanceAhead(from: previous, to: along)
            // Only the train's own progress crosses stations, not a correction of its position;
            // stations crossed during a gap in the fixes were stopped at or passed, unseen,
            // unless the train ran too fast for a stop.
            let unseenStop = afterGap && dt - step / parameters.fastRun >= parameters.unseenStopTime
            if step > 0, step <= travelled, !unseenStop {
                let end = hypothesis.walk.advance(previous, by: step)
                let (low, high) = hypothesis.walk.sign > 0 ? (previous, end) : (end, previous)
                let order = model.stationOrder[railway]
                // Positions in (low, high], wrapping once on a loop.
                let wraps = high < low
                for part in 0..<(wraps ? 2 : 1) {
                    let (from, to) = !wraps ? (low, high) : part == 0 ? (low, hypothesis.walk.length) : (-1, high)
                    var index = order.partitioningIndex { $0.position > from }
                    while index < order.count, order[index].position <= to {
                        let station = order[index].station
                        let position = order[index].position
                        index += 1
                        // Between sparse fixes, a pass shows only with both fixes clear of the station.
                        if afterGap,
                            hypothesis.walk.separation(position, previous) < parameters.passClearance
                                || hypothesis.walk.separation(position, end) < parameters.passClearance
                        {
                            continue
                        }
                        if !hypothesis.pending.contains(where: { $0.station == station }) {
                            hypothesis.pending.append((station, position))
                        }
                    }
                }
            }
        }
        hypothesis.previousAlong = along
        switch change {
        case .started:
            hypothesis.stopPosition = along
        case .ended(let duration):
            // Where it stood: the position at the end of the stop, settled by the fixes of the
            // dwell; after a gap, the last place seen standing.
            if duration >= parameters.minimumStop, let standing = hypothesis.stopPosition {
                let at = afterGap ? standing : along
                hypothesis.stops.append(at)
                if hypothesis.stops.count > 6 { hypothesis.stops.removeFirst() }
                let positions = model.network.stationAlongTrack[railway]
                let nearest = positions.enumerated().min {
                    hypothesis.walk.separation($0.element, at) < hypothesis.walk.separation($1.element, at)
                }
                if let nearest, hypothesis.walk.separation(nearest.element, at) <= parameters.stationReach {
                    if !hypothesis.pending.contains(where: { $0.station == nearest.offset }) {
                        event(&hypothesis, station: nearest.offset, stopped: true)
                    }
                    if !afterGap { departureEvidence(&hypothesis, station: nearest.offset, at: time) }
                } else {
                    hypothesis.charge(.stops, -parameters.strayStopCost)
                }
            }
            hypothesis.stopPosition = nil
        case nil:
            // Where it stands, as the fixes of the stop settle it (the rider's last place, when
            // a walk to the platform ends the stop: not where the walk began).
            if stopped, hypothesis.stopPosition != nil { hypothesis.stopPosition = along }
        }
        // Resolve stations the train has left behind.
        let walk = hypothesis.walk
        let leftBehind = { (position: Meters) in
            let behind = walk.distanceAhead(from: position, to: along)
            return behind > 300 && !(walk.isLoop && behind > walk.length / 2)
        }
        guard hypothesis.pending.contains(where: { leftBehind($0.position) }) else { return }
        var remaining: [(station: Int, position: Meters)] = []
        for item in hypothesis.pending {
            guard leftBehind(item.position) else {
                remaining.append(item)
                continue
            }
            let stopped = hypothesis.stops.contains { walk.separation($0, item.position) <= parameters.stationReach }
            event(&hypothesis, station: item.station, stopped: stopped)
        }
        hypothesis.pending = remaining
    }

    /// Evidence from stopping at, or passing, station `station`: the likelihood under the
    /// hypothesis's service patterns, which are re-weighted by it.
    private func event(_ hypothesis: inout Hypothesis, station: Int, stopped: Bool) {
        let patterns = model.patterns[line: hypothesis.line]
        let mismatch = model.hasTimetable ? parameters.patternMismatch : parameters.untimedPassProbability
        var total = -Double.infinity
        for (index, pattern) in patterns.enumerated() {
            let stops = station < pattern.stops.count && pattern.stops[station]
            let probability: Double
            if station < pattern.runs.count, !pattern.runs[station] {
                // Its trains do not run here at all.
                probability = parameters.patternMismatch
            } else if stopped {
                probability = stops ? 1 - parameters.patternMismatch : parameters.patternMismatch
            } else {
                probability = stops ? mismatch : 1 - parameters.patternMismatch
            }
            hypothesis.patternWeights[index] += Double.log(probability)
            total = Self.logSumExp(total, hypothesis.patternWeights[index])
        }
        // The hypothesis gains the mixture's likelihood; the weights (a log posterior) are renormalised.
        hypothesis.charge(.stops, total)
        for index in hypothesis.patternWeights.indices { hypothesis.patternWeights[index] -= total }
        hypothesis.stopChance = model.stopChance(line: hypothesis.line, weights: hypothesis.patternWeights)
        hypothesis.trainTypeID = model.trainType(line: hypothesis.line, weights: hypothesis.patternWeights)
    }

    /// Evidence from the time a train leaves a station, by following the line's scheduled
    /// trains. At the first departure every train of the day leaving here from 30 minutes
    /// ago to 2 minutes ahead is a candidate, weighted by how likely its delay is (on time
    /// most of the time, sometimes late, rarely early); at each later departure a candidate
    /// is weighted by how much its delay changed (trains keep their delay from station to
    /// station), and one that does not leave from here fades. A pattern's likelihood is its
    /// candidates' (each of its trains equally likely a priori, so a match with the one
    /// limited express of the hour says more than one with a busy local line), mixed with a
    /// small chance that the train is off its timetable. The hypothesis gains the patterns'
    /// mixture against a departure at a random time of the window.
    private func departureEvidence(_ hypothesis: inout Hypothesis, station: Int, at time: Timestamp) {
        guard model.hasTimetable else { return }
        let local = time.secondsSince1970 + model.utcOffset
        let trips = model.trips[line: hypothesis.line]
        let patternCount = hypothesis.patternWeights.count
        var likelihood = Array(repeating: 0.0, count: patternCount)
        let window = Self.candidateWindow
        if hypothesis.trips.isEmpty {
            // The first departure: which of the day's trains leave here about now?
            let day = CivilDay(time, utcOffset: model.utcOffset)
            let midnight = Double(day.daysSince1970) * 86_400
            let running = (today: model.servicesRunning(on: day), yesterday: model.servicesRunning(on: day.adding(-1)))
            var count = Array(repeating: 0, count: patternCount)
            let scheduled = model.departures[line: hypothesis.line][station]
            for previousDay in [false, true] {
                let origin = previousDay ? midnight - 86_400 : midnight
                let clock = local - origin
                var index = scheduled.partitioningIndex { $0.time >= clock - Self.latestDelay }
                while index < scheduled.count, scheduled[index].time <= clock - Self.earliestDelay {
                    let item = scheduled[index]
                    index += 1
                    let trip = trips[Int(item.trip)]
                    guard (previousDay ? running.yesterday : running.today)[Int(trip.service)] else { continue }
                    let pattern = Int(trip.pattern)
                    guard pattern < patternCount else { continue }
                    let delay = clock - item.time
                    let density = delayDensity(delay)
                    count[pattern] += 1
                    likelihood[pattern] += density
                    hypothesis.trips.append(
                        TripCandidate(trip: item.trip, logWeight: Double.log(density), delay: delay, origin: origin))
                }
            }
            for pattern in 0..<patternCount where count[pattern] > 0 {
                likelihood[pattern] /= Double(count[pattern])
            }
            // Each of a pattern's trains is equally likely before its delay is seen.
            for index in hypothesis.trips.indices {
                let pattern = Int(trips[Int(hypothesis.trips[index].trip)].pattern)
                hypothesis.trips[index].logWeight -= Double.log(Double(count[pattern]))
            }
        } else {
            // A later departure: how much did each candidate's delay change since the last?
            var mass = Array(repeating: 0.0, count: patternCount)
            let top = hypothesis.trips.reduce(-Double.infinity) { max($0, $1.logWeight) }
            for index in hypothesis.trips.indices {
                let candidate = hypothesis.trips[index]
                let trip = trips[Int(candidate.trip)]
                let pattern = Int(trip.pattern)
                let weight = Double.exp(candidate.logWeight - top)
                var density = parameters.missedCallDensity / window
                if let scheduled = trip.departure(at: station) {
                    let delay = local - candidate.origin - scheduled
                    density = delayChangeDensity(delay - candidate.delay)
                    hypothesis.trips[index].delay = delay
                }
                mass[pattern] += weight
                likelihood[pattern] += weight * density
                hypothesis.trips[index].logWeight += Double.log(density) - top
            }
            for pattern in 0..<patternCount where mass[pattern] > 0 { likelihood[pattern] /= mass[pattern] }
        }
        // Forget the candidates that no longer count.
        let best = hypothesis.trips.reduce(-Double.infinity) { max($0, $1.logWeight) }
        hypothesis.trips.removeAll { $0.logWeight < best - 12 }
        if hypothesis.trips.count > Self.maximumTrips {
            hypothesis.trips.sort { $0.logWeight > $1.logWeight }
            hypothesis.trips.removeLast(hypothesis.trips.count - Self.maximumTrips)
        }
        var total = -Double.infinity
        let offTimetable = parameters.offTimetableShare / window
        for pattern in 0..<patternCount {
            let mixed = (1 - parameters.offTimetableShare) * likelihood[pattern] + offTimetable
            hypothesis.patternWeights[pattern] += Double.log(mixed)
            total = Self.logSumExp(total, hypothesis.patternWeights[pattern])
        }
        // Against a departure at a random time of the window.
        let evidence = total + Double.log(window)
        hypothesis.charge(.departures, min(parameters.departureEvidenceCap, max(-parameters.departureEvidenceCap, evidence)))
        for pattern in hypothesis.patternWeights.indices { hypothesis.patternWeights[pattern] -= total }
        hypothesis.stopChance = model.stopChance(line: hypothesis.line, weights: hypothesis.patternWeights)
        hypothesis.trainTypeID = model.trainType(line: hypothesis.line, weights: hypothesis.patternWeights)
    }

    /// Candidates for the first departure: trains due from 30 minutes ago to 2 minutes ahead.
    private static let latestDelay: Seconds = 1_800
    private static let earliestDelay: Seconds = -120
    private static let candidateWindow = latestDelay - earliestDelay
    /// The most trains one hypothesis follows.
    private static let maximumTrips = 64
    /// The fastest a train runs, for arrival times: 100 m/s (360 km/h), whatever a phone says.
    private static let fastestTrain: MetersPerSecond = 100

    /// How likely a train leaves `delay` seconds after its published time: on time (the
    /// published minute, give or take the detection), late now and then, early rarely.
    private func delayDensity(_ delay: Seconds) -> Double {
        let onTime = parameters.onTimeDepartures
        var density = parameters.offTimetableShare / Self.candidateWindow
        if onTime.contains(delay) {
            density += parameters.onTimeShare / (onTime.upperBound - onTime.lowerBound)
        }
        if delay > 0 {
            let late = 1 - parameters.onTimeShare - parameters.offTimetableShare
            density += late / parameters.meanLateDelay * Double.exp(-delay / parameters.meanLateDelay)
        }
        return density
    }

    /// How likely a train's delay changes by `change` seconds from one station to the next.
    private func delayChangeDensity(_ change: Seconds) -> Double {
        let scale = parameters.delayChangeScale
        let steady = 1 - parameters.offTimetableShare
        return steady / (2 * scale) * Double.exp(-abs(change) / scale) + parameters.offTimetableShare / 1_200
    }

    private static func logSumExp(_ a: Double, _ b: Double) -> Double {
        if a == -.infinity { return b }
        if b == -.infinity { return a }
        let high = max(a, b)
        return high + Double.log(Double.exp(a - high) + Double.exp(b - high))
    }

    // MARK: The answer

    /// The next station at or ahead of `along` where the hypothesis's train more likely stops than not.
    private func nextStop(of hypothesis: Hypothesis, from along: Meters) -> (station: Int, position: Meters)? {
        let positions = model.network.stationAlongTrack[hypothesis.line.railway]
        var best: (station: Int, position: Meters, ahead: Meters)?
        for (index, position) in positions.enumerated() where hypothesis.stopChance[index] >= 0.5 {
            let here = hypothesis.walk.separation(along, position) <= FocusRule.nowRadius
            let ahead = here ? 0 : hypothesis.walk.distanceAhead(from: along, to: position)
            guard here || ahead > 0 else { continue }
            if best.map({ ahead < $0.ahead }) ?? true { best = (index, position, ahead) }
        }
        return best.map { ($0.station, $0.position) }
    }

    /// The focus by the now/soon/next rule: within 200 m of a station, 500 m before the next.
    /// The same rule as the ground truth; past the last station, the last station is `now`.
    private func focus(of line: LineDirection, walk: TrackWalk, at along: Meters) -> (station: Int, phase: FocusPhase) {
        let focus = FocusRule.focus(positions: model.network.stationAlongTrack[line.railway], walk: walk, at: along)
        return focus.map { ($0.station, $0.phase) } ?? (0, .now)
    }

    /// The ranked answer, `held` first if it is still a placed hypothesis, and the line of the
    /// first candidate.
    private func answer(at time: Timestamp, speed: MetersPerSecond, estimated: Bool, held: LineDirection?) -> (
        result: TrackingResult, bestLine: LineDirection?
    ) {
        // Equal evidence (shared track, no telling stop yet): the busier line first.
        // Fields read in place, by index: copying a hypothesis retains each of its lists.
        let rank = { (index: Int) in
            self.hypotheses[index].score + self.parameters.priorWeight * self.model.logPrior[line: self.hypotheses[index].line]
        }
        var top: [Int] = []
        var normaliser = 0.0
        for index in hypotheses.indices where hypotheses[index].along != nil {
            normaliser += Double.exp(hypotheses[index].score)
            let value = rank(index)
            guard top.count < 8 || value > rank(top[top.count - 1]) else { continue }
            let line = hypotheses[index].line
            let position =
                top.firstIndex { value > rank($0) || (value == rank($0) && line < hypotheses[$0].line) } ?? top.count
            top.insert(index, at: position)
            if top.count > 8 { top.removeLast() }
        }
        if let held, slots[line: held] >= 0, hypotheses[Int(slots[line: held])].along != nil {
            let index = Int(slots[line: held])
            top.removeAll { $0 == index }
            top.insert(index, at: 0)
            if top.count > 8 { top.removeLast() }
        }
        let network = model.network
        var candidates: [TrackingCandidate] = []
        candidates.reserveCapacity(top.count)
        for index in top {
            guard let along = hypotheses[index].along else { continue }
            let line = hypotheses[index].line
            let railwayIndex = line.railway
            // Fields read in place: copying a whole Railway costs a dozen reference counts.
            let isLoop = network.isLoop[railwayIndex]
            let direction = line.direction
            let stationIndices = network.railwayStations[railwayIndex]
            let count = stationIndices.count
            let walk = hypotheses[index].walk
            let focus = focus(of: line, walk: walk, at: along)
            let isBest = index == top.first
            // The stations after the focus, for the best candidate (the others name their focus only).
            var later: [String] = []
            var position = focus.station
            while isBest, later.count < 2 {
                let next = position + (direction == .ascending ? 1 : -1)
                let wrapped = isLoop ? (next + count) % count : next
                guard (0..<count).contains(wrapped), wrapped != focus.station else { break }
                later.append(network.stations[stationIndices[wrapped]].id)
                position = wrapped
            }
            let stop = isBest ? nextStop(of: hypotheses[index], from: along) : nil
            var eta: Timestamp?
            if let stop {
                let distance = max(0, walk.distanceAhead(from: along, to: stop.position))
                let cruise = min(max(speed, 12), Self.fastestTrain)
                eta = time.adding(distance < 30 ? 0 : distance / cruise + cruise / 1.8)
            }
            let terminal = isLoop ? nil : stationIndices[direction == .ascending ? count - 1 : 0]
            candidates.append(
                TrackingCandidate(
                    railwayID: network.railways[railwayIndex].id, direction: direction,
                    directionName: direction == .ascending
                        ? network.railways[railwayIndex].ascendingName : network.railways[railwayIndex].descendingName,
                    destinationStationID: terminal.map { network.stations[$0].id },
                    focusStationID: network.stations[stationIndices[focus.station]].id, phase: focus.phase,
                    laterStationIDs: later,
                    score: hypotheses[index].score, nextStopID: stop.map { network.stations[stationIndices[$0.station]].id },
                    eta: eta,
                    trainTypeID: isBest ? hypotheses[index].trainTypeID : nil,
                    confidence: normaliser > 0 ? Double.exp(hypotheses[index].score) / normaliser : nil))
        }
        return (TrackingResult(candidates: candidates, estimated: estimated), top.first.map { hypotheses[$0].line })
    }
}

/// One (railway, direction) the train may be on.
struct Hypothesis: Sendable {
    /// The railway and direction it stands for.
    let line: LineDirection
    var score: Double
    /// Log posterior of each service pattern, normalised.
    var patternWeights: [Double]
    /// The chance the train stops at each station of the railway, under those patterns.
    var stopChance: [Double]
    /// The train type those patterns point to, if clear.
    var trainTypeID: String?
    let walk: TrackWalk
    /// How far to one side of the drawn track its train runs.
    var offset: LateralOffset
    var along: Meters?
    var previousAlong: Meters?
    var missed = 0
    var pending: [(station: Int, position: Meters)] = []
    var stops: [Meters] = []
    var stopPosition: Meters?
    /// The last fix that judged progress: when, where it placed the train, and its sigma.
    var progressAnchor: (time: Timestamp, along: Meters, sigma: Meters)?
    /// The scheduled trains it may be, once it has left a station.
    var trips: [TripCandidate] = []
    /// The traffic prior now in its score.
    var trafficPrior = 0.0
    /// What each kind of evidence added at the latest fix, when the tracker explains.
    var evidence: [Double]?
    /// The stretch between two stations that prior belongs to.
    var trafficStretch: Range<Meters> = 0..<0

    init(
        line: LineDirection, score: Double, offset: LateralOffset, patternWeights: [Double], stopChance: [Double], walk: TrackWalk
    ) {
        self.line = line
        self.score = score
        self.offset = offset
        self.patternWeights = patternWeights
        self.stopChance = stopChance
        self.walk = walk
    }
}

/// A scheduled train a hypothesis may be: its weight and its delay at the last departure.
struct TripCandidate: Sendable {
    /// An index into the line's `TrackerModel.trips`.
    var trip: Int32
    /// Log weight (relative).
    var logWeight: Double
    /// Seconds it left the last station after its published time.
    var delay: Seconds
    /// Its service day's midnight, in seconds of the timetable's clock since 1970.
    var origin: Seconds
}

extension Polyline {
    /// The along-track position of the point `fraction` along edge `edge` (as the nearest-edge
    /// search found it) and the course of that edge.
    func alongAndCourse(edge: Int, fraction: Double, projection: LocalProjection, distance: Meters) -> (
        distance: Meters, lateral: Meters, along: Meters, course: Degrees
    ) {
        let lengths = cumulativeLengths
        let coordinates = self.coordinates
        guard edge >= 0, edge + 1 < coordinates.count else { return (distance, distance, lengths.last ?? 0, 0) }
        let start = projection.vector(to: coordinates[edge])
        let direction = projection.vector(to: coordinates[edge + 1]) - start
        // The fix (the projection's origin) lies left of the edge when the cross product is positive.
        let cross = direction.north * start.east - direction.east * start.north
        let along = lengths[edge] + (lengths[edge + 1] - lengths[edge]) * fraction
        return (distance, cross >= 0 ? distance : -distance, along, direction.course)
    }

    /// The course of edge `edge` (from vertex `edge` to the next), if there is such an edge.
    func course(ofEdge edge: Int, projection: LocalProjection) -> Degrees? {
        let coordinates = self.coordinates
        guard edge >= 0, edge + 1 < coordinates.count else { return nil }
        return (projection.vector(to: coordinates[edge + 1]) - projection.vector(to: coordinates[edge])).course
    }
}
