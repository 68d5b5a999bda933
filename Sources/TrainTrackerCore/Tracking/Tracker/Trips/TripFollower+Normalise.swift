import RealModule

/// Step 4 of the trip model: the beliefs sum to one again, and what is too small to matter is
/// dropped (cells under `pruneRatio` of the largest at a trip's ends, trips under `tripFloor`
/// of the trips' belief).
extension TripFollower {
    /// Step 4: the beliefs sum to one again; small ones are dropped.
    mutating func normalise() {
        let total = followed.reduce(offTimetable + (platform?.share ?? 0)) { $0 + $1.total }
        guard total > 0, total.isFinite else {
            // Nothing explains the fix: start afresh at the next.
            followed = []
            platform = nil
            offTimetable = onlyTrip == nil ? 1 : 0
            logLikelihood += -50
            return
        }
        logLikelihood += Double.log(total)
        offTimetable /= total
        if let share = platform?.share {
            platform?.share = share / total
            // (Gone once the rider is surely on a train again.)
            if share / total < Self.pruneRatio { platform = nil }
        }
        let largest = followed.reduce(0) { max($0, $1.mass.max() ?? 0, $1.standing.max() ?? 0) } / total
        let floor = largest * Self.pruneRatio
        for index in followed.indices {
            var trip = followed[index]
            followed[index].mass = []  // (so the arrays are changed in place, not copied)
            followed[index].standing = []
            Self.prune(&trip, total: total, floor: floor)
            followed[index] = trip
        }
        // (Against the trips' own total, not the belief's: while "on no trip" explains the
        // fixes, the trips it outweighs are kept, and so is what it learnt.)
        let floorOfTrips = followed.reduce(0) { $0 + $1.total } * Self.tripFloor
        followed.removeAll { $0.mass.isEmpty || $0.total < floorOfTrips }
    }

    /// `trip`'s belief divided by `total`, its cells below `floor` at either end dropped (its
    /// standing cells dropped whole once none is above the floor).
    private static func prune(_ trip: inout Followed, total: Double, floor: Double) {
        for cell in trip.mass.indices { trip.mass[cell] /= total }
        for cell in trip.standing.indices { trip.standing[cell] /= total }
        let kept = { (cell: Int) in trip.value(at: cell) > floor }
        let first = trip.mass.indices.first(where: kept) ?? trip.mass.count
        let last = trip.mass.indices.last(where: kept) ?? -1
        guard first <= last else {
            trip.mass = []
            trip.standing = []
            return
        }
        trip.mass = Array(trip.mass[first...last])
        if !trip.standing.isEmpty {
            trip.standing = Array(trip.standing[first...last])
            if !trip.standing.contains(where: { $0 > floor }) { trip.standing = [] }
        }
        trip.low += first
    }
}
