/// What the trip model predicts of a followed trip's arrivals: its delay now, as quantiles of
/// the belief, and how much that delay may still change before the train gets somewhere.
extension TripFollower {
    /// The 10th, 50th and 90th percentiles of trip `key`'s delay, in seconds, running and
    /// standing together; nil when the trip is not followed or holds no belief.
    ///
    /// - Complexity: O(w) for its w delay cells.
    func delayQuantiles(of key: Key) -> (low: Seconds, median: Seconds, high: Seconds)? {
        guard let trip = followed.first(where: { $0.key == key }) else { return nil }
        let total = trip.total
        guard total > 0, total.isFinite else { return nil }
        let levels = [Self.arrivalInterval.lowerBound, 0.5, Self.arrivalInterval.upperBound]
        var found: [Seconds] = []
        var cumulative = 0.0
        for cell in trip.mass.indices {
            cumulative += trip.value(at: cell)
            while found.count < levels.count, cumulative >= levels[found.count] * total {
                found.append(Double(trip.low + cell) * parameters.gridStep)
            }
        }
        // (Rounding may leave the top level a hair short of the total: the last cell.)
        let last = Double(trip.low + trip.mass.count - 1) * parameters.gridStep
        while found.count < levels.count { found.append(last) }
        return (found[0], found[1], found[2])
    }

    /// The quantiles the interval of a predicted arrival spans (`PredictedArrival`).
    /// Set by hand: the 10th to 90th percentile.
    static let arrivalInterval = 0.1...0.9

    /// How a delay may change over `ahead` seconds under the delay walk (a Laplace of scale
    /// `delayWalkScale` × √(minutes) and a drift of `delayDrift` a minute): the drift, and the
    /// walk's distance from it at the interval's quantiles (a Laplace's 90th percentile lies
    /// ln 5 scales above its centre). Holds, disruptions and stands are left out: they make a
    /// delay's tail, not its bulk.
    func delayChange(over ahead: Seconds) -> (drift: Seconds, spread: Seconds) {
        let minutes = max(ahead, 0) / 60
        let scale = parameters.delayWalkScale * minutes.squareRoot()
        return (parameters.delayDrift * minutes, scale * Self.laplaceDecileScales)
    }

    /// A Laplace's 90th percentile in scales above its centre (its 10th, below): ln 5.
    static let laplaceDecileScales = 1.6094379124341003
}
