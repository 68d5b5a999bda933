import TrainTrackerCore

/// Where a simulated day's trains are, as an operator's feed places them: each train runs its
/// calls of the day (late as the day makes them) with the motion the simulated rides have
/// (`TimetabledRide`, on the real track when the map is distorted), so a ridden train is placed
/// where its riders are and every other train where the simulator would run it. As on
/// Caltrain's recording, a position is up to `staleness` old when the feed is made and dated
/// as of the feed.
public struct SimulatedTrainPlaces: Sendable {
    /// The most a position is behind its feed: Caltrain's recorded positions are dated when
    /// the feed was read, not when the train was there.
    public static let staleness: ClosedRange<Seconds> = 0...30

    private let generator: CaseGenerator
    private let seed: UInt64
    /// Each train's run of the day, planned once from the first calls given for it: its track,
    /// the ride and the clock (seconds after its service day's midnight) at which it starts.
    private var plans: [String: Plan?] = [:]

    private struct Plan: Sendable {
        let railway: Railway
        let ride: TimetabledRide
        let start: Seconds
    }

    /// The places of trains as `generator` runs them (its motion limits and map; the day's
    /// delays are in the calls `coordinate` is given); `seed` draws how stale each position is.
    public init(generator: CaseGenerator, seed: UInt64) {
        self.generator = generator
        self.seed = seed
    }

    /// Where `train`, running its calls as `asRun`, is placed by a feed made at `clock` (seconds
    /// after its service day's midnight): nil before its ride starts, after it ends, or for a
    /// train the network cannot place. A train is planned at its first call here: later calls
    /// for it must give the same `asRun`.
    public mutating func coordinate(of train: TimetabledTrain, asRun: [TimetableStop], at clock: Seconds) -> Coordinate? {
        let plan: Plan?
        if let planned = plans[train.id] {
            plan = planned
        } else {
            plan = Self.plan(train, asRun: asRun, generator: generator)
            plans[train.id] = plan
        }
        guard let plan else { return nil }
        var draw = SeededGenerator(seed: seed ^ MapDistortion.stableHash(train.id) ^ clock.bitPattern)
        let elapsed = clock - Double.random(in: Self.staleness, using: &draw) - plan.start
        guard elapsed >= 0, elapsed <= plan.ride.duration else { return nil }
        return plan.railway.track.polyline.point(atAlongTrack: plan.ride.state(at: elapsed).position).coordinate
    }

    private static func plan(_ train: TimetabledTrain, asRun: [TimetableStop], generator: CaseGenerator) -> Plan? {
        guard let (railway, positions, _, walk) = generator.track(of: train) else { return nil }
        let positionOf = Dictionary(zip(railway.stationIDs, positions), uniquingKeysWith: { first, _ in first })
        // A train running through onto another railway is placed on its own railway's stretch.
        let stops = asRun.compactMap { stop in positionOf[stop.stationID].map { ($0, stop.arrival, stop.departure) } }
        guard stops.count >= 2, let first = stops[0].2 ?? stops[0].1 else { return nil }
        let ride = TimetabledRide(stops: stops, walk: walk, limits: generator.limits)
        return Plan(railway: railway, ride: ride, start: first - ride.departureOffset)
    }
}
