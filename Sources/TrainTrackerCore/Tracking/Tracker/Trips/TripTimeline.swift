import Algorithms
/// Where a scheduled trip's train is at each time of its service day, as the trip model
/// expects it: standing at its first station before it leaves, dwelling at each call from
/// `dwellBefore` before its published time to `dwellAfter` after it, running between calls by a
/// `RunProfile` (gathering speed, running, braking, so an express that passes a station and a
/// local that stops there are at different places at the same time), standing at its last
/// station after it arrives.
///
/// Places are *progress*: metres travelled from the first call along the trip's way (on a loop
/// past the end of the track and on), so the place is a non-decreasing function of time.
///
///     let timeline = TripTimeline(trip: trip, positions: stations, walk: walk, parameters: .init())
///     timeline.place(at: 8 * 3_600)          // (progress: 1_250, speed: 21.4)
///
/// - Complexity: O(c) to build for c calls; O(log c) per look-up.
///
/// A class: built once while its trip is in view and shared, not copied, by the beliefs that
/// follow it (a copy of its arrays at every look-up was a tenth of a fix's time on Tokyo).
final class TripTimeline: Sendable {
    /// Knot times (seconds of the service day), non-decreasing.
    let times: [Seconds]
    /// Knot places (progress), non-decreasing; equal neighbours are a stand.
    let places: [Meters]
    /// Each call's progress and published time, in calling order, the last one the arrival.
    let calls: [(slot: Int, progress: Meters, time: Seconds)]
    /// Along-track position of the first call.
    let start: Meters
    /// The trip's way along the track.
    let walk: TrackWalk
    private let profile: RunProfile
    /// The run from each knot to the next, its shape worked out once.
    private let runs: [RunProfile.Run]

    /// The fastest a timetable's run is taken to be, so that two calls published at the same
    /// minute still take a moment (m/s).
    /// Set by hand on 2026-11-27; the reason for 80 m/s is not recorded.
    static let fastestRun: MetersPerSecond = 80

    /// The timeline of `trip` on a railway whose stations lie at `positions`, travelled by `walk`.
    init(trip: ScheduledTrip, positions: [Meters], walk: TrackWalk, parameters: TripModelParameters) {
        self.walk = walk
        var profile = RunProfile()
        profile.acceleration = parameters.acceleration
        profile.braking = parameters.acceleration
        self.profile = profile
        var published: [(slot: Int, time: Seconds)] = trip.departures.map { (Int($0.slot), Seconds($0.time)) }
        if let arrival = trip.arrival { published.append((Int(arrival.slot), Seconds(arrival.time))) }
        published.removeAll { !positions.indices.contains($0.slot) }
        start = published.first.map { positions[$0.slot] } ?? 0
        var calls: [(slot: Int, progress: Meters, time: Seconds)] = []
        var progress: Meters = 0
        for (index, call) in published.enumerated() {
            if index > 0 { progress += walk.distanceAhead(from: positions[published[index - 1].slot], to: positions[call.slot]) }
            // (A call behind the previous one on a line is a timetable fault: it stands there.)
            progress = max(progress, calls.last?.progress ?? 0)
            calls.append((call.slot, progress, call.time))
        }
        self.calls = calls
        let knots = Knots(calls: calls, parameters: parameters)
        times = knots.times
        places = knots.places
        runs = knots.times.indices.dropLast().map { index in
            profile.run(
                stretch: knots.places[index + 1] - knots.places[index],
                duration: knots.times[index + 1] - knots.times[index])
        }
    }

    /// When the train reaches `call`: `dwellBefore` before its published time, but at least the
    /// run's shortest time (`fastestRun`) after its `last` knot.
    static func arrival(
        at call: (slot: Int, progress: Meters, time: Seconds), after last: (time: Seconds, place: Meters),
        parameters: TripModelParameters
    ) -> Seconds {
        let shortest = (call.progress - last.place) / fastestRun
        return max(call.time - parameters.dwellBefore, last.time + shortest)
    }

    /// When the train leaves `call`, which it `reached` then: `dwellAfter` after its published
    /// time (not before it reached it); at its last call, `terminalStay` after it reached it.
    static func leaving(
        _ call: (slot: Int, progress: Meters, time: Seconds), reached: Seconds, isLast: Bool,
        parameters: TripModelParameters
    ) -> Seconds {
        isLast ? reached + parameters.terminalStay : max(call.time + parameters.dwellAfter, reached)
    }

    /// The knots of a timeline: where the train arrives at and leaves each call (`arrival`,
    /// `leaving`), never earlier than the knot before.
    private struct Knots {
        var times: [Seconds] = []
        var places: [Meters] = []

        init(calls: [(slot: Int, progress: Meters, time: Seconds)], parameters: TripModelParameters) {
            guard let first = calls.first else { return }
            append(time: first.time - parameters.originWait, place: first.progress)
            for (index, call) in calls.enumerated() {
                let isFirst = index == 0
                let isLast = index == calls.count - 1
                if !isFirst {
                    let last = (time: times[times.count - 1], place: places[places.count - 1])
                    append(time: TripTimeline.arrival(at: call, after: last, parameters: parameters), place: call.progress)
                }
                let reached = times[times.count - 1]
                append(
                    time: TripTimeline.leaving(call, reached: reached, isLast: isLast, parameters: parameters),
                    place: call.progress)
            }
        }

        private mutating func append(time: Seconds, place: Meters) {
            times.append(max(time, times.last ?? -.infinity))
            places.append(max(place, places.last ?? -.infinity))
        }
    }

    /// When the train, on time, reaches call `index` (seconds of the service day): the knot
    /// at which it stops there (two knots a call: reached, left; the first call's first knot is
    /// its wait at the origin).
    func arrival(atCall index: Int) -> Seconds? {
        let knot = 2 * index
        return times.indices.contains(knot) ? times[knot] : nil
    }

    /// The first and last knot times: before the first the train is not yet at its origin,
    /// after the last it has left service.
    var span: ClosedRange<Seconds>? {
        guard let first = times.first, let last = times.last else { return nil }
        return first...last
    }

    /// Where the train is at `time` (progress), its run's mean speed there (0 standing) and
    /// its speed at that moment (gathering speed, running, braking); nil outside the span.
    func place(at time: Seconds) -> (progress: Meters, speed: MetersPerSecond, now: MetersPerSecond)? {
        var hint = -1
        return place(at: time, hint: &hint)
    }

    /// `place(at:)`, with the knot search started from `hint`, the knot found at a nearby time
    /// (−1: none), and left there: O(1) a look-up for times in order, as along a trip's delay
    /// grid, instead of a binary search each.
    func place(at time: Seconds, hint: inout Int) -> (progress: Meters, speed: MetersPerSecond, now: MetersPerSecond)? {
        guard let span, span.contains(time) else { return nil }
        // The last knot at or before `time`.
        var low = hint
        if times.indices.contains(low) {
            while low > 0, times[low] > time { low -= 1 }
            while low + 1 < times.count, times[low + 1] <= time { low += 1 }
        } else {
            low = 0
            var high = times.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if times[middle] <= time { low = middle } else { high = middle - 1 }
            }
        }
        hint = low
        guard low + 1 < times.count else { return (places[low], 0, 0) }
        let run = runs[low]
        guard run.stretch > 0, run.duration > 0 else { return (places[low], 0, 0) }
        let elapsed = time - times[low]
        return (places[low] + run.distance(after: elapsed), run.stretch / run.duration, run.speed(after: elapsed))
    }

    /// How far progress `progress` lies ahead of `place`, where the train is at `time`
    /// (negative: behind). A train standing at its first or last station may stand anywhere
    /// within `endReach` short of it or beyond it (sidings, long platforms): that much is
    /// forgiven there.
    func offset(of progress: Meters, from place: Meters, at time: Seconds, endReach: Meters) -> Meters {
        var offset = progress - place
        if times.count >= 2, time < times[1], offset < 0 { offset = min(0, offset + endReach) }
        if times.count >= 2, time >= times[times.count - 2], offset > 0 { offset = max(0, offset - endReach) }
        return offset
    }

    /// The times at which the train is within `reach` of progress `progress`: from when it
    /// first comes that near to when it last is; nil when it never is.
    /// Short of the first station or beyond the last, `endReach` is forgiven (as `offset`).
    func times(near progress: Meters, reach: Meters, endReach: Meters = 0) -> ClosedRange<Seconds>? {
        guard let first = places.first, let last = places.last else { return nil }
        var progress = progress
        if progress < first { progress = min(first, progress + endReach) }
        if progress > last { progress = max(last, progress - endReach) }
        guard progress + reach >= first, progress - reach <= last else { return nil }
        let from = firstTime(reaching: progress - reach)
        let to = lastTime(before: progress + reach)
        return from <= to ? from...to : nil
    }

    /// The first time the train's progress reaches `place`.
    /// - Complexity: O(log k) for k knots (the places never decrease).
    private func firstTime(reaching place: Meters) -> Seconds {
        let index = places.partitioningIndex { $0 >= place }
        guard index < places.count else { return times[times.count - 1] }
        guard index > 0 else { return times[0] }
        return time(in: index - 1, at: place)
    }

    /// The last time the train's progress is at most `place`.
    /// - Complexity: O(log k) for k knots.
    private func lastTime(before place: Meters) -> Seconds {
        let index = places.partitioningIndex { $0 > place } - 1
        guard index >= 0 else { return times[0] }
        guard index + 1 < places.count else { return times[times.count - 1] }
        return time(in: index, at: place)
    }

    /// When the run from knot `index` to the next reaches `place`.
    private func time(in index: Int, at place: Meters) -> Seconds {
        let stretch = places[index + 1] - places[index]
        let duration = times[index + 1] - times[index]
        guard stretch > 0 else { return times[index] }
        return times[index] + profile.elapsed(into: place - places[index], stretch: stretch, duration: duration)
    }

    /// The progress of along-track position `along` nearest `reference` progress (on a loop
    /// a place recurs every lap).
    func progress(of along: Meters, near reference: Meters) -> Meters {
        progress(ahead: walk.distanceAhead(from: start, to: along), near: reference)
    }

    /// The progress `ahead` metres past the first call (`walk.distanceAhead(from: start, to:)`),
    /// on a loop the lap nearest `reference`.
    func progress(ahead: Meters, near reference: Meters) -> Meters {
        guard walk.isLoop, walk.length > 0 else { return ahead }
        let laps = ((reference - ahead) / walk.length).rounded()
        return ahead + max(laps, 0) * walk.length
    }
}

extension RunProfile {
    /// A run from rest to rest over `stretch` metres lasting `duration`, its steady speed and
    /// the times spent gathering speed and braking worked out once.
    struct Run: Sendable {
        let stretch: Meters
        let duration: Seconds
        let acceleration: Double
        let braking: Double
        /// The steady speed, or nil where the pace is even (no run at these rates fits).
        let steady: MetersPerSecond?
        let speedingUp: Seconds
        let slowingDown: Seconds
        /// How far the run has come when it reaches the steady speed.
        let gathered: Meters

        /// How far the run has come after `elapsed` seconds: the inverse of
        /// `RunProfile.elapsed(into:stretch:duration:)`.
        ///
        /// - Complexity: O(1).
        func distance(after elapsed: Seconds) -> Meters {
            guard stretch > 0, duration > 0 else { return 0 }
            let time = min(max(elapsed, 0), duration)
            guard let steady else { return stretch * time / duration }
            if time <= speedingUp { return acceleration * time * time / 2 }
            let remaining = duration - time
            if remaining <= slowingDown { return stretch - braking * remaining * remaining / 2 }
            return gathered + steady * (time - speedingUp)
        }

        /// How fast the run goes `elapsed` seconds after it starts.
        ///
        /// - Complexity: O(1).
        func speed(after elapsed: Seconds) -> MetersPerSecond {
            guard stretch > 0, duration > 0 else { return 0 }
            let time = min(max(elapsed, 0), duration)
            guard let steady else { return stretch / duration }
            if time <= speedingUp { return acceleration * time }
            let remaining = duration - time
            if remaining <= slowingDown { return braking * remaining }
            return steady
        }
    }

    /// The shape of a run from rest to rest over `stretch` metres lasting `duration`.
    func run(stretch: Meters, duration: Seconds) -> Run {
        var steady: MetersPerSecond?
        if stretch > 0, duration > 0, acceleration > 0, braking > 0 {
            let rates = 1 / (2 * acceleration) + 1 / (2 * braking)
            let discriminant = duration * duration - 4 * rates * stretch
            if discriminant >= 0 { steady = 2 * stretch / (duration + discriminant.squareRoot()) }
        }
        let speed = steady ?? 0
        return Run(
            stretch: stretch, duration: duration, acceleration: acceleration, braking: braking, steady: steady,
            speedingUp: steady.map { $0 / acceleration } ?? 0, slowingDown: steady.map { $0 / braking } ?? 0,
            gathered: speed * speed / (2 * acceleration))
    }

}
