import TrainTrackerCore

/// A way for the recorder to ask for fixes on a train: the fast-vehicle mode's accuracy and
/// interval, the speed that starts it, and the actively-moving mode's interval.
public struct BudgetChoice: Hashable, Sendable {
    /// The accuracy asked for in `inFastVehicle`: metres.
    public var accuracy: Meters
    /// Seconds between fixes in `inFastVehicle`.
    public var interval: Seconds
    /// The speed at which the phone is taken to be in a fast vehicle.
    public var fastSpeed: MetersPerSecond
    /// Seconds between fixes in `activelyMoving` (satellites, as the settings ask).
    public var activeInterval: Seconds

    /// A choice.
    public init(accuracy: Meters, interval: Seconds, fastSpeed: MetersPerSecond, activeInterval: Seconds = 1) {
        self.accuracy = accuracy
        self.interval = interval
        self.fastSpeed = fastSpeed
        self.activeInterval = activeInterval
    }

    /// `base` with this choice, the fast-vehicle mode priced by `power`.
    public func settings(_ base: TrackingModeSettings, power: LocationPowerModel) -> TrackingModeSettings {
        var settings = base
        settings.desiredAccuracy[.inFastVehicle] = accuracy
        settings.fixInterval[.inFastVehicle] = interval
        settings.milliwatts[.inFastVehicle] = power.milliwatts(interval: interval, accuracy: accuracy)
        settings.fastSpeed = fastSpeed
        settings.fixInterval[.activelyMoving] = activeInterval
        settings.milliwatts[.activelyMoving] = power.milliwatts(
            interval: activeInterval, accuracy: settings.desiredAccuracy[.activelyMoving] ?? 10)
        return settings
    }
}

/// A mode's request: how accurately and how often.
public struct FixRequest: Hashable, Sendable {
    /// Metres.
    public var accuracy: Meters
    /// Seconds.
    public var interval: Seconds

    /// A request.
    public init(accuracy: Meters, interval: Seconds) {
        self.accuracy = accuracy
        self.interval = interval
    }

    /// What `settings` ask for in `mode`.
    public init(_ settings: TrackingModeSettings, _ mode: TrackingMode) {
        self.init(accuracy: settings.desiredAccuracy[mode] ?? 10, interval: settings.fixInterval[mode] ?? 1)
    }
}

/// How well the tracker does with what one choice delivers, and what it costs.
public struct BudgetPoint: Hashable, Sendable {
    /// The choice.
    public var choice: BudgetChoice
    /// Rides scored.
    public var rides: Int
    /// Energy over the rides against satellites always on at a fix a second, 0 ... 1.
    public var energyShare: Double
    /// The share of the rides' time spent in the fast-vehicle mode.
    public var fastVehicleShare: Double
    /// Fixes delivered per ride-minute.
    public var fixesPerMinute: Double
    /// The share of scored seconds whose latest answer named the true railway.
    public var railwayAccuracy: Double
    /// ... and the true next stop (±20 s).
    public var nextStopAccuracy: Double
}

/// Tracking on a battery budget: each ride is fed to the tracker as the recorder's modes would
/// deliver it, and scored every second of the ride (from 90 s after departure) by the answer
/// the rider sees then: the one after the latest fix. Between sparse fixes that answer grows
/// old, and a stale next stop counts as wrong.
public enum BudgetStudy {
    /// Fixes after departure that are not scored (the tracker is still learning).
    public static let warmUp: Seconds = 90
    /// A next stop counts when the truth shows it within this many seconds.
    public static let tolerance: Seconds = 20

    /// Scores `choice` on rides simulated under every request it makes: `rides[request]` holds
    /// the same rides in the same order for each; the one-second satellite request
    /// (`reference`) gives the scoring grid.
    public static func point(
        _ choice: BudgetChoice, base: TrackingModeSettings, power: LocationPowerModel, rides: [FixRequest: [SimulatedCase]],
        reference: FixRequest, makeTracker: () -> any TrackingAlgorithm
    ) -> BudgetPoint? {
        let settings = choice.settings(base, power: power)
        guard let grid = rides[reference] else { return nil }
        var totals = (rides: 0, scored: 0, railway: 0, nextStop: 0, fixes: 0)
        var (energy, reference, fast, minutes) = (0.0, 0.0, 0.0, 0.0)
        // The same ride under each request: the same train leaving at the same time.
        func key(_ ride: SimulatedCase) -> String { "\(ride.truth.trainID)@\(ride.truth.departure)" }
        var byKey: [FixRequest: [String: SimulatedCase]] = [:]
        for mode in TrackingMode.allCases {
            let request = FixRequest(settings, mode)
            byKey[request] = Dictionary((rides[request] ?? []).map { (key($0), $0) }, uniquingKeysWith: { first, _ in first })
        }
        for ride in grid {
            var streams: [TrackingMode: [RecordedFix]] = [:]
            for mode in TrackingMode.allCases {
                guard let same = byKey[FixRequest(settings, mode)]?[key(ride)] else { break }
                streams[mode] = same.fixes
            }
            guard streams.count == TrackingMode.allCases.count, let first = ride.truth.fixes.first?.time,
                let last = ride.truth.fixes.last?.time, last > first
            else { continue }
            let (fixes, transitions) = ModeDelivery.splice(streams: streams, settings: settings)
            let score = heldScore(fixes, truth: ride.truth, tracker: makeTracker())
            let spent = ModeEnergy(
                transitions: transitions, start: Timestamp(secondsSince1970: first), end: Timestamp(secondsSince1970: last),
                settings: settings)
            totals.rides += 1
            totals.scored += score.scored
            totals.railway += score.railway
            totals.nextStop += score.nextStop
            totals.fixes += fixes.count
            energy += spent.milliwattHours
            reference += power.continuousSatelliteMilliwatts * (last - first) / 3_600
            fast += spent.seconds[.inFastVehicle] ?? 0
            minutes += (last - first) / 60
        }
        guard totals.rides > 0, totals.scored > 0, reference > 0 else { return nil }
        return BudgetPoint(
            choice: choice, rides: totals.rides, energyShare: energy / reference, fastVehicleShare: fast / (minutes * 60),
            fixesPerMinute: Double(totals.fixes) / minutes, railwayAccuracy: Double(totals.railway) / Double(totals.scored),
            nextStopAccuracy: Double(totals.nextStop) / Double(totals.scored))
    }

    /// Railway and next stop right, second by second, by the answer after the latest fix.
    static func heldScore(_ fixes: [RecordedFix], truth: CaseTruth, tracker: any TrackingAlgorithm)
        -> (scored: Int, railway: Int, nextStop: Int)
    {
        var tracker = tracker
        let answers = fixes.map { (time: $0.location.timestamp.secondsSince1970, result: tracker.process($0.location)) }
        let timeline = truth.fixes.sorted { $0.time < $1.time }
        var latest = -1
        var score = (scored: 0, railway: 0, nextStop: 0)
        for actual in timeline where actual.time >= truth.departure + warmUp && actual.scored != false {
            while latest + 1 < answers.count, answers[latest + 1].time <= actual.time { latest += 1 }
            score.scored += 1
            guard latest >= 0, let best = answers[latest].result.best, best.railwayID == (actual.railwayID ?? truth.railwayID)
            else { continue }
            score.railway += 1
            let nextStop = best.nextStopID ?? best.focusStationID
            if Evaluator.window(timeline, around: actual.time, tolerance: tolerance).contains(where: { $0.nextStop == nextStop })
            {
                score.nextStop += 1
            }
        }
        return score
    }

    /// The best point within each share of the reference energy: the most accurate railway
    /// (then next stop) among the points that cost at most that share.
    public static func curve(_ points: [BudgetPoint], budgets: [Double]) -> [(budget: Double, point: BudgetPoint?)] {
        budgets.map { budget in
            (
                budget,
                points.filter { $0.energyShare <= budget }.max {
                    ($0.railwayAccuracy, $0.nextStopAccuracy) < ($1.railwayAccuracy, $1.nextStopAccuracy)
                }
            )
        }
    }

    /// The cheapest point whose railway accuracy is at least `target`.
    public static func cheapest(_ points: [BudgetPoint], railwayAtLeast target: Double) -> BudgetPoint? {
        points.filter { $0.railwayAccuracy >= target }.min { $0.energyShare < $1.energyShare }
    }
}
