/// A ride prepared for fitting the trip model: its fixes, where each lies on the lines within
/// reach (worked out once, not once per trial of the constants), and the trip it was on.
public struct TripModelRide: Sendable {
    /// The trip's id in the timetable (a GTFS `trip_id`).
    public let tripID: String
    let fixes: [Location]
    let reach: [[TripFollower.Reach]]

    /// `fixes` of a rider on trip `tripID`, on `model`'s network.
    ///
    /// - Complexity: O(n · r log v) for n fixes, r railways within reach, v track vertices.
    public init(fixes: [Location], tripID: String, model: TrackerModel) {
        self.tripID = tripID
        self.fixes = fixes
        reach = fixes.map { TripTracker.lines(near: $0, model: model) }
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
        for (fix, reach) in zip(ride.fixes, ride.reach) { follower.observe(fix, reach: reach, model: model) }
        return follower.logLikelihood
    }
}
