/// A ride prepared for fitting the trip model: its fixes, where each lies on the lines within
/// reach (worked out once, not once per trial of the constants), and the trip it was on.
public struct TripModelRide: Sendable {
    /// The trip's id in the timetable (a GTFS `trip_id`).
    public let tripID: String
    let fixes: [Location]
    let reach: [[TripFollower.Reach]]
    /// What the phone says of its train's motion at each fix (as `TripTracker` reads it).
    let motions: [TripFollower.Motion]

    /// `fixes` of a rider on trip `tripID`, on `model`'s network.
    ///
    /// - Complexity: O(n · r log v) for n fixes, r railways within reach, v track vertices.
    public init(fixes: [Location], tripID: String, model: TrackerModel) {
        self.tripID = tripID
        self.fixes = fixes
        reach = fixes.map { TripTracker.lines(near: $0, model: model) }
        var state = MotionState()
        motions = fixes.map { fix in
            _ = state.update(fix)
            return TripFollower.Motion(stopped: state.isStopped, speed: fix.speed)
        }
    }

    /// How many fixes it has.
    public var count: Int { fixes.count }
}

extension TripModelParameters {
    /// The log-likelihood of `ride`'s fixes under the trip model when the rider is on its trip
    /// throughout (its delay unknown, drawn from the prior and wandering): what `fit`
    /// maximises over the constants. Fixes farther than `TripTracker.reach` from the trip's
    /// track count as outliers.
    ///
    /// - Complexity: O(n · w) for n fixes and w delay cells followed.
    public func logLikelihood(of ride: TripModelRide, model: TrackerModel) -> Double {
        var follower = TripFollower(parameters: self, onlyTrip: ride.tripID)
        for index in ride.fixes.indices {
            follower.observe(ride.fixes[index], reach: ride.reach[index], motion: ride.motions[index], model: model)
        }
        return follower.logLikelihood
    }
}

extension TripModelParameters {
    /// The sum over `ride`'s fixes of the log of the belief's share on its true trip after each
    /// fix (at least `floor`), every trip of the day a candidate: how well the constants tell
    /// the ride's trip from the others, online (each fix's share uses that fix and earlier ones).
    ///
    /// - Complexity: O(n · t · w) for n fixes, t trips followed and w delay cells each.
    public func trueTripLogShare(of ride: TripModelRide, model: TrackerModel, floor: Double) -> Double {
        var follower = TripFollower(parameters: self)
        var sum = 0.0
        for index in ride.fixes.indices {
            follower.observe(ride.fixes[index], reach: ride.reach[index], motion: ride.motions[index], model: model)
            sum += Double.log(max(follower.share(ofTrip: ride.tripID, model: model), floor))
        }
        return sum
    }
}

extension TripFollower {
    /// The share of the belief on the runs of trip `tripID` (a GTFS `trip_id`).
    func share(ofTrip tripID: String, model: TrackerModel) -> Double {
        let total = followed.reduce(offTimetable) { $0 + $1.total }
        guard total > 0 else { return 0 }
        let names = model.timetable.tripNames
        let mass = followed.reduce(0.0) { sum, trip in
            return names.trip(line: trip.key.lineDirection, trip: Int(trip.key.trip), hasID: tripID) ? sum + trip.total : sum
        }
        return mass / total
    }
}
