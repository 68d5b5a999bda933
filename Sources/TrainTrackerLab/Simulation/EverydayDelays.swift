import RealModule
import TrainTrackerCore

/// How a simulated day's trains run against their timetable: the calls of a train as it runs,
/// and how late it leaves its first station.
public protocol TrainDelays: Sendable {
    /// How late `trainID` leaves its first station.
    func lateness(of trainID: String) -> Seconds
    /// The calls of `train` as it runs today.
    func stops(of train: TimetabledTrain) -> [TimetableStop]
}

extension Disruption: TrainDelays {}

/// An ordinary day as late as Caltrain's recorded one (`../shared/data/caltrain-2024`, 261
/// rides measured against the timetable they ran on): a train leaves its first station late
/// by a delay drawn from the recording's distribution (median 2.5 min, 90th percentile about
/// 7 min, 99th about 27 min, a few a minute early), and its delay then drifts from stop to stop
/// (a Laplace step of scale `drift`; recorded positions a minute apart change theirs by a
/// scale of 37 s, five minutes apart by 52 s: most of the change is the positions' own noise,
/// the rest a slow drift), never more than `earliest` early. A late train stays late.
///
/// The same seed gives a train the same delays in every ride that draws it.
public struct EverydayDelays: TrainDelays, Hashable {
    /// The delay a train leaves its first station with, at shares 0, 0.05, 0.2, 0.5, 0.75,
    /// 0.9, 0.95, 0.99 and 1 of the trains (linear in between), in seconds.
    public static let startQuantiles: [(share: Double, delay: Seconds)] = [
        (0, -60), (0.05, 0), (0.2, 60), (0.5, 150), (0.75, 270), (0.9, 420), (0.95, 600), (0.99, 1_620), (1, 1_800),
    ]
    /// The scale of the Laplace step a delay takes at each stop.
    public static let drift: Seconds = 20
    /// How early a train may run: it waits at its stops for the timetable beyond that.
    public static let earliest: Seconds = 60
    /// The seed of every train's delays.
    public var seed: UInt64

    /// A day of ordinarily late trains.
    public init(seed: UInt64) { self.seed = seed }

    public func lateness(of trainID: String) -> Seconds {
        var generator = SeededGenerator(seed: seed ^ MapDistortion.stableHash(trainID))
        return Self.startDelay(Double.random(in: 0...1, using: &generator))
    }

    /// The calls of `train` as it runs: its first departure late by `lateness(of:)`, each
    /// later call by that delay drifted on.
    ///
    /// - Complexity: O(n) in the number of calls.
    public func stops(of train: TimetabledTrain) -> [TimetableStop] {
        var generator = SeededGenerator(seed: seed ^ MapDistortion.stableHash(train.id))
        var delay = Self.startDelay(Double.random(in: 0...1, using: &generator))
        return train.stops.enumerated().map { index, stop in
            if index > 0 { delay = max(-Self.earliest, delay + Self.laplace(scale: Self.drift, using: &generator)) }
            var late = stop
            late.arrival = stop.arrival.map { $0 + delay }
            late.departure = stop.departure.map { $0 + delay }
            return late
        }
    }

    /// The delay at `share` of the start distribution.
    static func startDelay(_ share: Double) -> Seconds {
        let quantiles = startQuantiles
        for (lower, upper) in zip(quantiles, quantiles.dropFirst()) where share <= upper.share {
            let fraction = (share - lower.share) / max(upper.share - lower.share, .leastNonzeroMagnitude)
            return lower.delay + fraction * (upper.delay - lower.delay)
        }
        return quantiles.last?.delay ?? 0
    }

    /// A draw from a Laplace distribution of mean 0 and `scale`.
    static func laplace(scale: Double, using generator: inout SeededGenerator) -> Double {
        let uniform = Double.random(in: -0.5..<0.5, using: &generator)
        let magnitude = -scale * Double.log(max(1 - 2 * abs(uniform), 1e-12))
        return uniform < 0 ? -magnitude : magnitude
    }
}
