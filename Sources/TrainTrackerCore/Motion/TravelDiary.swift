/// How a leg of a day was spent.
public enum LegMode: String, CaseIterable, Hashable, Sendable {
    /// In one place.
    case stay
    /// On foot (or by bike).
    case walking
    /// In a road vehicle, or on rails the diary could not tell.
    case vehicle
    /// On a train or metro: a vehicle leg between two rail stations.
    case rail
}

/// One leg of a travel diary.
public struct DiaryLeg: Hashable, Sendable {
    /// When it began (its first fix).
    public var start: Timestamp
    /// When it ended (its last fix).
    public var end: Timestamp
    /// How.
    public var mode: LegMode
    /// Its fixes, in time order.
    public var path: [Coordinate]

    /// Seconds.
    public var duration: Seconds { end.seconds(since: start) }
    /// Metres along its fixes.
    public var distance: Meters { zip(path, path.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) } }
}

/// Segments a day of fixes (and activity-recognition samples) into stays and trips, with a
/// mode per leg: each fix is labelled from the recognised activity and the Kalman-smoothed
/// speed, labels are smoothed over their neighbours, runs become legs, short legs join
/// their neighbours, short halts inside a trip (a bus at a stop) stay part of it, and a
/// vehicle leg that starts and ends at rail stations, or whose fixes are poor and sparse
/// (under ground, or inside a rail car), is rail.
///
/// - Complexity: O(n · s) for n fixes and s rail stations (O(n) without stations).
public enum TravelDiary {
    /// The shortest leg kept, seconds.
    public static let shortestLeg: Seconds = 60
    /// A standing spell shorter than this between two legs of one mode is part of them.
    public static let shortestStay: Seconds = 180
    /// How close to a rail station a rail leg starts and ends.
    public static let stationReach: Meters = 400

    /// A vehicle leg whose fixes have a median accuracy this poor, or come this rarely (per
    /// minute), is on rails: a metro under ground, or a train whose steel body hides the sky.
    public static let railAccuracy: Meters = 25
    /// Fixes per minute below which a vehicle leg counts as on rails (see `railAccuracy`).
    public static let railFixesPerMinute = 3.0

    private enum Label: Equatable { case still, walking, vehicle }

    private static func seesLittleSky(_ fixes: ArraySlice<Location>) -> Bool {
        guard let first = fixes.first, let last = fixes.last else { return false }
        let minutes = last.timestamp.seconds(since: first.timestamp) / 60
        let accuracies = fixes.compactMap(\.horizontalAccuracy).sorted()
        let median = accuracies.isEmpty ? 0 : accuracies[accuracies.count / 2]
        return median >= railAccuracy || (minutes >= 2 && Double(fixes.count) / minutes < railFixesPerMinute)
    }

    /// The legs of one phone's day.
    public static func legs(fixes: [Location], activities: [ActivityReading], railStations: [Coordinate] = []) -> [DiaryLeg] {
        let fixes = fixes.sorted { $0.timestamp < $1.timestamp }
        guard !fixes.isEmpty else { return [] }
        let activities = activities.sorted { $0.timestamp < $1.timestamp }
        var filter = KalmanSpeedFilter()
        var next = 0
        var recognised: ActivityReading?
        // 1. A label per fix.
        var labels: [Label] = fixes.map { fix in
            while next < activities.count, activities[next].timestamp <= fix.timestamp {
                recognised = activities[next]
                next += 1
            }
            let speed = filter.update(fix).speed
            let kind = recognised.flatMap { fix.timestamp.seconds(since: $0.timestamp) <= 60 ? $0.kind : nil }
            if speed > 8 { return .vehicle }
            switch kind {
            case .automotive: return .vehicle
            case .walking, .running, .cycling: return .walking
            case .stationary: return .still
            case .unknown, nil: return speed > 5 ? .vehicle : speed > 0.7 ? .walking : .still
            }
        }
        // 2. Smoothed: the commonest label among each fix and its two neighbours either side.
        labels = labels.indices.map { index in
            let window = labels[max(0, index - 2)...min(labels.count - 1, index + 2)]
            let counts = [Label.still, .walking, .vehicle].map { label in (label, window.filter { $0 == label }.count) }
            let best = counts.max { $0.1 < $1.1 }?.1 ?? 0
            return counts.first { $0.1 == best && $0.0 == labels[index] }?.0 ?? counts.first { $0.1 == best }?.0 ?? labels[index]
        }
        // 3. Runs.
        var runs: [(label: Label, first: Int, last: Int)] = []
        for (index, label) in labels.enumerated() {
            if let last = runs.last, last.label == label {
                runs[runs.count - 1].last = index
            } else {
                runs.append((label, index, index))
            }
        }
        func duration(_ run: (label: Label, first: Int, last: Int)) -> Seconds {
            let end = run.last + 1 < fixes.count ? fixes[run.last + 1].timestamp : fixes[run.last].timestamp
            return end.seconds(since: fixes[run.first].timestamp)
        }
        // 4. Short runs join a neighbour; short halts between legs of one mode join them.
        var changed = true
        while changed, runs.count > 1 {
            changed = false
            for index in runs.indices {
                let run = runs[index]
                let isShort = duration(run) < shortestLeg
                let isHalt =
                    run.label == .still && duration(run) < shortestStay && index > 0 && index + 1 < runs.count
                    && runs[index - 1].label == runs[index + 1].label
                guard isShort || isHalt else { continue }
                if index > 0 {
                    runs[index - 1].last = run.last
                } else {
                    runs[index + 1].first = run.first
                }
                runs.remove(at: index)
                // Neighbours of one label become one run.
                var merged: [(label: Label, first: Int, last: Int)] = []
                for item in runs {
                    if let last = merged.last, last.label == item.label {
                        merged[merged.count - 1].last = item.last
                    } else {
                        merged.append(item)
                    }
                }
                runs = merged
                changed = true
                break
            }
        }
        // 5. Legs, with rail where a vehicle leg runs between stations.
        return runs.map { run in
            let path = fixes[run.first...run.last].map(\.coordinate)
            var mode: LegMode =
                switch run.label {
                case .still: .stay
                case .walking: .walking
                case .vehicle: .vehicle
                }
            if mode == .vehicle, !railStations.isEmpty, let first = path.first, let last = path.last,
                railStations.contains(where: { $0.distance(to: first) <= stationReach }),
                railStations.contains(where: { $0.distance(to: last) <= stationReach })
            {
                mode = .rail
            }
            // Under ground or inside a steel rail car the phone sees little sky: poor and sparse fixes.
            if mode == .vehicle, Self.seesLittleSky(fixes[run.first...run.last]) { mode = .rail }
            return DiaryLeg(start: fixes[run.first].timestamp, end: fixes[run.last].timestamp, mode: mode, path: path)
        }
    }
}
