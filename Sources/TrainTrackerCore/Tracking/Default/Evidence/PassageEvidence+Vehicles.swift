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
}
