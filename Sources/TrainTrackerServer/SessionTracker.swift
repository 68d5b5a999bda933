import TrainTrackerCore

/// What the server needs of a session's tracker: its answers, the operator's and riders' feed
/// before each fix, its evidence for the viewer, and its estimates between fixes. The default
/// tracker (the trip model over the railway tracker), or the railway tracker alone
/// (`serve --algorithm railway`).
protocol SessionTracking: LiveInformed, ExplainingTracker {
    /// The answer at `time` without a new fix.
    mutating func estimate(at time: Timestamp) -> TrackingResult
}

extension RailwayTracker: SessionTracking {}
extension TripTracker: SessionTracking {}

extension ServerSettings {
    /// A new session's tracker: the default tracker with the trip model's constants `trips`,
    /// or the railway tracker alone when `trips` is nil.
    static func makeTracker(model: TrackerModel, trips: TripModelParameters?) -> any SessionTracking {
        guard let trips else { return RailwayTracker(model: model) }
        return TripTracker(model: model, trips: trips)
    }

    /// A new session's tracker under these settings.
    func makeTracker() -> any SessionTracking { Self.makeTracker(model: model, trips: trips) }
}
