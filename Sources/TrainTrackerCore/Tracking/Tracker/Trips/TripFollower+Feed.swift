import RealModule

/// The operator's word as evidence: what a GTFS-realtime feed says of each trip (its delay,
/// whether it is cancelled) weighs that trip's delays, as a fix weighs its places. A trip the
/// feed does not mention is weighed as before: a feed that reports some trains says nothing
/// of the others.
extension TripFollower {
    /// How far a train's delay at a fix lies from the delay its feed reported (seconds, a
    /// Laplace's scale): a feed's delay is its last stop's, up to a feed's age old.
    /// Set by hand: a minute, the feeds' own rounding and a stop's dwell; not fitted (the shared
    /// days have no operator's feed of their own, only one made from the same positions).
    static let feedDelayScale: Seconds = 60
    /// The share of a feed's reports that are wrong about a trip (a delay from a stale
    /// prediction, a trip id given to another train, a cancelled trip that ran).
    /// Set by hand: one in fifty, so that a feed settles a ride in a few fixes but a wrong
    /// report does not end one at once.
    static let feedWrongShare = 0.02
    /// How widely a feed's reported delays spread for a train the rider is not known to be on
    /// (seconds): a report that matches the fixes' delay is this many feed scales likelier on
    /// the rider's train than on any train (`weighFeed`).
    /// Set by hand: ten minutes, about the spread of Caltrain's delays on an ordinary day.
    static let feedDelaySpan: Seconds = 600

    /// The trip at index `trip` weighed by the feed `live`'s report of it, with the fix's `weight`: a
    /// cancelled trip by `feedWrongShare`, a late or early one at each delay by how likely its
    /// report is if the rider is on it at that delay (a Laplace of `feedDelayScale` about the
    /// delay, or a wrong report) against how likely it is anyway (spread over
    /// `feedDelaySpan`): where the feed and the fixes agree a trip gains, where they disagree
    /// it loses, down to `feedWrongShare`; a trip the feed does not report keeps its belief.
    /// A report from riders (`TripReport.fromRiders`) is not the operator's: it weighs nothing.
    ///
    /// - Complexity: O(cells of the trip).
    mutating func weighFeed(_ live: LiveTrips, weight: Double, trip index: Int) {
        let key = followed[index].key
        guard let report = live.trip(key.trip, of: key.lineDirection, origin: key.origin), report.informs else { return }
        if report.cancelled {
            followed[index].scale(by: tempered(Self.feedWrongShare, weight))
            return
        }
        guard let delay = report.delay, delay.isFinite else { return }
        let low = followed[index].low
        for cell in followed[index].mass.indices {
            let gap = abs(Double(low + cell) * parameters.gridStep - delay)
            followed[index].scale(cell: cell, by: tempered(feedLikelihood(gap: gap), weight))
        }
    }

    /// How much likelier a report is `gap` seconds from a train's delay than anyway: a Laplace
    /// of `feedDelayScale` or a wrong report, against a spread of `feedDelaySpan`.
    func feedLikelihood(gap: Seconds) -> Double {
        let wrong = Self.feedWrongShare
        let peak = Self.feedDelaySpan / (2 * Self.feedDelayScale)
        return wrong + (1 - wrong) * peak * Double.exp(-gap / Self.feedDelayScale)
    }
}
