import Algorithms
import RealModule

extension DepartureEvidence: EvidenceKind {
    static let term = EvidenceTerm.departures
    static var tunables: [String: WritableKeyPath<Self, Double>] {
        [
            "onTimeShare": \.onTimeShare, "meanLateDelay": \.meanLateDelay, "delayChangeScale": \.delayChangeScale,
            "offTimetableShare": \.offTimetableShare, "missedCallDensity": \.missedCallDensity, "departureEvidenceCap": \.cap,
            "reportedDelayScale": \.reportedDelayScale, "departureUnreportedShare": \.unreportedShare,
            "departureUnreportedGrace": \.unreportedGrace,
        ]
    }

    /// Evidence from the time the hypothesis's train left the station it just left
    /// (`StopEvidence.State.departed`), by following the line's scheduled trains (see the
    /// type's summary).
    func observe(_ hypothesis: inout Hypothesis, _ observation: Observation) {
        let model = observation.model
        guard model.hasTimetable, let station = hypothesis.stops.departed else { return }
        let time = observation.fix.location.timestamp.adding(-hypothesis.stops.departedAgo)
        let likelihood =
            hypothesis.trains.trips.isEmpty
            ? firstDeparture(&hypothesis, model: model, live: observation.live, station: station, at: time)
            : follow(&hypothesis, model: model, live: observation.live, at: time) { trip, _ in trip.departure(at: station) }
        _ = settle(&hypothesis, model: model, likelihood: likelihood, as: .departures)
    }

    /// Forgets the candidates that no longer count, re-weighs the patterns by their
    /// `likelihood` of the observation (mixed with the chance the train is off its timetable)
    /// and charges the mixture, against an observation at a random time of `window` seconds
    /// (the candidates' window unless said), as `term` (unless not `charging`). Returns the
    /// nats charged.
    func settle(
        _ hypothesis: inout Hypothesis, model: TrackerModel, likelihood: [Double], as term: EvidenceTerm,
        against window: Seconds = Self.window, charging: Bool = true
    ) -> Nats {
        if !hypothesis.trains.trips.isEmpty {
            hypothesis.trains.unmatched = false
            hypothesis.trains.lost = false
        }
        let best = hypothesis.trains.trips.reduce(-Double.infinity) { max($0, $1.logWeight) }
        hypothesis.trains.trips.removeAll { $0.logWeight < best - Self.forgetBelow }
        if hypothesis.trains.trips.count > Self.maximumTrips {
            hypothesis.trains.trips.sort { $0.logWeight > $1.logWeight }
            hypothesis.trains.trips.removeLast(hypothesis.trains.trips.count - Self.maximumTrips)
        }
        let logDensity = hypothesis.weighPatterns(model: model) { Double.log(mixed(likelihood[$0], window: window)) }
        guard charging else { return 0 }
        let charged = nats(logDensity: logDensity, window: window)
        hypothesis.charge(term, charged)
        return charged
    }

    /// The first departure: which of the day's trains leave here about now? Each becomes a
    /// candidate weighted by its delay's density; returns each pattern's mean density.
    private func firstDeparture(
        _ hypothesis: inout Hypothesis, model: TrackerModel, live: LiveTrips?, station: Int, at time: Timestamp
    ) -> [Double] {
        let now = time.secondsSince1970
        let trips = model.trips[line: hypothesis.line]
        let patternCount = hypothesis.patterns.weights.count
        var likelihood = Array(repeating: 0.0, count: patternCount)
        let (todayOrigin, yesterdayOrigin, today, yesterday) = model.serviceDay(at: time)
        var count = Array(repeating: 0, count: patternCount)
        for previousDay in [false, true] {
            let origin = previousDay ? yesterdayOrigin : todayOrigin
            let clock = now - origin
            let scheduled = model.timetable.departures(
                line: hypothesis.line.index, station: station, from: clock - Self.latestDelay,
                through: clock - Self.earliestDelay)
            for item in scheduled {
                let trip = trips[Int(item.trip)]
                guard (previousDay ? yesterday : today)[Int(trip.service)] else { continue }
                let pattern = Int(trip.pattern)
                guard pattern >= 0, pattern < patternCount else { continue }
                admit(
                    item.trip, of: trip, pattern: pattern, delay: clock - item.time, origin: origin, live: live, at: time,
                    into: &hypothesis, likelihood: &likelihood, count: &count)
            }
        }
        return patternMeans(&hypothesis, trips: trips, likelihood: likelihood, count: count)
    }

    /// Takes trip `trip` (of pattern `pattern`, in range), `delay` seconds late on the service
    /// day whose clock starts at `origin`, as a candidate weighted by its delay's density,
    /// counted towards its pattern's mean: the first look of departures and of passages alike.
    /// With a feed (`live`) that reports the trip, its reported delay replaces the prior of
    /// delays (`reportedDelayDensity`), and a cancelled trip is no candidate.
    func admit(
        _ trip: Int32, of schedule: ScheduledTrip, pattern: Int, delay: Seconds, origin: Seconds, live: LiveTrips?,
        at time: Timestamp, into hypothesis: inout Hypothesis, likelihood: inout [Double], count: inout [Int]
    ) {
        var density = delayDensity(delay)
        if let report = live?.trip(trip, of: hypothesis.line, origin: origin) {
            if report.cancelled { return }
            if let reported = report.delay { density = reportedDelayDensity(delay - reported) }
        } else if unseen(schedule, index: trip, of: hypothesis.line, delay: delay, origin: origin, live: live, at: time) {
            density *= unreportedShare
        }
        count[pattern] += 1
        likelihood[pattern] += density
        hypothesis.trains.trips.append(
            TripCandidate(
                trip: trip, logWeight: Double.log(density), delay: delay, origin: origin, delayScale: delayChangeScale))
    }

    /// Whether `live` reports the trains of `line` and no feed up to `time` reported trip
    /// `trip` although, `delay` seconds late, it left its first station more than
    /// `unreportedGrace` ago (`TripSightings`): then it has most likely not left yet.
    func unseen(
        _ trip: ScheduledTrip, index: Int32, of line: LineDirection, delay: Seconds, origin: Seconds, live: LiveTrips?,
        at time: Timestamp
    ) -> Bool {
        guard unreportedShare != 1, let live, live.reports(line),
            let left = trip.secondsSinceLeaving(origin: origin, delay: delay, at: time), left > unreportedGrace
        else { return false }
        return !live.sightings.reported(index, of: line, before: time)
    }

    /// Each pattern's mean density over its `count` candidates (`likelihood` holds the sums),
    /// and each candidate weighed as one of its pattern's trains, all equally likely before
    /// their delays are seen.
    func patternMeans(_ hypothesis: inout Hypothesis, trips: [ScheduledTrip], likelihood: [Double], count: [Int]) -> [Double] {
        var means = likelihood
        for pattern in means.indices where count[pattern] > 0 {
            means[pattern] /= Double(count[pattern])
        }
        for index in hypothesis.trains.trips.indices {
            let pattern = Int(trips[Int(hypothesis.trains.trips[index].trip)].pattern)
            hypothesis.trains.trips[index].logWeight -= Double.log(Double(count[pattern]))
        }
        return means
    }

    /// A later observation: how much did each candidate's delay change since the last? A
    /// candidate with no `scheduled` time here (it does not call at the station) fades;
    /// `scheduled` is asked with the candidate's clock (seconds after its service day's midnight).
    /// A candidate a feed (`live`) reports is weighed by its report and its own earlier delay
    /// together (`reportedDelayDensity(_:following:scale:reported:)`: the report says where
    /// that train is), and a cancelled one fades.
    /// Returns each pattern's weighted mean density.
    func follow(
        _ hypothesis: inout Hypothesis, model: TrackerModel, live: LiveTrips?, at time: Timestamp,
        scheduled: (ScheduledTrip, _ clock: Seconds) -> Seconds?
    ) -> [Double] {
        let now = time.secondsSince1970
        let trips = model.trips[line: hypothesis.line]
        let patternCount = hypothesis.patterns.weights.count
        var likelihood = Array(repeating: 0.0, count: patternCount)
        var mass = Array(repeating: 0.0, count: patternCount)
        let top = hypothesis.trains.trips.reduce(-Double.infinity) { max($0, $1.logWeight) }
        for index in hypothesis.trains.trips.indices {
            let candidate = hypothesis.trains.trips[index]
            let trip = trips[Int(candidate.trip)]
            let pattern = Int(trip.pattern)
            let weight = Double.exp(candidate.logWeight - top)
            var density = missedCallDensity / Self.window
            // (Riders' reports set a trip's prior at the first look only: what a train's
            // riders believed says less than what its own fixes show once they are seen.)
            let reports = live?.trip(candidate.trip, of: hypothesis.line, origin: candidate.origin)
            let report = reports.flatMap { $0.informs ? $0 : nil }
            if report?.cancelled != true, let scheduled = scheduled(trip, now - candidate.origin) {
                let delay = now - candidate.origin - scheduled
                let scale = max(delayChangeScale, candidate.delayScale)
                density =
                    if let reported = report?.delay {
                        reportedDelayDensity(delay, following: candidate.delay, scale: scale, reported: reported)
                    } else {
                        delayChangeDensity(delay - candidate.delay, scale: scale)
                    }
                hypothesis.trains.trips[index].delay = delay
                hypothesis.trains.trips[index].delayScale = delayChangeScale
                // Feeds that report the line's trains and never this one: it has not left yet.
                if reports == nil,
                    unseen(
                        trip, index: candidate.trip, of: hypothesis.line, delay: delay, origin: candidate.origin, live: live,
                        at: time)
                {
                    density *= unreportedShare
                }
            }
            mass[pattern] += weight
            likelihood[pattern] += weight * density
            hypothesis.trains.trips[index].logWeight += Double.log(density) - top
        }
        for pattern in 0..<patternCount where mass[pattern] > 0 { likelihood[pattern] /= mass[pattern] }
        return likelihood
    }
}
