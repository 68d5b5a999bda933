import TrainTrackerCore

/// A disrupted day: every train runs late by `lateness` and loses `extraDwell` more at each
/// stop on the way, so its delay grows a little from station to station.
///
/// The same seed gives a train the same delays in every ride that draws it.
public struct Disruption: Hashable, Sendable {
    /// How late a train leaves its first station.
    public var lateness: ClosedRange<Seconds> = 240...1_500
    /// The time lost at each stop on top of the published dwell.
    public var extraDwell: ClosedRange<Seconds> = 0...20
    /// The seed of every train's delays.
    public var seed: UInt64

    /// A day of trains 4–25 minutes late, each losing up to 20 s more at each stop.
    public init(seed: UInt64) { self.seed = seed }

    /// How late `trainID` leaves its first station.
    public func lateness(of trainID: String) -> Seconds {
        var generator = SeededGenerator(seed: seed ^ MapDistortion.stableHash(trainID))
        return Double.random(in: lateness, using: &generator)
    }

    /// The calls of `train` as it runs: every time later by the train's lateness plus what
    /// the dwells before it lost.
    ///
    /// - Complexity: O(n) in the number of calls.
    public func stops(of train: TimetabledTrain) -> [TimetableStop] {
        var generator = SeededGenerator(seed: seed ^ MapDistortion.stableHash(train.id))
        var delay = Double.random(in: lateness, using: &generator)
        return train.stops.map { stop in
            var late = stop
            late.arrival = stop.arrival.map { $0 + delay }
            delay += Double.random(in: extraDwell, using: &generator)
            late.departure = stop.departure.map { $0 + delay }
            return late
        }
    }
}
