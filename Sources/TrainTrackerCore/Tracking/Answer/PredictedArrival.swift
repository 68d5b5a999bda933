/// When the train is predicted to reach a stop ahead: a central time and the interval the
/// arrival likely falls in ("Millbrae 17:42, 17:41–17:44").
///
/// The trip model gives them for its believed trip (`TripTracker`), at every call ahead to the
/// trip's end, from its belief over the trip's delay and how that delay may still change
/// before the train gets there.
public struct PredictedArrival: Hashable, Sendable, Codable {
    /// The station's id.
    public var stationID: String
    /// The central prediction: the median of the arrival's distribution.
    public var time: Timestamp
    /// The interval: its 10th percentile ...
    public var earliest: Timestamp
    /// ... and its 90th.
    public var latest: Timestamp
    /// When the timetable has the train there (the call's published time; nil: not told).
    public var scheduled: Timestamp?

    /// A prediction; `earliest` and `latest` are taken in order around `time`.
    public init(stationID: String, time: Timestamp, earliest: Timestamp, latest: Timestamp, scheduled: Timestamp? = nil) {
        self.stationID = stationID
        self.time = time
        self.earliest = min(earliest, time)
        self.latest = max(latest, time)
        self.scheduled = scheduled
    }
}

/// How late a followed train runs now, as the trip model believes: its delay's 10th, 50th and
/// 90th percentiles, in seconds (negative: early). "2–4 min late".
public struct DelayPercentiles: Hashable, Sendable, Codable {
    /// The 10th percentile ...
    public var low: Seconds
    /// ... the median ...
    public var median: Seconds
    /// ... and the 90th.
    public var high: Seconds

    /// Percentiles `low`, `median`, `high`, taken in order.
    public init(low: Seconds, median: Seconds, high: Seconds) {
        self.median = median
        self.low = min(low, median)
        self.high = max(high, median)
    }
}

extension TrackingCandidate {
    /// The predicted arrival at `stationID` (the rider's destination, say), if it is one of
    /// the stops ahead: what an app shows first, before the next few.
    ///
    ///     if let mine = best.arrival(at: "70061") { print(mine.time, mine.earliest, mine.latest) }
    ///
    /// - Complexity: O(a) for the a arrivals.
    public func arrival(at stationID: String) -> PredictedArrival? {
        arrivals.first { $0.stationID == stationID }
    }
}
