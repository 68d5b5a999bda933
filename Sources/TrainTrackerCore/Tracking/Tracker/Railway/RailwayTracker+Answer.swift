extension RailwayTracker {
    /// The fastest a train runs, for arrival times: 100 m/s (360 km/h), whatever a phone says.
    /// Set by hand on 2026-11-22 from the fastest trains' 360 km/h; not measured.
    static let fastestTrain: MetersPerSecond = 100
    /// Arrival times take the train as running at least this fast ...
    /// (Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.)
    static let slowestCruise: MetersPerSecond = 12
    /// ... and add the time braking and starting cost: the cruising speed over this (in m/s²).
    /// Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.
    static let brakingAllowance = 1.8
    /// A stop nearer than this is reached now.
    /// Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.
    static let arrivedWithin: Meters = 30
    /// A station is the next stop when the train more likely stops there than not.
    /// Set by hand on 2026-11-22: an even chance.
    static let nextStopChance = 0.5
    /// The answer names at most this many candidates.
    static let answerCandidates = 8
    /// The best candidate names this many stations after its focus.
    static let laterStations = 2

    /// The next station at or ahead of `along` where the hypothesis's train more likely stops than not.
    func nextStop(of hypothesis: Hypothesis, from along: Meters) -> (station: Int, position: Meters)? {
        let chance = hypothesis.patterns.stopChance
        return nextStation(on: hypothesis, from: along) { chance.indices.contains($0) && chance[$0] >= Self.nextStopChance }
    }

    /// The nearest station of the hypothesis's railway, by its index there, at (within
    /// `FocusRule.nowRadius`) or ahead of `along` for which `counts` holds, and where it lies.
    func nextStation(on hypothesis: Hypothesis, from along: Meters, where counts: (Int) -> Bool)
        -> (station: Int, position: Meters)?
    {
        let positions = model.network.stationAlongTrack[hypothesis.line.railway]
        var best: (station: Int, position: Meters, ahead: Meters)?
        for (index, position) in positions.enumerated() where counts(index) {
            let here = hypothesis.walk.separation(along, position) <= FocusRule.nowRadius
            let ahead = here ? 0 : hypothesis.walk.distanceAhead(from: along, to: position)
            guard here || ahead > 0 else { continue }
            if best.map({ ahead < $0.ahead }) ?? true { best = (index, position, ahead) }
        }
        return best.map { ($0.station, $0.position) }
    }

    /// The scheduled train the hypothesis follows most likely, with its delay, when it
    /// follows any.
    private func followedTrain(of hypothesis: Hypothesis) -> (label: TripLabel, trip: TripCandidate)? {
        var best: TripCandidate?
        for candidate in hypothesis.trains.trips where best.map({ candidate.logWeight > $0.logWeight }) ?? true {
            best = candidate
        }
        guard let best, let label = model.timetable.tripNames[line: hypothesis.line, trip: Int(best.trip)] else {
            return nil
        }
        return (label, best)
    }

    /// How long the followed train `followed` of `line` has left to station `slot` from
    /// `along` at `time`, by its timetable: its published arrival there (its departure less
    /// `PassageEvidence.dwell`, or its arrival where it ends) less its published time here
    /// (so a delay that grew since the last station counts), or, between no two of its
    /// calls, its arrival plus the delay it has shown; nil when it does not call there.
    func scheduledRemaining(
        of followed: TripCandidate, on line: LineDirection, at slot: Int, from along: Meters, walk: TrackWalk, time: Timestamp
    ) -> Seconds? {
        let trips = model.trips[line: line]
        guard trips.indices.contains(Int(followed.trip)) else { return nil }
        let trip = trips[Int(followed.trip)]
        let published: Seconds
        if let departure = trip.departure(at: slot) {
            published = departure - PassageEvidence.dwell
        } else if let arrival = trip.arrival, Int(arrival.slot) == slot {
            published = Seconds(arrival.time)
        } else {
            return nil
        }
        let clock = time.secondsSince1970 - followed.origin
        let positions = model.network.stationAlongTrack[line.railway]
        if let here = trip.time(
            at: along, positions: positions, walk: walk, near: clock - followed.delay, profile: parameters.runs),
            here <= published
        {
            return published - here
        }
        return published + followed.delay - clock
    }

    /// How long the last trains of `line` that called at the followed train's stop before
    /// station `slot` and then there took from `out` metres before it to arriving (the median
    /// of the latest few), by the operator's feeds (`RecentRuns`); nil without feeds, or with
    /// no such run within `RecentRuns.reach`.
    func lastRunRemaining(of followed: TripCandidate, on line: LineDirection, at slot: Int, out: Meters, time: Timestamp)
        -> Seconds?
    {
        guard parameters.lastRunShare > 0, let runs = live?.runs else { return nil }
        let trips = model.trips[line: line]
        guard trips.indices.contains(Int(followed.trip)) else { return nil }
        guard let before = trips[Int(followed.trip)].callSlot(before: slot) else { return nil }
        return runs.remaining(on: line, into: slot, from: before, out: out, excluding: followed.trip, at: time)
    }

    /// The focus by the now/soon/next rule: within 200 m of a station, 500 m before the next.
    /// The same rule as the ground truth; past the last station, the last station is `now`.
    private func focus(of line: LineDirection, walk: TrackWalk, at along: Meters) -> (station: Int, phase: FocusPhase) {
        let focus = FocusRule.focus(
            positions: model.network.stationAlongTrack[line.railway],
            inTrackOrder: model.network.stationsInTrackOrder[line.railway], walk: walk, at: along)
        return focus.map { ($0.station, $0.phase) } ?? (0, .now)
    }

    /// The ranked answer, `held` first if it is still a placed hypothesis, and the line of the
    /// first candidate.
    func answer(at time: Timestamp, speed: MetersPerSecond, estimated: Bool, held: LineDirection?) -> (
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
            guard top.count < Self.answerCandidates || value > rank(top[top.count - 1]) else { continue }
            let line = hypotheses[index].line
            let position =
                top.firstIndex { value > rank($0) || (value == rank($0) && line < hypotheses[$0].line) } ?? top.count
            top.insert(index, at: position)
            if top.count > Self.answerCandidates { top.removeLast() }
        }
        if let held, slots[line: held] >= 0, hypotheses[Int(slots[line: held])].along != nil {
            let index = Int(slots[line: held])
            top.removeAll { $0 == index }
            top.insert(index, at: 0)
            if top.count > Self.answerCandidates { top.removeLast() }
        }
        let network = model.network
        // Services not yet told apart: the next stop shown is one all of them make next.
        let possible = possibleServices(normaliser: normaliser)
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
            let later = isBest ? model.stations(after: focus.station, on: line, limit: Self.laterStations) : []
            let stop =
                !isBest
                ? nil
                : possible.count > 1
                    ? sharedStop(of: possible, on: hypotheses[index], from: along) : nextStop(of: hypotheses[index], from: along)
            let train = isBest ? followedTrain(of: hypotheses[index]) : nil
            var eta: Timestamp?
            if let stop {
                var distance = max(0, walk.distanceAhead(from: along, to: stop.position))
                // At the stop, just past its mark: arriving now, not a lap of a loop later.
                if distance > FocusRule.nowRadius, walk.separation(along, stop.position) <= FocusRule.nowRadius { distance = 0 }
                let cruise = min(max(speed, Self.slowestCruise), Self.fastestTrain)
                eta = time.adding(distance < Self.arrivedWithin ? 0 : distance / cruise + cruise / Self.brakingAllowance)
                // A followed train: its timetable and delay, no sooner than its fastest run there.
                if distance >= Self.arrivedWithin, let train,
                    var remaining = scheduledRemaining(
                        of: train.trip, on: line, at: stop.station, from: along, walk: walk, time: time)
                {
                    // And the runs the last trains with the same two stops made from here.
                    if let run = lastRunRemaining(of: train.trip, on: line, at: stop.station, out: distance, time: time) {
                        remaining += parameters.lastRunShare * (run - remaining)
                    }
                    eta = time.adding(max(remaining, distance / Self.fastestTrain))
                }
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
                    trainTypeID: isBest ? hypotheses[index].patterns.trainTypeID : nil,
                    confidence: normaliser > 0 ? Double.exp(hypotheses[index].score) / normaliser : nil,
                    trainID: train?.label.id, train: train?.label.name, delaySeconds: train?.trip.delay))
        }
        let undecided = possible.count > 1 ? possible.map(\.service) : []
        return (
            TrackingResult(candidates: candidates, estimated: estimated, undecided: undecided),
            top.first.map { hypotheses[$0].line }
        )
    }
}
