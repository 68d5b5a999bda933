extension PassageEvidence {
    /// Whether one of `trains` (an operator's placed trains of a line) is near `location`, or
    /// the feed cannot say (it places none, or one was last seen too long ago to be placed): a
    /// line whose trains the feed places, none of them near (each allowed to have run on since
    /// its report), is not the rider's.
    ///
    /// - Complexity: O(trains).
    func vehicleNear(_ location: Location, among trains: [LiveTrips.PlacedTrain]) -> Bool {
        guard vehicleAbsentCost > 0 else { return true }
        for train in trains {
            let age = abs(location.timestamp.seconds(since: train.time))
            // A train last seen too long ago may be anywhere: the line's trains are not all placed.
            guard age <= vehicleLongest else { return true }
            if location.coordinate.distance(to: train.coordinate) <= vehicleReach + vehicleRunSpeed * age { return true }
        }
        return trains.isEmpty
    }

    /// Rule 7: a line whose trains an operator's feed places, none of them near the fix, is
    /// charged `vehicleAbsentCost`, unless a train the hypothesis follows may not be reported
    /// yet (`mayBeUnreported`).
    func chargeAbsentVehicles(_ hypothesis: inout Hypothesis, _ observation: Observation) {
        guard let live = observation.live,
            !vehicleNear(observation.fix.location, among: live.placedTrains(of: hypothesis.line)),
            !mayBeUnreported(hypothesis, model: observation.model, live: live, at: observation.fix.location.timestamp)
        else { return }
        hypothesis.charge(.passages, -vehicleAbsentCost)
    }

    /// Whether one of the trains `hypothesis` follows is one no operator's feed reports now and
    /// that left its first station less than `unreportedGrace` ago, as late as the rider's
    /// position makes it (so: the rider is within that much of its scheduled run from its
    /// origin): a feed may place a train only minutes after it leaves, so its absence says
    /// nothing yet. (Riders' reports place no train, so they do not count as reports here.)
    ///
    /// - Complexity: O(followed trains).
    func mayBeUnreported(_ hypothesis: Hypothesis, model: TrackerModel, live: LiveTrips, at time: Timestamp) -> Bool {
        let trips = model.trips[line: hypothesis.line]
        return hypothesis.trains.trips.contains { candidate in
            guard trips.indices.contains(Int(candidate.trip)),
                live.trip(candidate.trip, of: hypothesis.line, origin: candidate.origin)?.informs != true,
                let left = trips[Int(candidate.trip)].secondsSinceLeaving(
                    origin: candidate.origin, delay: candidate.delay, at: time)
            else { return false }
            return left < unreportedGrace
        }
    }
}
