import Algorithms
import RealModule

/// Passages: where the train is at a time, against where the day's scheduled trains of the
/// line are then. The departure evidence needs a stop seen to its end, which a phone sending
/// a fix every 10–60 s seldom shows; a fix placing a moving train between stations says as
/// much, less sharply: each scheduled train's time there is interpolated between its calls.
///
/// It follows the same trains as `DepartureEvidence` (the hypothesis's `trips`): a hypothesis
/// with none yet takes as candidates every train of the day due there from 30 minutes ago to
/// 2 minutes ahead, weighted by how likely its delay is; later passages weigh each candidate
/// by how much its delay changed. Judged at most once per `span` (or one and a half of the
/// phone's usual waits), so a 1 Hz phone and a background phone say as much per minute. A change of delay between a departure and a
/// passage is judged by the looser of the two (`TripCandidate.delayScale`).
public struct PassageEvidence: Hashable, Sendable {
    /// Passages are judged at fixes at least this far apart ...
    /// (Tuned by hand on 2026-11-23, on simulated seeds 307 and 401, as `cap` says; not fitted.)
    public var span: Seconds = 30
    /// ... or this many of the phone's usual waits between fixes, if that is longer: with a
    /// fix a minute, every other fix. A time interpolated between calls at an even pace is
    /// some 30 s off a real train that accelerates and brakes, so from one fix a minute to
    /// the next a local keeping its delay and an express 15 minutes late losing 15 s a
    /// minute look alike; over two minutes the express's drift shows. (1.5, chosen on
    /// Caltrain's recorded trains and seed 1409: 0, 1.25, 1.5, 1.75 and 2 named the recorded
    /// railway on 96.8, 97.8, 98.1, 98.1 and 97.8 % of fixes; 1.5 kept seed 1409's simulated
    /// phones within 0.3 points of 0; a fixed span of 90–120 s did as well on the recording
    /// but cost simulated background phones up to a point.)
    /// Tuned by hand; not fitted.
    public var spanWaits = 1.5
    /// Only a train at least this fast is between stations (a stop's time is its dwell).
    /// Set by hand on 2026-11-23 with the passage evidence; the reason for 3 m/s is not recorded.
    public var minimumSpeed: MetersPerSecond = 3
    /// How much wider the on-time window is than a departure's, either side: a time
    /// interpolated between calls is that much less sharp. (60 s, chosen again once the
    /// simulator's trains ran as late as Caltrain's recorded ones: on seed 1409 and the
    /// recording, 30 s lost 1.6 points on Tokyo's good phones and 0.2 on the recording.)
    /// Tuned by hand; not fitted.
    public var slack: Seconds = 60
    /// How much a train's delay typically changes from one passage to the next: Caltrain's
    /// recorded trains change theirs by a Laplace scale of 37 s between positions a minute
    /// apart and 52 s five minutes apart. 45 s was chosen on the recording and simulated seed
    /// 1409 (30 s lost the recorded train on 1.2 % more fixes, 60 s the simulated sparse and
    /// background phones on disrupted days, 120 s could not tell trains minutes apart).
    /// Tuned by hand; not fitted.
    public var delayChangeScale: Seconds = 45
    /// Only a place at least this far from every station of the line is judged: at a
    /// station a train's time is its dwell, and a place just short of a train's first call
    /// is outside its run.
    /// Set by hand on 2026-11-23 after seed 827's noisy phone standing at a train's first station;
    /// the reason for 200 m is not recorded.
    public var stationClearance: Meters = 200
    /// A later passage is judged against a change of delay anywhere within this window: what
    /// it adds is how well the followed trains keep their delay, not that a train is there
    /// (the first passage said that).
    /// (Tuned by hand on 2026-11-23, on simulated seeds 307 and 401 among 120, 240 and 1,920 s; not
    /// fitted.)
    public var changeWindow: Seconds = 240
    /// ... or within this many of the phone's usual waits between fixes, if that is longer:
    /// with a fix a minute, four minutes hold too few passages to tell a train keeping its
    /// delay. (5, chosen on Caltrain's recorded trains, a position a minute: fixed windows of
    /// 120, 240, 300, 360, 480 and 720 s named the railway on 83.7, 96.3, 97.1, 97.0, 96.7 and
    /// 94.5 % of fixes, but a fixed 300 s cost simulated battery-saving phones on shifted maps
    /// 0.8 points on seed 1409; five waits gave the recording 96.8 % and cost no simulated
    /// phone there.)
    /// Tuned by hand; not fitted.
    public var changeWindowWaits = 5.0
    /// The most the first passage of a line can say, either way: which trains are
    /// due here now is all it knows, and on a day when every train runs late the on-time
    /// train is another line's.
    /// Tuned by hand: 1.5 on simulated seeds 307 and 401 on 2026-11-23, then 3 on Caltrain's
    /// recorded days of 29 November – 2 December 2024 and seed 1409 on 2026-11-25 (see `cap`); not
    /// fitted.
    public var firstCap: Nats = 3
    /// The most one passage can say, either way (0: off).
    /// (Span, slack and scale were first chosen on seeds 307 and 401 among 30–120 s each, the
    /// change window among 120, 240 and 1,920 s, the first cap among 0.5, 1.5 and 3 nats;
    /// scale and first cap were chosen again on Caltrain's recorded trains and seed 1409:
    /// 45 s and 3 nats.)
    /// Tuned by hand; not fitted.
    public var cap: Nats = 3
    /// What a fix costs a line at a passage when an operator's feed places the line's trains
    /// and none of them near the fix (0: off).
    /// Set by hand on 2026-11-26 and measured on Caltrain's recording with its feed (railway 99.6 →
    /// 99.7 %); not tuned.
    public var vehicleAbsentCost: Nats = 2
    /// A reported train counts as near a fix within this distance of it ...
    /// (Set by hand on 2026-11-26 with rule 7; the reason is not recorded.)
    public var vehicleReach: Meters = 2_000
    /// ... plus this speed times the age of the report (it may have run on since).
    /// Set by hand on 2026-11-26 with rule 7; the reason is not recorded.
    public var vehicleRunSpeed: MetersPerSecond = 40
    /// A report older than this at the fix says nothing of where its train is.
    /// Set by hand on 2026-11-26 with rule 7; the reason is not recorded.
    public var vehicleLongest: Seconds = 600
    /// How likely feeds that report a line's trains leave out one of them that is running,
    /// against reporting it: a followed train of a reported line that no feed reported lately
    /// (`TripSightings`, it has most likely not left) weighs this much at each passage (1: an
    /// omission says nothing). A train reported once and lost since is left alone.
    /// (Tuned by hand on 2026-11-26, on simulated seed 3101 and the Baby Bullet ride (0.5 against
    /// 0.3), checked on fresh seed 3203.)
    public var unreportedShare = 0.5
    /// ... once the train, as late as it is seen, left its first station this long ago (a feed
    /// may report a train only minutes after it leaves).
    /// Tuned by hand on 2026-11-26, on simulated seed 3101 and the Baby Bullet ride (5 minutes
    /// against none, 2 and 10), checked on fresh seed 3203.
    public var unreportedGrace: Seconds = 300
    /// The dwell a call's time allows for: a train arrives this long before it leaves.
    /// Set by hand on 2026-11-23 with the passage evidence; the reason for 30 s is not recorded.
    static let dwell: Seconds = 30

    /// The defaults.
    public init() {}

    /// The departure evidence's timing, made as loose as a passage needs.
    func timing(from departures: DepartureEvidence) -> DepartureEvidence {
        var timing = departures
        // (A negative slack from a tuning run narrows the window, never past its middle.)
        let widening = max(slack, -(departures.onTime.upperBound - departures.onTime.lowerBound) / 2)
        timing.onTime = (departures.onTime.lowerBound - widening)...(departures.onTime.upperBound + widening)
        timing.delayChangeScale = max(delayChangeScale, 1)
        timing.cap = cap
        timing.unreportedShare = unreportedShare
        timing.unreportedGrace = unreportedGrace
        return timing
    }
}

extension ScheduledTrip {
    /// When the train is due at `along` (seconds after its service day's midnight), between
    /// two of its calls: leaving the one, arriving `PassageEvidence.dwell` before leaving the
    /// next, at an even pace; nil outside its calls. `positions` are the railway's stations'
    /// along-track positions, `walk` the trip's way along the track. On a loop, where a trip
    /// may pass the place more than once, the passing nearest `clock` (seconds after its
    /// service day's midnight) counts. With `profile`, the train starts, runs and brakes
    /// between two calls by it instead.
    func time(
        at along: Meters, positions: [Meters], walk: TrackWalk, near clock: Seconds = 0, profile: RunProfile? = nil
    ) -> Seconds? {
        let count = departures.count + (arrival == nil ? 0 : 1)
        // Its calls in order, the arrival at its end last.
        let call = { (index: Int) -> (position: Meters, time: Seconds)? in
            let (slot, time) = index < departures.count ? departures[index] : (arrival ?? (-1, 0))
            guard slot >= 0, Int(slot) < positions.count else { return nil }
            return (positions[Int(slot)], Seconds(time))
        }
        var found: Int?
        if walk.isLoop {
            var nearest = Seconds.infinity
            for index in 1..<max(count, 1) {
                guard let start = call(index - 1), let end = call(index) else { continue }
                let into = walk.distanceAhead(from: start.position, to: along)
                let stretch = walk.distanceAhead(from: start.position, to: end.position)
                guard into >= 0, into <= stretch else { continue }
                let off = min(abs(clock - start.time), abs(clock - end.time))
                if off < nearest {
                    nearest = off
                    found = index
                }
            }
        } else {
            // The first call beyond the place (calls run in the direction of travel).
            var low = 0
            var high = count
            while low < high {
                let middle = (low + high) / 2
                if let end = call(middle), walk.distanceAhead(from: along, to: end.position) > 0 {
                    high = middle
                } else {
                    low = middle + 1
                }
            }
            found = low > 0 && low < count ? low : nil
        }
        guard let index = found, let start = call(index - 1), let end = call(index) else { return nil }
        let stretch = walk.distanceAhead(from: start.position, to: end.position)
        let into = walk.distanceAhead(from: start.position, to: along)
        guard stretch > 0, into >= 0, into <= stretch else { return nil }
        // A call's time is its departure, less the dwell; the end's is its arrival.
        let arrives = max(start.time, index < departures.count ? end.time - PassageEvidence.dwell : end.time)
        if let profile { return start.time + profile.elapsed(into: into, stretch: stretch, duration: arrives - start.time) }
        return start.time + (arrives - start.time) * into / stretch
    }
}

extension PassageEvidence: EvidenceKind {
    /// What passage evidence keeps per hypothesis.
    struct State: Sendable, Codable {
        /// The last fix that judged a passage.
        var last: Timestamp?
    }

    static let term = EvidenceTerm.passages
    static var tunables: [String: WritableKeyPath<Self, Double>] {
        [
            "passageSpan": \.span, "passageSpanWaits": \.spanWaits, "passageMinimumSpeed": \.minimumSpeed,
            "passageSlack": \.slack,
            "passageDelayChangeScale": \.delayChangeScale, "passageCap": \.cap, "passageChangeWindow": \.changeWindow,
            "passageChangeWindowWaits": \.changeWindowWaits, "passageFirstCap": \.firstCap,
            "passageStationClearance": \.stationClearance, "vehicleAbsentCost": \.vehicleAbsentCost,
            "vehicleReach": \.vehicleReach, "vehicleRunSpeed": \.vehicleRunSpeed, "vehicleLongest": \.vehicleLongest,
            "unreportedShare": \.unreportedShare, "unreportedGrace": \.unreportedGrace,
        ]
    }

    /// Judges a fix that places the hypothesis's moving train (`Placement.placing`), timed as
    /// departures are (`DepartureEvidence`, loosened by `timing(from:)`).
    func observe(_ hypothesis: inout Hypothesis, _ observation: Observation) {
        let (model, fix, cadence) = (observation.model, observation.fix, observation.cadence)
        let (speed, time, departures) = (fix.speed, fix.location.timestamp, observation.parameters.departures)
        // A fix after a silence has no speed of its own: away from stations, its train runs,
        // and a hypothesis that follows no train yet takes its candidates there.
        let moving = speed >= minimumSpeed || (observation.placement?.silence != nil && hypothesis.trains.trips.isEmpty)
        guard cap > 0, observation.placement?.placing == true, moving, model.hasTimetable, let along = hypothesis.along
        else { return }
        let railway = hypothesis.line.railway
        // (A fix from before the last passage, after a clock jump, is judged at once.)
        if let last = hypothesis.passages.last, (0..<max(span, spanWaits * cadence)).contains(time.seconds(since: last)) {
            return
        }
        guard clearOfStations(along, order: model.stationOrder[railway], walk: hypothesis.walk) else { return }
        hypothesis.passages.last = time
        // (Judged once the look has found the trains the hypothesis follows.)
        defer { chargeAbsentVehicles(&hypothesis, observation) }
        let timing = timing(from: departures)
        let positions = model.network.stationAlongTrack[railway]
        let walk = hypothesis.walk
        let scheduled = { (trip: ScheduledTrip, clock: Seconds) in
            trip.time(at: along, positions: positions, walk: walk, near: clock)
        }
        // A feed that reports the line's trains says where they are now: each look is a fresh
        // comparison, not the timetable's one fact, and a late day is no excuse.
        let informed = observation.live?.reports(hypothesis.line) == true
        if hypothesis.trains.trips.isEmpty {
            let likelihood = timing.candidates(
                &hypothesis, model: model, live: observation.live, at: time, scheduled: scheduled)
            // No train of the line due here now: as unlikely as a train off its timetable, said
            // once until the line has candidates again (not every span: it is one fact).
            if hypothesis.trains.trips.isEmpty, !informed {
                if hypothesis.trains.unmatched { return }
                hypothesis.trains.unmatched = true
            }
            // After the followed trains stopped fitting, the fresh candidates are taken without
            // judging the line again by them: on a day when every train is late, a line's
            // on-time train elsewhere would otherwise win anew at every look.
            var first = timing
            first.cap = informed ? cap : min(cap, firstCap)
            _ = first.settle(
                &hypothesis, model: model, likelihood: likelihood, as: .passages,
                charging: informed || !hypothesis.trains.lost)
            hypothesis.trains.lost = false
        } else {
            let likelihood = timing.follow(&hypothesis, model: model, live: observation.live, at: time, scheduled: scheduled)
            let charged = timing.settle(
                &hypothesis, model: model, likelihood: likelihood, as: .passages,
                against: max(changeWindow, changeWindowWaits * cadence))
            // None of the followed trains fits any more (the train was not among them, or
            // they were formed from a poor fix): look afresh at the next passage.
            if charged <= -timing.cap {
                hypothesis.trains.trips = []
                hypothesis.trains.lost = true
            }
        }
    }

    /// Whether `along` is at least `stationClearance` from every station in `order` (the
    /// line's stations by position).
    func clearOfStations(_ along: Meters, order: [(position: Meters, station: Int)], walk: TrackWalk) -> Bool {
        guard !order.isEmpty else { return true }
        let next = order.partitioningIndex { $0.position > along }
        let neighbours = [next - 1, next, walk.isLoop ? 0 : -1, walk.isLoop ? order.count - 1 : -1]
        return neighbours.allSatisfy { index in
            !order.indices.contains(index) || walk.separation(order[index].position, along) >= stationClearance
        }
    }
}

extension DepartureEvidence {
    /// The first observation away from a station: every train of the day `scheduled` here
    /// from 30 minutes ago to 2 minutes ahead becomes a candidate, weighted by its delay's
    /// density. Returns each pattern's mean density.
    func candidates(
        _ hypothesis: inout Hypothesis, model: TrackerModel, live: LiveTrips?, at time: Timestamp,
        scheduled: (ScheduledTrip, _ clock: Seconds) -> Seconds?
    ) -> [Double] {
        let now = time.secondsSince1970
        let trips = model.trips[line: hypothesis.line]
        let patternCount = hypothesis.patterns.weights.count
        var likelihood = Array(repeating: 0.0, count: patternCount)
        var count = Array(repeating: 0, count: patternCount)
        let (todayOrigin, yesterdayOrigin, today, yesterday) = model.serviceDay(at: time)
        // Only a trip running about now can be due here about now: its first departure is
        // at most `earliestDelay` ahead, and its last call at most `latestDelay` behind.
        // (Found in the index by start, then taken in trip order, today before yesterday.)
        let byStart = model.tripsByStart[line: hypothesis.line]
        let longest = model.longestTrip[line: hypothesis.line]
        var running: [(trip: Int, previousDay: Bool)] = []
        for previousDay in [false, true] {
            let clock = now - (previousDay ? yesterdayOrigin : todayOrigin)
            var index = byStart.partitioningIndex { Seconds($0.start) >= clock - Self.latestDelay - longest }
            while index < byStart.count, Seconds(byStart[index].start) <= clock - Self.earliestDelay {
                running.append((Int(byStart[index].trip), previousDay))
                index += 1
            }
        }
        running.sort { ($0.trip, $0.previousDay ? 1 : 0) < ($1.trip, $1.previousDay ? 1 : 0) }
        for (index, previousDay) in running {
            let trip = trips[index]
            let pattern = Int(trip.pattern)
            let service = Int(trip.service)
            guard pattern >= 0, pattern < patternCount, (previousDay ? yesterday : today)[service],
                let first = trip.departures.first?.time, let last = trip.arrival?.time ?? trip.departures.last?.time
            else { continue }
            let origin = previousDay ? yesterdayOrigin : todayOrigin
            let clock = now - origin
            guard clock - Seconds(last) <= Self.latestDelay, clock - Seconds(first) >= Self.earliestDelay,
                let due = scheduled(trip, clock)
            else { continue }
            let delay = now - origin - due
            guard delay >= Self.earliestDelay, delay <= Self.latestDelay else { continue }
            admit(
                Int32(clamping: index), of: trip, pattern: pattern, delay: delay, origin: origin, live: live, at: time,
                into: &hypothesis, likelihood: &likelihood, count: &count)
        }
        return patternMeans(&hypothesis, trips: trips, likelihood: likelihood, count: count)
    }
}
