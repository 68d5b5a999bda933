import TrainTrackerCore

/// Arrival times scored as the Transit app's public ETA Accuracy Benchmark scores them: by
/// how far ahead the prediction is (its own horizon, the predicted arrival less the time it is
/// made), a prediction is right when the train arrives at most `early` seconds before the
/// predicted time or `late` seconds after it, a window that widens with the horizon; the
/// headline is the mean of the buckets' shares. A train that arrives before the predicted time
/// is the worse error (its rider is not at the door), so the window is narrower that side.
///
///     var benchmark = ArrivalBenchmark()
///     benchmark.add(predicted: 600, actual: 560, at: 300)   // 5 min ahead, 40 s early: right
///     benchmark.headline                                    // 1.0
public struct ArrivalBenchmark: Sendable, Codable, Hashable {
    /// One horizon: predictions `ahead` seconds ahead, right within `early` / `late`.
    public struct Bucket: Sendable, Codable, Hashable {
        /// The horizon, in seconds ahead (lower bound included).
        public var ahead: Range<Seconds>
        /// How much earlier than predicted the train may arrive.
        public var early: Seconds
        /// How much later than predicted it may arrive.
        public var late: Seconds
        /// Predictions scored ...
        public var predictions = 0
        /// ... and how many of them were right.
        public var right = 0

        /// Whether a train arriving `lateness` seconds after the prediction (negative: before)
        /// makes it right: within `early` before and `late` after.
        public func isRight(lateness: Seconds) -> Bool { lateness >= -early && lateness <= late }

        /// The share right, nil without predictions.
        public var share: Double? { predictions > 0 ? Double(right) / Double(predictions) : nil }
        /// `0–3 min`.
        public var label: String {
            "\(Int(flooring: ahead.lowerBound / 60, within: 0...10_000))–\(Int(flooring: ahead.upperBound / 60, within: 0...10_000)) min"
        }
    }

    /// The benchmark's four horizons: 0–3 min (30 s early, 90 s late), 3–6 (1 min, 2.5 min),
    /// 6–10 (1 min, 3.5 min), 10–15 (1.5 min, 4.5 min).
    public var buckets: [Bucket] = [
        Bucket(ahead: 0..<180, early: 30, late: 90),
        Bucket(ahead: 180..<360, early: 60, late: 150),
        Bucket(ahead: 360..<600, early: 60, late: 210),
        Bucket(ahead: 600..<900, early: 90, late: 270),
    ]

    /// An empty tally.
    public init() {}

    /// Scores one prediction of an arrival at `predicted`, made at `time`, when the train
    /// arrived at `actual` (seconds on one clock). A prediction beyond 15 minutes, or of an
    /// arrival already past, is not scored.
    public mutating func add(predicted: Seconds, actual: Seconds, at time: Seconds) {
        let horizon = predicted - time
        guard let index = buckets.firstIndex(where: { $0.ahead.contains(horizon) }) else { return }
        let lateness = actual - predicted
        buckets[index].predictions += 1
        if buckets[index].isRight(lateness: lateness) { buckets[index].right += 1 }
    }

    /// The mean of the buckets' shares (those with predictions), nil without any.
    public var headline: Double? {
        let shares = buckets.compactMap(\.share)
        return shares.isEmpty ? nil : shares.reduce(0, +) / Double(shares.count)
    }

    /// Both tallies together.
    public mutating func merge(_ other: ArrivalBenchmark) {
        for index in buckets.indices where other.buckets.indices.contains(index) {
            buckets[index].predictions += other.buckets[index].predictions
            buckets[index].right += other.buckets[index].right
        }
    }
}
