import TrainTrackerCore

/// One phone's recorded day, as the diary reads it.
public struct DiaryDay: Sendable {
    /// The phone's number in the log.
    public var device: Int
    /// Its fixes.
    public var fixes: [Location]
    /// Its recognised activities.
    public var activities: [ActivityReading]

    /// A day.
    public init(device: Int, fixes: [Location], activities: [ActivityReading]) {
        self.device = device
        self.fixes = fixes
        self.activities = activities
    }
}

/// Chooses the diary's thresholds on some phones and scores them on others, so that a figure
/// reported for a phone never comes from thresholds chosen on it.
///
/// The search is coordinate descent from ``DiarySettings/untuned``: each threshold in turn takes the
/// candidate value with the most logged legs found, plus those of the right kind, less the
/// spurious vehicle legs, on the chosen phones (the current value on a tie), for a few passes.
public enum DiaryTuning {
    /// A threshold and the values tried for it.
    public struct Threshold: Sendable {
        /// Its name in ``DiarySettings``.
        public var name: String
        /// The candidates.
        public var values: [Double]
        /// Reads it.
        public var get: @Sendable (DiarySettings) -> Double
        /// Sets it.
        public var set: @Sendable (inout DiarySettings, Double) -> Void
    }

    /// Every threshold of ``DiarySettings``, with its candidates.
    public static let thresholds: [Threshold] = [
        threshold("vehicleSpeed", [6, 8, 10, 12], \.vehicleSpeed),
        threshold("unrecognisedVehicleSpeed", [3, 5, 7], \.unrecognisedVehicleSpeed),
        threshold("walkingSpeed", [0.5, 0.7, 1], \.walkingSpeed),
        threshold("activityFreshness", [30, 60, 120], \.activityFreshness),
        Threshold(
            name: "smoothingNeighbours", values: [1, 2, 3], get: { Double($0.smoothingNeighbours) },
            set: { $0.smoothingNeighbours = Int(exactly: $1) ?? 2 }),
        threshold("shortestLeg", [30, 60, 90], \.shortestLeg),
        threshold("shortestStay", [120, 180, 300], \.shortestStay),
        threshold("hiddenRideGap", [30, 60, 120], \.hiddenRideGap),
        threshold("hiddenRideSpeed", [2, 3, 4, 6], \.hiddenRideSpeed),
        threshold("stationReach", [200, 300, 400, 600], \.stationReach),
        Threshold(
            name: "railHaltsAway", values: [1, 2, 3, 1_000], get: { Double($0.railHaltsAway) },
            set: { $0.railHaltsAway = Int(exactly: $1) ?? 2 }),
        threshold("railAccuracy", [15, 20, 25, 35, 50], \.railAccuracy),
        threshold("railFixesPerMinute", [1, 2, 3, 4], \.railFixesPerMinute),
    ]

    private static func threshold(_ name: String, _ values: [Double], _ path: WritableKeyPath<DiarySettings, Double> & Sendable)
        -> Threshold
    {
        Threshold(name: name, values: values, get: { $0[keyPath: path] }, set: { $0[keyPath: path] = $1 })
    }

    /// The vehicle legs of `legs` as a log would list them.
    public static func vehicleLegs(_ legs: [DiaryLeg], device: Int) -> [LoggedLeg] {
        legs.filter { $0.mode == .vehicle || $0.mode == .rail }.map { leg in
            LoggedLeg(
                device: device, start: leg.start, end: leg.end, kind: leg.mode == .rail ? .rail : .road, label: leg.mode.rawValue)
        }
    }

    /// How `settings` score on `days` against the legs `log` lists for them.
    public static func score(
        _ settings: DiarySettings, days: [DiaryDay], log: [LoggedLeg], railStations: [Coordinate], railLines: [RailLine] = []
    ) -> DiaryScore {
        let detected = days.flatMap { day in
            vehicleLegs(
                TravelDiary.legs(
                    fixes: day.fixes, activities: day.activities, railStations: railStations, railLines: railLines,
                    settings: settings),
                device: day.device)
        }
        let devices = Set(days.map(\.device))
        return DiaryScore(detected: detected, log: log.filter { devices.contains($0.device) })
    }

    /// The thresholds that score best on `days`.
    public static func tuned(
        on days: [DiaryDay], log: [LoggedLeg], railStations: [Coordinate], railLines: [RailLine] = [],
        from start: DiarySettings = .untuned, passes: Int = 3
    ) -> DiarySettings {
        func merit(_ settings: DiarySettings) -> Int {
            let score = score(settings, days: days, log: log, railStations: railStations, railLines: railLines)
            return score.found + score.rightKind - score.spurious
        }
        var best = start
        var bestMerit = merit(best)
        for _ in 0..<passes {
            var improved = false
            for threshold in thresholds {
                for value in threshold.values where value != threshold.get(best) {
                    var candidate = best
                    threshold.set(&candidate, value)
                    let candidateMerit = merit(candidate)
                    if candidateMerit > bestMerit {
                        (best, bestMerit, improved) = (candidate, candidateMerit, true)
                    }
                }
            }
            if !improved { break }
        }
        return best
    }

    /// One half of the phones, and what thresholds chosen on it score on the other half.
    public struct Fold: Sendable {
        /// The phones the thresholds were chosen on.
        public var chosenOn: [Int]
        /// The phones they were scored on.
        public var scoredOn: [Int]
        /// The thresholds chosen.
        public var settings: DiarySettings
        /// Their score on the phones they were chosen on.
        public var chosenScore: DiaryScore
        /// Their score on the other phones.
        public var heldOutScore: DiaryScore
    }

    /// Two halves of the phones with about as many logged legs each: phones by logged legs,
    /// most first, each to the half with fewer legs so far (the lower number on a tie).
    public static func halves(of devices: [Int], log: [LoggedLeg]) -> ([Int], [Int]) {
        let counts = Dictionary(grouping: log, by: \.device).mapValues(\.count)
        var first: [Int] = []
        var second: [Int] = []
        var totals = (0, 0)
        for device in devices.sorted(by: { (counts[$0] ?? 0, -$0) > (counts[$1] ?? 0, -$1) }) {
            if totals.0 <= totals.1 {
                first.append(device)
                totals.0 += counts[device] ?? 0
            } else {
                second.append(device)
                totals.1 += counts[device] ?? 0
            }
        }
        return (first.sorted(), second.sorted())
    }

    /// Thresholds chosen on each half and scored on the other.
    public static func crossValidated(
        days: [DiaryDay], log: [LoggedLeg], railStations: [Coordinate], railLines: [RailLine] = [], halves: ([Int], [Int])
    ) -> [Fold] {
        [(halves.0, halves.1), (halves.1, halves.0)].map { chosenOn, scoredOn in
            let chosenDays = days.filter { chosenOn.contains($0.device) }
            let scoredDays = days.filter { scoredOn.contains($0.device) }
            let settings = tuned(on: chosenDays, log: log, railStations: railStations, railLines: railLines)
            return Fold(
                chosenOn: chosenOn, scoredOn: scoredOn, settings: settings,
                chosenScore: score(settings, days: chosenDays, log: log, railStations: railStations, railLines: railLines),
                heldOutScore: score(settings, days: scoredDays, log: log, railStations: railStations, railLines: railLines))
        }
    }
}
