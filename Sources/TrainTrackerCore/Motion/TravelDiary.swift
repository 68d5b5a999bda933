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
    /// When it began: the last fix of the leg before (the phone left somewhere between that
    /// fix and the next), or the day's first fix.
    public var start: Timestamp
    /// When it ended (its last fix).
    public var end: Timestamp
    /// How.
    public var mode: LegMode
    /// Its fixes, in time order, from the fix it starts at.
    public var fixes: [Location]

    /// Where its fixes are.
    public var path: [Coordinate] { fixes.map(\.coordinate) }

    /// Seconds.
    public var duration: Seconds { end.seconds(since: start) }
    /// Metres along its fixes.
    public var distance: Meters { zip(path, path.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) } }
}

/// Segments a day of fixes (and activity-recognition samples) into stays and trips, with a
/// mode per leg:
/// 1. each fix is labelled from the recognised activity and the Kalman-smoothed speed;
/// 2. labels are smoothed over their neighbours;
/// 3. a gap between fixes crossed faster than on foot is a ride, whatever its ends say (a
///    metro under ground leaves no fixes);
/// 4. runs of one label become legs, short legs join their neighbours, and short halts inside
///    a trip (a bus at a stop) stay part of it;
/// 5. a vehicle leg that starts and ends at rail stations, or whose fixes are poor and sparse
///    (under ground, or inside a rail car), is rail.
///
/// Legs tile the day: each starts at the last fix of the one before.
///
/// - Complexity: O(n · s) for n fixes and s rail stations (O(n) without stations), plus
///   O(n · m) for m merges of short legs.
public enum TravelDiary {
    enum Label: Equatable { case still, walking, vehicle }

    /// A run of fixes `first ... last` of one label.
    struct Run: Equatable {
        var label: Label
        var first: Int
        var last: Int
    }

    /// The legs of one phone's day.
    public static func legs(
        fixes: [Location], activities: [ActivityReading], railStations: [Coordinate] = [], railLines: [RailLine] = [],
        settings: DiarySettings = .standard
    ) -> [DiaryLeg] {
        let railStations = railStations + railLines.flatMap(\.stations).map(\.coordinate)
        let fixes = fixes.sorted { $0.timestamp < $1.timestamp }
        guard !fixes.isEmpty else { return [] }
        var labels = smoothed(labels(fixes, activities: activities, settings: settings), neighbours: settings.smoothingNeighbours)
        for index in hiddenRides(fixes, settings: settings) { labels[index] = .vehicle }
        let runs = merged(runs(labels), fixes: fixes, settings: settings)
        return runs.indices.map { index in
            let run = runs[index]
            let from = index == 0 ? run.first : runs[index - 1].last
            let leg = fixes[from...run.last]
            var mode: LegMode =
                switch run.label {
                case .still: .stay
                case .walking: .walking
                case .vehicle: .vehicle
                }
            if mode == .vehicle, isRail(leg, railStations: railStations, railLines: railLines, settings: settings) {
                mode = .rail
            }
            return DiaryLeg(start: leg[from].timestamp, end: leg[run.last].timestamp, mode: mode, fixes: Array(leg))
        }
    }

    /// 1. A label per fix.
    static func labels(_ fixes: [Location], activities: [ActivityReading], settings: DiarySettings) -> [Label] {
        let activities = activities.sorted { $0.timestamp < $1.timestamp }
        var filter = KalmanSpeedFilter()
        var next = 0
        var recognised: ActivityReading?
        return fixes.map { fix in
            while next < activities.count, activities[next].timestamp <= fix.timestamp {
                recognised = activities[next]
                next += 1
            }
            let speed = filter.update(fix).speed
            let kind = recognised.flatMap {
                fix.timestamp.seconds(since: $0.timestamp) <= settings.activityFreshness ? $0.kind : nil
            }
            if speed > settings.vehicleSpeed { return .vehicle }
            switch kind {
            case .automotive: return .vehicle
            case .walking, .running, .cycling: return .walking
            case .stationary: return .still
            case .unknown, nil:
                return speed > settings.unrecognisedVehicleSpeed ? .vehicle : speed > settings.walkingSpeed ? .walking : .still
            }
        }
    }

    /// 2. The commonest label among each fix and its neighbours, the fix's own on a tie.
    static func smoothed(_ labels: [Label], neighbours: Int) -> [Label] {
        labels.indices.map { index in
            let window = labels[max(0, index - neighbours)...min(labels.count - 1, index + neighbours)]
            let counts = [Label.still, .walking, .vehicle].map { label in (label, window.filter { $0 == label }.count) }
            let best = counts.max { $0.1 < $1.1 }?.1 ?? 0
            return counts.first { $0.1 == best && $0.0 == labels[index] }?.0 ?? counts.first { $0.1 == best }?.0 ?? labels[index]
        }
    }

    /// 3. The fixes that end a gap crossed too fast for feet: at least `hiddenRideGap` long and
    /// faster than `hiddenRideSpeed` even if both fixes were off by their whole accuracy.
    static func hiddenRides(_ fixes: [Location], settings: DiarySettings) -> [Int] {
        fixes.indices.dropFirst().filter { index in
            let before = fixes[index - 1]
            let after = fixes[index]
            let gap = after.timestamp.seconds(since: before.timestamp)
            guard gap >= settings.hiddenRideGap else { return false }
            let slack = max(0, before.horizontalAccuracy ?? 0) + max(0, after.horizontalAccuracy ?? 0)
            return (before.coordinate.distance(to: after.coordinate) - slack) / gap > settings.hiddenRideSpeed
        }
    }

    /// Runs of one label.
    static func runs(_ labels: [Label]) -> [Run] {
        var runs: [Run] = []
        for (index, label) in labels.enumerated() {
            if let last = runs.last, last.label == label {
                runs[runs.count - 1].last = index
            } else {
                runs.append(Run(label: label, first: index, last: index))
            }
        }
        return runs
    }

    /// 4. Short runs join a neighbour; short halts between legs of one mode join them.
    static func merged(_ runs: [Run], fixes: [Location], settings: DiarySettings) -> [Run] {
        var runs = runs
        // A run lasts from the last fix of the run before to its own last fix.
        func duration(_ index: Int) -> Seconds {
            let from = index == 0 ? runs[index].first : runs[index - 1].last
            return fixes[runs[index].last].timestamp.seconds(since: fixes[from].timestamp)
        }
        var changed = true
        while changed, runs.count > 1 {
            changed = false
            for index in runs.indices {
                let isShort = duration(index) < settings.shortestLeg
                let isHalt =
                    runs[index].label == .still && duration(index) < settings.shortestStay && index > 0
                    && index + 1 < runs.count && runs[index - 1].label == runs[index + 1].label
                guard isShort || isHalt else { continue }
                if index > 0 {
                    runs[index - 1].last = runs[index].last
                } else {
                    runs[index + 1].first = runs[index].first
                }
                runs.remove(at: index)
                runs = joined(runs)
                changed = true
                break
            }
        }
        return runs
    }

    /// How far from a station a halt is not at the station.
    /// Set by hand on 2026-11-24, not among the cross-validated thresholds; the reason for 300 m is
    /// not recorded.
    static let haltStationDistance: Meters = 300

    /// How many times the fixes halt (see ``RailLineNaming/halts(in:)``) farther than
    /// `haltStationDistance` from every station.
    static func halts(_ fixes: ArraySlice<Location>, awayFrom stations: [Coordinate]) -> Int {
        RailLineNaming.halts(in: fixes).filter { halt in
            !stations.contains { $0.distance(to: halt.coordinate) <= haltStationDistance }
        }.count
    }

    /// Neighbouring runs of one label as one.
    static func joined(_ runs: [Run]) -> [Run] {
        var joined: [Run] = []
        for run in runs {
            if let last = joined.last, last.label == run.label {
                joined[joined.count - 1].last = run.last
            } else {
                joined.append(run)
            }
        }
        return joined
    }

    /// 5. Rail: from station to station (with lines: on a line that joins them, halting little
    /// away from stations), or under ground or inside a steel car (the phone sees little sky:
    /// poor or sparse fixes).
    static func isRail(_ leg: ArraySlice<Location>, railStations: [Coordinate], railLines: [RailLine], settings: DiarySettings)
        -> Bool
    {
        guard let first = leg.first, let last = leg.last else { return false }
        if !railStations.isEmpty,
            railStations.contains(where: { $0.distance(to: first.coordinate) <= settings.stationReach }),
            railStations.contains(where: { $0.distance(to: last.coordinate) <= settings.stationReach }),
            railLines.isEmpty
                || (RailLineNaming.name(Array(leg), lines: railLines, reach: settings.stationReach) != nil
                    && halts(leg, awayFrom: railStations) < settings.railHaltsAway)
        {
            return true
        }
        let minutes = last.timestamp.seconds(since: first.timestamp) / 60
        let accuracies = leg.compactMap(\.horizontalAccuracy).filter { $0 >= 0 }.sorted()
        let median = accuracies.isEmpty ? 0 : accuracies[accuracies.count / 2]
        return median >= settings.railAccuracy || (minutes >= 2 && Double(leg.count) / minutes < settings.railFixesPerMinute)
    }
}
