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

    /// A prediction; `earliest` and `latest` are taken in order around `time`.
    public init(stationID: String, time: Timestamp, earliest: Timestamp, latest: Timestamp) {
        self.stationID = stationID
        self.time = time
        self.earliest = min(earliest, time)
        self.latest = max(latest, time)
    }
}
