/// A rail station a line stops at.
public struct RailStation: Hashable, Sendable {
    /// A code unique among the lines' stations ("HKI", "M:KP").
    public var code: String
    /// Its name.
    public var name: String
    /// Other names people use for it.
    public var aliases: [String]
    /// Where it is.
    public var coordinate: Coordinate

    /// A station.
    public init(code: String, name: String, aliases: [String] = [], coordinate: Coordinate) {
        self.code = code
        self.name = name
        self.aliases = aliases
        self.coordinate = coordinate
    }
}

/// A metro or commuter-rail line: the stations it stops at, in order.
public struct RailLine: Hashable, Sendable {
    /// Its name ("K", "metro").
    public var name: String
    /// What it is ("train", "metro").
    public var kind: String
    /// Its stops in order; a ring line starts and ends at one station.
    public var stations: [RailStation]
    /// Whether it runs both ways along `stations` (false for one direction of a ring).
    public var bothWays: Bool

    /// A line.
    public init(name: String, kind: String, stations: [RailStation], bothWays: Bool) {
        self.name = name
        self.kind = kind
        self.stations = stations
        self.bothWays = bothWays
    }
}

/// The line or lines a rail leg rode, and from where to where.
public struct RailLegName: Hashable, Sendable {
    /// The lines that fit it equally well ("I", "K"), by name.
    public var lines: [String]
    /// What they are ("train", "metro").
    public var kind: String
    /// Where it boarded.
    public var from: RailStation
    /// Where it left.
    public var to: RailStation

    /// "I/K Helsinki → Oulunkylä".
    public var description: String { lines.joined(separator: "/") + " " + from.name + " → " + to.name }
}

/// Names the line of a rail leg: the stations near its two ends, the line through both in the
/// leg's direction whose stops its fixes follow most closely, and, where fixes are dense enough
/// to tell, the stops it made: a line that does not stop where the leg stopped, or stops where
/// the leg ran through, fits less well (an express and a local share their tracks), and so does
/// a line much longer than the leg between the two stations (the other way round a ring).
///
/// - Complexity: O(l · s² · n) for l lines of s stations and n fixes, in the worst case.
public enum RailLineNaming {
    /// How far from a station a named leg may start or end: station entrances, long platforms
    /// and the fix before the doors closed.
    /// Set by hand on 2026-11-22 with the first diary; the reason for 400 m is not recorded.
    public static let stationReach: Meters = 400
    /// How near a station a halt (see `haltRadius`) is a stop there.
    /// Set by hand on 2026-11-24 with the rail-line naming, not among the cross-validated
    /// thresholds; the reason is not recorded.
    public static let dwellRadius: Meters = 150
    /// A leg ran through a station it came this near without a stop, if a fix came within
    /// `observedGap` of its closest approach (a sparser leg could have stopped unseen).
    /// Set by hand on 2026-11-24 with the rail-line naming, not among the cross-validated
    /// thresholds; the reason is not recorded.
    public static let passRadius: Meters = 150
    /// See `passRadius`.
    /// Set by hand on 2026-11-24 with the rail-line naming, not among the cross-validated
    /// thresholds; the reason is not recorded.
    public static let observedGap: Seconds = 15
    /// What a stop the line does not make, or a stop it makes that the leg ran through, costs.
    /// Set by hand on 2026-11-24 with the rail-line naming, not among the cross-validated
    /// thresholds; the reason is not recorded.
    public static let stopMismatch: Meters = 250
    /// Lines whose fit is this close to the best one are named together.
    /// Set by hand on 2026-11-24 with the rail-line naming, not among the cross-validated
    /// thresholds; the reason is not recorded.
    public static let ambiguity: Meters = 30
    /// A leg whose fixes lie farther than this, on average, from a line's stops is not on it.
    /// Set by hand on 2026-11-24 with the rail-line naming, not among the cross-validated
    /// thresholds; the reason is not recorded.
    public static let worstFit: Meters = 600
    /// A line is longer than the leg's fixes by up to this share (curves between fixes) ...
    /// (Set by hand on 2026-11-24 with the rail-line naming, not among the cross-validated
    /// thresholds; the reason is not recorded.)
    public static let detourShare = 1.5
    /// ... plus this much, before the extra counts against it (the other way round a ring).
    /// Set by hand on 2026-11-24 with the rail-line naming, not among the cross-validated
    /// thresholds; the reason is not recorded.
    public static let detourAllowance: Meters = 1_000

    /// The line of each of `legs` that is rail (nil for the others), by stations within
    /// `stationReach` of its ends.
    public static func names(of legs: [DiaryLeg], lines: [RailLine]) -> [RailLegName?] {
        legs.map { $0.mode == .rail ? name($0.fixes, lines: lines, reach: stationReach) : nil }
    }

    /// The line of a rail leg whose fixes are `fixes`, or nil if no line runs between stations
    /// within `reach` of its two ends.
    public static func name(_ fixes: [Location], lines: [RailLine], reach: Meters) -> RailLegName? {
        guard let first = fixes.first, let last = fixes.last, fixes.count >= 2 else { return nil }
        var stationsByCode: [String: RailStation] = [:]
        for station in lines.flatMap(\.stations) where stationsByCode[station.code] == nil {
            stationsByCode[station.code] = station
        }
        // Stops on the way: halts at the stations near the leg's two ends are boarding and leaving.
        let onTheWay = stationsByCode.values.filter {
            $0.coordinate.distance(to: first.coordinate) > reach && $0.coordinate.distance(to: last.coordinate) > reach
        }
        let onTheWayCodes = Set(onTheWay.map(\.code))
        let halts = halts(in: fixes)
        let stops = Set(
            onTheWay.filter { station in halts.contains { $0.coordinate.distance(to: station.coordinate) <= dwellRadius } }.map(
                \.code))
        let fixesLength = zip(fixes, fixes.dropFirst()).reduce(0) { $0 + $1.0.coordinate.distance(to: $1.1.coordinate) }
        var fits: [(line: RailLine, from: RailStation, to: RailStation, cost: Meters)] = []
        for line in lines {
            let stations = line.stations
            let starts = stations.indices.filter { stations[$0].coordinate.distance(to: first.coordinate) <= reach }
            let ends = stations.indices.filter { stations[$0].coordinate.distance(to: last.coordinate) <= reach }
            for start in starts {
                for end in ends where stations[start].code != stations[end].code && (line.bothWays || start < end) {
                    let ridden = start < end ? Array(stations[start...end]) : Array(stations[end...start].reversed())
                    let path = Polyline(ridden.map(\.coordinate))
                    let mean = fixes.reduce(0) { $0 + (path.distance(to: $1.coordinate) ?? worstFit) } / Double(fixes.count)
                    guard mean <= worstFit else { continue }
                    let detour = max(0, path.length - detourShare * fixesLength - detourAllowance)
                    let served = Set(ridden.map(\.code))
                    let inner = ridden.dropFirst().dropLast()
                    let unserved = stops.subtracting(served)
                    let skipped = inner.filter {
                        onTheWayCodes.contains($0.code) && !stops.contains($0.code) && ranThrough(fixes, $0.coordinate)
                    }
                    fits.append(
                        (
                            line, ridden[0], ridden[ridden.count - 1],
                            mean + detour + stopMismatch * Double(unserved.count + skipped.count)
                        ))
                }
            }
        }
        guard let best = fits.min(by: { $0.cost < $1.cost }) else { return nil }
        var names: [String] = []
        for fit in fits.sorted(by: { $0.line.name < $1.line.name })
        where fit.from.code == best.from.code && fit.to.code == best.to.code && fit.line.kind == best.line.kind
            && fit.cost <= best.cost + ambiguity && !names.contains(fit.line.name)
        {
            names.append(fit.line.name)
        }
        return RailLegName(lines: names, kind: best.line.kind, from: best.from, to: best.to)
    }

    /// A halt: fixes within this distance of the first (or its accuracy, if worse, up to
    /// `haltRadiusLimit`) ...
    /// Set by hand on 2026-11-24 with the rail-line naming, not among the cross-validated
    /// thresholds; the reason is not recorded.
    public static let haltRadius: Meters = 30
    /// See `haltRadius`.
    /// (Set by hand on 2026-11-24 with the rail-line naming, not among the cross-validated
    /// thresholds; the reason is not recorded.)
    public static let haltRadiusLimit: Meters = 60
    /// ... for at least this long.
    /// Set by hand on 2026-11-24 with the rail-line naming, not among the cross-validated
    /// thresholds; the reason is not recorded.
    public static let haltTime: Seconds = 15

    /// Where the fixes halt: the first fix of each halt.
    ///
    /// - Complexity: O(n).
    public static func halts(in fixes: some Collection<Location>) -> [Location] {
        var halts: [Location] = []
        var anchor: Location?
        var counted = false
        for fix in fixes {
            let radius = min(haltRadiusLimit, max(haltRadius, anchor?.horizontalAccuracy ?? 0))
            if let start = anchor, fix.coordinate.distance(to: start.coordinate) <= radius {
                if !counted, fix.timestamp.seconds(since: start.timestamp) >= haltTime {
                    halts.append(start)
                    counted = true
                }
            } else {
                (anchor, counted) = (fix, false)
            }
        }
        return halts
    }

    /// Whether the fixes pass `station` closely, densely enough that a stop would have shown.
    static func ranThrough(_ fixes: [Location], _ station: Coordinate) -> Bool {
        guard
            let closest = fixes.indices.min(by: {
                fixes[$0].coordinate.distance(to: station) < fixes[$1].coordinate.distance(to: station)
            }),
            fixes[closest].coordinate.distance(to: station) <= passRadius
        else { return false }
        let before = closest > 0 ? fixes[closest].timestamp.seconds(since: fixes[closest - 1].timestamp) : .infinity
        let after = closest + 1 < fixes.count ? fixes[closest + 1].timestamp.seconds(since: fixes[closest].timestamp) : .infinity
        return before <= observedGap && after <= observedGap
    }
}
