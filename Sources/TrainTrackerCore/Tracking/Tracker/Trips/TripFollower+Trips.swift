extension TripFollower {
    /// The trips of `line` that may be near their train's place at `time`, on the service day
    /// `day` of `time` or the day before (trains run past midnight).
    func candidates(
        on line: LineDirection, at time: Timestamp,
        day: (origin: Seconds, previousOrigin: Seconds, today: [Bool], yesterday: [Bool]), model: TrackerModel
    ) -> [Key] {
        let byStart = model.tripsByStart[line: line]
        guard !byStart.isEmpty else { return [] }
        let trips = model.trips[line: line]
        var keys: [Key] = []
        for (origin, running) in [(day.origin, day.today), (day.previousOrigin, day.yesterday)] {
            let clock = time.secondsSince1970 - origin
            let low = clock - parameters.latest - parameters.terminalStay - model.longestTrip[line: line]
            let high = clock - parameters.earliest + parameters.originWait
            var index = byStart.partitioningIndex { Seconds($0.start) >= low }
            while index < byStart.count, Seconds(byStart[index].start) <= high {
                let trip = Int(byStart[index].trip)
                index += 1
                let service = Int(trips[trip].service)
                guard running.indices.contains(service), running[service] else { continue }
                if let onlyTrip, !model.timetable.tripNames.trip(line: line, trip: trip, hasID: onlyTrip) { continue }
                keys.append(Key(line: Int32(line.index), trip: Int32(trip), origin: origin))
            }
        }
        return keys
    }

    /// How much earlier and later than the times a trip's train is near a fix its entry's
    /// delays reach (`board`): six timing scales and a cell.
    var entryMargin: Seconds { 6 * parameters.timingScale + parameters.gridStep }
    /// How near a fix a trip's train must come to be entered at a boarding (`board`).
    var entryReach: Meters { 8 * parameters.positionScale }

    /// A line's way along its track and its stations' places on it, for `waitsOutOfReach`.
    struct Origins {
        let walk: TrackWalk
        let positions: [Meters]

        init(line: LineDirection, model: TrackerModel) {
            walk = TrackWalk(railway: model.network.railways[line.railway], direction: line.direction)
            positions = model.network.stationAlongTrack[line.railway]
        }
    }

    /// `key`'s scheduled trip, unless its line (`origins`) is a loop, where a place recurs every
    /// lap and neither `waitsOutOfReach` nor `passedOutOfReach` can judge it.
    private func tripOffLoop(_ key: Key, origins: Origins, model: TrackerModel) -> ScheduledTrip? {
        guard !origins.walk.isLoop else { return nil }
        let trips = model.trips[line: key.lineDirection]
        return trips.indices.contains(Int(key.trip)) ? trips[Int(key.trip)] : nil
    }

    /// Whether `key`'s train, at every delay the grid holds, has not yet left its origin at
    /// `time`, and that origin lies too far behind `along` for a fix there to be near it: a
    /// boarding would find no delay at which it is near (`entry`), so its timeline need not be
    /// built. Worked out from the trip's first two calls alone. (On Tokyo's lines the trips
    /// of the next hour are candidates, as a train may wait that long at its origin, and most
    /// start far from the fix.) Not on a loop, where a place recurs every lap.
    func waitsOutOfReach(_ key: Key, along: Meters, at time: Timestamp, origins: Origins, model: TrackerModel) -> Bool {
        guard let trip = tripOffLoop(key, origins: origins, model: model) else { return false }
        let calls = trip.departures
        guard let first = calls.first, origins.positions.indices.contains(Int(first.slot)) else { return false }
        // (With a second call the timeline's second knot is the departure; a trip of one call
        // never leaves, and is left to `entry`.)
        let second = calls.count > 1 ? Int(calls[calls.index(after: calls.startIndex)].slot) : trip.arrival.map { Int($0.slot) }
        guard let second, origins.positions.indices.contains(second) else { return false }
        let clock = time.secondsSince1970 - key.origin
        // The latest clock time the grid's earliest delay reaches, with the entry's margin and
        // a cell's rounding: the train leaves after it.
        let leaves = Seconds(first.time) + parameters.dwellAfter
        guard leaves > clock - parameters.earliest + entryMargin + parameters.gridStep else { return false }
        // Beyond the entry's reach, and the end's reach that `TripTimeline.times(near:)` forgives.
        let ahead = origins.walk.distanceAhead(from: origins.positions[Int(first.slot)], to: along)
        return ahead > entryReach + parameters.endReach
    }

    /// Whether `key`'s train, at every delay the grid holds, has passed `along` too long
    /// before `time` for a fix there to be near it: a boarding would find no delay at which
    /// it is near (`entry`), so its timeline need not be built. The other end of
    /// `waitsOutOfReach`: on Tokyo's lines the trips of the last hours are candidates, as a
    /// train may run that late, and most passed long ago. Worked out from the trip's calls as
    /// its timeline's knots would be (`TripTimeline.arrival`, `leaving`), without building it.
    /// Not on a loop.
    func passedOutOfReach(_ key: Key, along: Meters, at time: Timestamp, origins: Origins, model: TrackerModel) -> Bool {
        guard let trip = tripOffLoop(key, origins: origins, model: model) else { return false }
        let positions = origins.positions
        // The calls a timeline is built from: the departures, then the arrival; those at a
        // station the line does not have left out. (Not copied: 400 candidates a boarding.)
        let published = trip.departures.count + (trip.arrival == nil ? 0 : 1)
        let publishedCall = { (index: Int) -> TripCall? in
            let call = index < trip.departures.count ? trip.departures[index] : trip.arrival
            return call.flatMap { positions.indices.contains(Int($0.slot)) ? $0 : nil }
        }
        let count = (0..<published).reduce(0) { $0 + (publishedCall($1) == nil ? 0 : 1) }
        guard count > 0 else { return false }
        var leaves: Seconds = 0
        var progress: Meters = 0
        var beyond: Meters = 0
        var previous: Int?
        var seen = 0
        for index in 0..<published {
            guard let call = publishedCall(index) else { continue }
            let slot = Int(call.slot)
            var at = (slot: slot, progress: progress, time: Seconds(call.time))
            if let previous {
                let before = progress
                progress = max(progress + origins.walk.distanceAhead(from: positions[previous], to: positions[slot]), progress)
                at.progress = progress
                leaves = max(TripTimeline.arrival(at: at, after: (leaves, before), parameters: parameters), leaves)
            } else {
                leaves = at.time - parameters.originWait
                // (`entry`'s `times(near:)` looks from the fix's progress, or the first call's, on
                // by `entryReach`: once past a call further on, the train is not near.)
                beyond = max(origins.walk.distanceAhead(from: positions[slot], to: along), 0) + entryReach
            }
            seen += 1
            leaves = max(TripTimeline.leaving(at, reached: leaves, isLast: seen == count, parameters: parameters), leaves)
            previous = slot
            if progress > beyond { break }
        }
        // The train is last near the fix by `leaves`: at the grid's latest delay, with the
        // entry's margin and a cell's rounding, that is still too long ago.
        let clock = time.secondsSince1970 - key.origin
        return clock - leaves - entryMargin > Double(highestCell + 1) * parameters.gridStep
    }

    /// The timeline of `key`'s trip, built once while it is in view.
    func timeline(for key: Key, model: TrackerModel) -> TripTimeline? {
        if let known = timelines[key] { return known }
        let line = key.lineDirection
        let trips = model.trips[line: line]
        guard trips.indices.contains(Int(key.trip)) else { return nil }
        let railway = model.network.railways[line.railway]
        let walk = TrackWalk(railway: railway, direction: line.direction)
        return TripTimeline(
            trip: trips[Int(key.trip)], positions: model.network.stationAlongTrack[line.railway], walk: walk,
            parameters: parameters)
    }

    /// The likeliest trip, with its share and its line's, its likeliest delay, and the share of
    /// "on no trip"; nil while no trip is followed.
    var belief: Belief? {
        var lines: [Int32: Double] = [:]
        var best: (index: Int, total: Double)?
        for (index, trip) in followed.enumerated() {
            let total = trip.total
            lines[trip.key.line, default: 0] += total
            if best.map({ total > $0.total }) ?? true { best = (index, total) }
        }
        guard let bestLine = lines.max(by: { $0.value < $1.value }) else { return nil }
        // The likeliest trip of the likeliest line.
        var chosen = best
        if let current = best, followed[current.index].key.line != bestLine.key {
            chosen = nil
            for (index, trip) in followed.enumerated() where trip.key.line == bestLine.key {
                let total = trip.total
                if chosen.map({ total > $0.total }) ?? true { chosen = (index, total) }
            }
        }
        guard let chosen else { return nil }
        let trip = followed[chosen.index]
        let top = trip.mass.indices.max { trip.value(at: $0) < trip.value(at: $1) } ?? 0
        return Belief(
            key: trip.key, share: chosen.total, lineShare: bestLine.value,
            delay: Double(trip.low + top) * parameters.gridStep, offTimetable: offTimetable)
    }

    /// The timeline of a followed trip (for the answer: its next call and arrival).
    func timeline(of key: Key) -> TripTimeline? { timelines[key] }
}
