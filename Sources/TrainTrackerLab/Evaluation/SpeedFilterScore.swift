import TrainTrackerCore

/// How a speed filter did on simulated sessions, against the true speed.
public struct SpeedFilterScore: Hashable, Sendable {
    /// The filter.
    public var filter: SpeedFilterName
    /// Fixes compared.
    public var fixes = 0
    /// Sum of squared errors, m²/s², for the root mean square.
    public var squaredError = 0.0
    /// Stops reported while the train was moving (no true stop within 10 s).
    public var falseStops = 0
    /// Hours of true movement the fixes cover.
    public var movingHours = 0.0
    /// True stops of at least 10 s, and the seconds each took to be reported (nil: missed).
    public var stopDelays: [Seconds?] = []

    /// An empty score.
    public init(filter: SpeedFilterName) { self.filter = filter }

    /// Root mean square error of the smoothed speed, m/s.
    public var rootMeanSquareError: Double { fixes == 0 ? 0 : (squaredError / Double(fixes)).squareRoot() }
    /// False stops per hour of movement.
    public var falseStopsPerHour: Double { movingHours == 0 ? 0 : Double(falseStops) / movingHours }
    /// The stops reported, and their delays sorted.
    private var delays: [Seconds] { stopDelays.compactMap { $0 }.sorted() }
    /// The median delay from a true stop to the filter's, seconds.
    public var medianStopDelay: Seconds? { delays.isEmpty ? nil : delays[delays.count / 2] }
    /// The 90th percentile of that delay.
    public var stopDelay90: Seconds? { delays.isEmpty ? nil : delays[min(delays.count - 1, delays.count * 9 / 10)] }
    /// True stops never reported.
    public var missedStops: Int { stopDelays.filter { $0 == nil }.count }

    /// Runs `filter` over one session's `fixes` and adds the comparison with `truth`.
    ///
    /// - Complexity: O(n log n) in the number of fixes.
    public mutating func add(fixes recorded: [RecordedFix], truth: [TruthFix]) {
        var speedFilter = filter.makeFilter()
        let truthByID = Dictionary(truth.map { ($0.locationID, $0) }, uniquingKeysWith: { first, _ in first })
        let timeline = truth.sorted { $0.time < $1.time }
        var estimates: [(time: Double, stopped: Bool)] = []
        var previousStopped = false
        var previousTime: Double?
        for fix in recorded {
            let estimate = speedFilter.update(fix.location)
            guard let actual = truthByID[fix.id] else { continue }
            fixes += 1
            squaredError += (estimate.speed - actual.speed) * (estimate.speed - actual.speed)
            if let previousTime, actual.speed > 0.3 { movingHours += (actual.time - previousTime) / 3_600 }
            previousTime = actual.time
            if estimate.isStopped, !previousStopped, !Self.stopNear(actual.time, in: timeline) { falseStops += 1 }
            previousStopped = estimate.isStopped
            estimates.append((actual.time, estimate.isStopped))
        }
        // True stops: the train standing (true speed below 0.1 m/s) for at least 10 s.
        var index = 0
        while index < timeline.count {
            guard timeline[index].speed < 0.1 else {
                index += 1
                continue
            }
            var end = index
            while end + 1 < timeline.count, timeline[end + 1].speed < 0.1 { end += 1 }
            let (start, finish) = (timeline[index].time, timeline[end].time)
            // Only stops that follow movement (not the wait before the first departure).
            if finish - start >= 10, index > 0 {
                let reported = estimates.first { $0.time >= start && $0.time <= finish && $0.stopped }
                stopDelays.append(reported.map { $0.time - start })
            }
            index = end + 1
        }
    }

    /// Whether the truth shows the train standing within 10 s of `time`.
    private static func stopNear(_ time: Double, in timeline: [TruthFix]) -> Bool {
        timeline.contains { abs($0.time - time) <= 10 && $0.speed < 0.3 }
    }
}
