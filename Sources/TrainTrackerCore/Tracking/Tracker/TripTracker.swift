import RealModule

/// The default tracker (`--algorithm default`): the railway tracker (`RailwayTracker`) with
/// the trip model (`TripFollower`) over it. Where the day's timetable is known, the rider is on
/// one scheduled trip whose delay drifts, and the answer's railway, direction, train, delay,
/// next stop and arrival are that trip's; where no trip explains the fixes (no timetable, a
/// train the timetable lacks), the railway tracker's answer stands. The model's belief over
/// trips also takes what the railway tracker reads of each trip's line, its stops, course and
/// place (`TripFollower.lineFactors`), and what an operator's feed reports of each trip
/// (`TripFollower.weighFeed`): one belief, not two trackers' answers side by side.
///
///     var tracker = TripTracker(model: model)
///     let answer = tracker.process(fix)     // answer.best?.train: "108", delaySeconds 720
public struct TripTracker: LiveInformed {
    /// The railway tracker: stations, focus, geometry, and the answer without a trip.
    public private(set) var inner: RailwayTracker
    private var follower: TripFollower
    /// The follower's belief after the last fix it weighed (read at every fix, changed only
    /// when a fix is weighed: worked out then, not at each of the fixes between).
    private var belief: TripFollower.Belief?
    /// When the trip model last weighed a fix.
    private var lastWeighed: Timestamp?
    /// The arrivals last predicted (`arrivals(of:key:progress:at:)`): for which trip, after
    /// which weighed fix, and the progress along the trip of the first arrival's call.
    private var predicted:
        (
            key: TripFollower.Key, weighed: Timestamp?, firstCall: Meters?, arrivals: [PredictedArrival],
            delay: DelayPercentiles?
        )?
    /// How far apart the fixes come: every fix's gap from the one before, smoothed.
    private var cadence = FixCadence()
    /// How far from a line's track a fix may lie and still be on one of its trips.
    /// Set by hand on 2026-11-27; the reason for 500 m is not recorded.
    static let reach: Meters = 500
    /// The trip's line answers once its trips hold at least this share of the belief ...
    /// Set by hand on 2026-11-27: a majority of the belief.
    static let leadingShare = 0.5
    /// The trip model weighs a fix at most this often; the fixes between are answered from
    /// its belief at the last one weighed, at their own place. Fixes a second apart are not
    /// independent evidence (`TripFollower.independentAfter`): weighed each as a whole fix, on
    /// Tokyo's parallel corridors the model swung between the lines' trips (railway 81.6 % on
    /// a fresh seed's 1 Hz rides, now 92.8 %; docs/experiments/2026-11-28-phones-as-they-are.md); weighed
    /// each at a twentieth, as right at 285-390 µs a fix on Tokyo's bench rides, against 45-58.
    static let weighingInterval = TripFollower.independentAfter

    /// A tracker with no history, with the trip model's constants `trips`.
    public init(model: TrackerModel, parameters: RailwayTracker.Parameters = .init(), trips: TripModelParameters = .init()) {
        inner = RailwayTracker(model: model, parameters: parameters)
        follower = TripFollower(parameters: trips)
    }

    /// The latest GTFS-realtime feed (`RailwayTracker.live`): it informs the default answer,
    /// which stands where no trip explains the fixes, and the trip model weighs each trip it
    /// reports by its report (`TripFollower.weighFeed`).
    public var live: LiveTrips? {
        get { inner.live }
        set { inner.live = newValue }
    }

    /// Whether the railway tracker keeps its evidence for `explanation(limit:)`.
    public var explains: Bool {
        get { inner.explains }
        set { inner.explains = newValue }
    }

    /// The railway tracker's hypotheses and their evidence (`RailwayTracker.explanation`).
    public func explanation(limit: Int = 8) -> [EvidenceExplanation] { inner.explanation(limit: limit) }

    /// The answer at `time` without a new fix: the railway tracker's (`RailwayTracker.estimate`)
    /// with the believed trip's line first, named by its trip, where its timetable at its
    /// likeliest delay puts the train now (through a tunnel or a phone's silence the rider is
    /// carried along by the timetable, and is told the same train as at the last fix).
    public mutating func estimate(at time: Timestamp) -> TrackingResult {
        var result = inner.estimate(at: time)
        guard inner.model.hasTimetable, let belief, belief.lineShare >= Self.leadingShare,
            belief.offTimetable < belief.lineShare, let timeline = follower.timeline(of: belief.key),
            let place = timeline.place(at: time.secondsSince1970 - belief.key.origin - belief.delay)
        else { return result }
        var along = timeline.walk.advance(timeline.start, by: place.progress)
        if !timeline.walk.isLoop { along = min(max(along, 0), timeline.walk.length) }
        answer(&result, belief: belief, along: along, at: time, refocus: true)
        return result
    }

    /// Takes the next fix and returns the ranked answer.
    public mutating func process(_ reported: Location) -> TrackingResult {
        // A standing phone's claim to move that where it lies does not bear out is noise to the
        // trip model as to the railway tracker (`MotionState.borneOut`; the same reading, made
        // before the railway tracker's motion takes the fix).
        let location = inner.motion.borneOut(reported)
        let wasWalking = inner.motion.isWalking
        var result = inner.process(location)
        let model = inner.model
        guard model.hasTimetable, !result.estimated else { return result }
        if inner.motion.isWalking, !wasWalking {
            // The rider walked off the train: until the next fix weighed boards afresh, the
            // railway tracker's answer stands.
            follower.leaveTrain(at: location.coordinate, leaving: inner.parameters.leaving)
            belief = nil
            lastWeighed = nil
        }
        let time = location.timestamp
        cadence.take(time)
        // (A fix dated before the last one weighed is weighed: one fix dated far ahead does not
        // stop the model.)
        let weighs = lastWeighed.map { time.seconds(since: $0) >= Self.weighingInterval || time < $0 } ?? true
        var lines: [TripFollower.Reach]?
        if weighs {
            lastWeighed = time
            lines = Self.lines(near: location, model: model, learnt: inner.lateralPlaces())
            let motion = TripFollower.Motion(stopped: inner.motion.isStopped, speed: location.speed)
            follower.observe(
                location, reach: lines ?? [], motion: motion, lineEvidence: inner.takeLineEvidence(),
                fixInterval: cadence.interval, feed: inner.liveFeed(at: time), model: model)
            belief = follower.belief
        }
        guard let belief, belief.lineShare >= Self.leadingShare,
            belief.offTimetable < belief.lineShare,
            let along = lines.map({ $0.first { $0.line.index == Int(belief.key.line) }?.along })
                ?? Self.along(of: belief.key.lineDirection, near: location, model: model)
        else { return result }
        // (The answer's focus and stops are on the drawn track: a fix past its end is at the end.)
        let length = model.network.railways[belief.key.lineDirection.railway].track.polyline.length
        answer(&result, belief: belief, along: min(max(along, 0), length), at: location.timestamp)
        return result
    }

    /// A track's drawing is taken to run on this far straight past each of its ends (not a
    /// loop's): a GTFS shape ends at the platform's mark, but trains stand and turn beyond it,
    /// in the station's throat or a yard, and Caltrain's recorded first and last positions lie
    /// 100-250 m past it. Without it such a fix lay up to 250 m *across* the track (about −32
    /// nats), and an express whose shape ends at San José Diridon lost the ride at its first fix
    /// to a local whose shape runs on to Tamien.
    /// Set by hand: `reach`, so that no fix within reach of a track's end is taken across it.
    static let pastTrackEnds: Meters = reach

    /// Where the fix lies along `line`'s track (the track continued past its ends by
    /// `pastTrackEnds`: before 0 or beyond its length there), if within `reach` of it.
    static func along(of line: LineDirection, near location: Location, model: TrackerModel) -> Meters? {
        guard model.network.railways.indices.contains(line.railway) else { return nil }
        return place(on: model.network.railways[line.railway], of: location)?.along
    }

    /// Where `location` lies along and across `railway`'s track continued past its ends by
    /// `pastTrackEnds` (a loop has no ends), if within `reach` of the track.
    static func place(on railway: Railway, of location: Location) -> (along: Meters, across: Meters)? {
        railway.track.polyline.projectionPastEnds(
            of: location.coordinate, within: reach, extending: railway.isLoop ? 0 : pastTrackEnds)
    }

    /// Every line (railway and direction) whose track lies within `reach` of the fix.
    /// Where `learnt` (`RailwayTracker.lateralPlaces()`) gives a line's map offset, a fix is
    /// measured across from where the line's trains run: the drawn track plus that offset. (A
    /// map drawing one of two parallel tracks 30 m off made the trip model's 6 m lateral scale,
    /// fitted on Caltrain, give the ride to the other track's trains; a wider scale blurred the
    /// tracks for every map.)
    static func lines(
        near location: Location, model: TrackerModel, learnt: [Int: (lateral: Meters, offset: Meters)] = [:]
    ) -> [TripFollower.Reach] {
        var lines: [TripFollower.Reach] = []
        for railway in model.grid.railways(near: location.coordinate) {
            let index = Int(railway)
            guard model.network.railways.indices.contains(index),
                let place = place(on: model.network.railways[index], of: location)
            else { continue }
            for direction in [TravelDirection.ascending, .descending] {
                let line = LineDirection(railway: index, direction: direction)
                lines.append(.init(line: line, along: place.along, across: across(place.across, learnt: learnt[line.index])))
            }
        }
        return lines
    }

    /// `across` measured from where the line's trains run, where the railway tracker measured
    /// the same place (`learnt`: its signed distance from the drawn track and the line's offset);
    /// else as drawn (past a track's end the trip model measures from the track continued).
    private static func across(_ across: Meters, learnt: (lateral: Meters, offset: Meters)?) -> Meters {
        guard let learnt, learnt.offset.isFinite, abs(abs(learnt.lateral) - across) <= Self.samePlace else { return across }
        return abs(learnt.lateral - learnt.offset)
    }

    /// Two measures of a fix's distance from a track this close are of the same place.
    /// Set by hand: a metre, well beyond rounding, well below a track's spacing.
    static let samePlace: Meters = 1

    /// The answer with the believed trip's line first, named by its trip; with `refocus`, its
    /// focus and later stations are those at `along` (where the trip's timetable puts the train
    /// between fixes), not the railway tracker's.
    private mutating func answer(
        _ result: inout TrackingResult, belief: TripFollower.Belief, along: Meters, at time: Timestamp,
        refocus: Bool = false
    ) {
        let model = inner.model
        let network = model.network
        let line = belief.key.lineDirection
        let railway = network.railways[line.railway]
        let stations = network.railwayStations[line.railway]
        var candidate: TrackingCandidate
        if let index = result.candidates.firstIndex(where: { $0.railwayID == railway.id && $0.direction == line.direction }) {
            candidate = result.candidates.remove(at: index)
        } else {
            candidate = model.candidate(on: line, at: along, score: result.best?.score ?? 0)
        }
        if refocus {
            let here = model.candidate(on: line, at: along, score: candidate.score, later: true)
            candidate.focusStationID = here.focusStationID
            candidate.phase = here.phase
            candidate.laterStationIDs = here.laterStationIDs
        }
        if let label = model.timetable.tripNames[line: line, trip: Int(belief.key.trip)] {
            candidate.trainID = label.id
            candidate.train = label.name
        }
        candidate.delaySeconds = belief.delay
        candidate.confidence = belief.lineShare
        if let timeline = follower.timeline(of: belief.key) {
            let progress = Self.progress(on: timeline, along: along, delay: belief.delay, origin: belief.key.origin, at: time)
            let next = nextCall(of: timeline, progress: progress, delay: belief.delay, origin: belief.key.origin, at: time)
            candidate.nextStopID = next.map { network.stations[stations[$0.slot]].id }
            // The timetable told the trip apart: its stops are the ones shown.
            result.undecided = []
            candidate.eta = next?.eta
            let predicted = arrivals(of: timeline, key: belief.key, progress: progress, at: time)
            candidate.arrivals = predicted.arrivals
            candidate.delayPercentiles = predicted.delay
            // Where an arrival model holds, the next stop's arrival is its prediction (the first
            // of the stops ahead), not the timeline's: one time told for one stop.
            if let eta = next?.eta, eta > time, let first = predicted.arrivals.first, first.stationID == candidate.nextStopID,
                follower.parameters.arrivalModel(on: network.railways[belief.key.lineDirection.railway]) != nil
            {
                candidate.eta = first.time
            }
        }
        result.candidates.insert(candidate, at: 0)
    }

    /// The predicted arrivals at trip `key`'s calls beyond `progress` (where its train is on
    /// its timeline at `time`), to the trip's end (`predictArrivals`), and the delay they start from.
    /// Worked out again only when the trip model has weighed a fix since, the trip changed,
    /// the train passed a call or the first arrival is due: between weighed fixes the belief
    /// does not change.
    private mutating func arrivals(of timeline: TripTimeline, key: TripFollower.Key, progress: Meters, at time: Timestamp)
        -> (arrivals: [PredictedArrival], delay: DelayPercentiles?)
    {
        if let predicted, predicted.key == key, predicted.weighed == lastWeighed,
            predicted.firstCall.map({ $0 > progress }) ?? true,
            predicted.arrivals.first.map({ $0.time >= time }) ?? true
        {
            return (predicted.arrivals, predicted.delay)
        }
        let (firstCall, arrivals, delay) = predictArrivals(of: timeline, key: key, progress: progress, at: time)
        predicted = (key, lastWeighed, firstCall, arrivals, delay)
        return (arrivals, delay)
    }

    /// The predicted arrivals at trip `key`'s calls beyond `progress` on its timeline, at
    /// `time`, the first one's call's progress, and the delay's percentiles now. With an
    /// arrival model for the trip's line (`TripModelParameters.arrivalModel(on:)`): each call's
    /// published time plus the delay the model carries the belief's percentiles to there
    /// (`ArrivalModel.predict`). Without one: when the trip's timeline reaches the call on time
    /// (`TripTimeline.arrival(atCall:)`), plus the delay's median now and its drift until then,
    /// within the delay's 10th–90th percentiles now widened by how far its walk may take it until
    /// then (`TripFollower.delayChange`). Never before `time`.
    ///
    /// - Complexity: O(w + c) for the trip's w delay cells and c calls.
    private func predictArrivals(of timeline: TripTimeline, key: TripFollower.Key, progress: Meters, at time: Timestamp)
        -> (firstCall: Meters?, arrivals: [PredictedArrival], delay: DelayPercentiles?)
    {
        guard let quantiles = follower.delayQuantiles(of: key) else { return (nil, [], nil) }
        let network = inner.model.network
        let railway = key.lineDirection.railway
        let stations = network.railwayStations[railway]
        let model = follower.parameters.arrivalModel(on: network.railways[railway])
        let now = time.secondsSince1970
        let at = { (time: Seconds) in Timestamp(secondsSince1970: max(time, now)) }
        var firstCall: Meters?
        var arrivals: [PredictedArrival] = []
        for (index, call) in timeline.calls.enumerated() where call.progress > progress {
            guard let onTime = timeline.arrival(atCall: index), stations.indices.contains(call.slot) else { continue }
            let published = key.origin + call.time
            let predicted: (low: Seconds, centre: Seconds, high: Seconds)
            if let model {
                let minutes = ArrivalModel.minutesAhead(published: published, delay: quantiles.median, now: now)
                predicted = model.predict(
                    at: arrivals.count, minutesAhead: minutes, low: quantiles.low, median: quantiles.median,
                    high: quantiles.high)
            } else {
                let change = follower.delayChange(over: key.origin + onTime + quantiles.median - now)
                let centre = quantiles.median + change.drift
                predicted = (
                    centre - Double.hypot(quantiles.median - quantiles.low, change.spread), centre,
                    centre + Double.hypot(quantiles.high - quantiles.median, change.spread)
                )
            }
            let base = model == nil ? key.origin + onTime : published
            if firstCall == nil { firstCall = call.progress }
            arrivals.append(
                PredictedArrival(
                    stationID: network.stations[stations[call.slot]].id, time: at(base + predicted.centre),
                    earliest: at(base + predicted.low), latest: at(base + predicted.high),
                    scheduled: Timestamp(secondsSince1970: published)))
        }
        let delay = DelayPercentiles(low: quantiles.low, median: quantiles.median, high: quantiles.high)
        return (firstCall, arrivals, delay)
    }

    /// How far along its timeline trip `origin`'s train is at `along`, `delay` late at `time`
    /// (the place nearest where the timeline puts it, on a line that passes a place twice).
    private static func progress(
        on timeline: TripTimeline, along: Meters, delay: Seconds, origin: Seconds, at time: Timestamp
    ) -> Meters {
        let reference = timeline.place(at: time.secondsSince1970 - origin - delay)?.progress ?? 0
        return timeline.progress(of: along, near: reference)
    }

    /// The trip's call the rider is told about at `progress`: the call within the focus rule's
    /// `now` radius, else the first ahead; and when its train, `delay` late, arrives there.
    private func nextCall(of timeline: TripTimeline, progress: Meters, delay: Seconds, origin: Seconds, at time: Timestamp)
        -> (slot: Int, eta: Timestamp)?
    {
        let arrives = { (call: (slot: Int, progress: Meters, time: Seconds)) -> Timestamp in
            let due = origin + call.time - follower.parameters.dwellBefore + delay
            return Timestamp(secondsSince1970: max(due, time.secondsSince1970))
        }
        if let here = timeline.calls.first(where: { abs($0.progress - progress) <= FocusRule.nowRadius }) {
            return (here.slot, time)
        }
        guard let ahead = timeline.calls.first(where: { $0.progress > progress }) else { return nil }
        return (ahead.slot, arrives(ahead))
    }
}

extension TrackerModel {
    /// A candidate on `line` with the train at `along`: its railway, direction and terminal, and
    /// the focus by the now/soon/next rule, with the stations after it if `later` (no stop,
    /// train or arrival: a caller that knows the trip adds them). Shared by the trip tracker
    /// and the schedule matcher.
    func candidate(on line: LineDirection, at along: Meters, score: Double, later: Bool = false) -> TrackingCandidate {
        let railway = network.railways[line.railway]
        let stations = network.railwayStations[line.railway]
        let walk = TrackWalk(railway: railway, direction: line.direction)
        let focus = FocusRule.focus(
            positions: network.stationAlongTrack[line.railway], inTrackOrder: network.stationsInTrackOrder[line.railway],
            walk: walk, at: along)
        let terminal = railway.isLoop ? nil : stations[line.direction == .ascending ? stations.count - 1 : 0]
        return TrackingCandidate(
            railwayID: railway.id, direction: line.direction, directionName: railway.name(of: line.direction),
            destinationStationID: terminal.map { network.stations[$0].id },
            focusStationID: focus.map { network.stations[stations[$0.station]].id } ?? railway.stationIDs[0],
            phase: focus?.phase ?? .now,
            laterStationIDs: later
                ? focus.map { self.stations(after: $0.station, on: line, limit: RailwayTracker.laterStations) } ?? [] : [],
            score: score)
    }

    /// Up to `limit` stations after the railway's station `station` (an index into its
    /// stations) in `line`'s direction of travel, round a loop but not back to `station`.
    func stations(after station: Int, on line: LineDirection, limit: Int) -> [String] {
        let stationIndices = network.railwayStations[line.railway]
        let count = stationIndices.count
        let isLoop = network.isLoop[line.railway]
        var later: [String] = []
        var position = station
        while later.count < limit {
            let next = position + (line.direction == .ascending ? 1 : -1)
            let wrapped = isLoop ? (next + count) % count : next
            guard (0..<count).contains(wrapped), wrapped != station else { break }
            later.append(network.stations[stationIndices[wrapped]].id)
            position = wrapped
        }
        return later
    }
}
