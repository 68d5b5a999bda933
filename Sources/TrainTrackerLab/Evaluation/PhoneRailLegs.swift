import TrainTrackerCore

/// The metro and train legs of a rider's log of a day (the Helsinki dataset's
/// `manual_log.csv`), each with the phone's fixes from a minute before it left to its arrival
/// and the answers that are right for it on a network of rail lines
/// (`RailwayNetwork.init(lines:)`). These are phones, not trains: fixes come every 10 s to
/// minutes apart, from the fused provider, and underground from Wi-Fi and cell towers.
///
/// At a fix, an answer's railway and direction are right when they run from the leg's
/// boarding station to the next stop ahead of the fix with the logged line's stops in between:
/// the logged line itself, or a line no position can tell from it there (I and K between
/// Helsinki and Tikkurila; either metro branch until the branches part). Its line is right when
/// its railway is such a one in either direction; for a metro leg, any metro railway (the logs
/// name metro directions, not lines; both branches are the metro).
///
///     let legs = PhoneRailLegs(log: log, fixes: fixesByDevice, lines: lines)
///     let score = legs.legs[0].score(RailwayTracker(model: TrackerModel(network: legs.network)))
public struct PhoneRailLegs: Sendable {
    /// The network the legs are scored on.
    public var network: RailwayNetwork
    /// The logged rail legs, in log order.
    public var legs: [Leg]
    /// The railways drawn straight between stations, for want of a shape that fits them.
    public var straight: [String]

    /// Fixes from this long before a leg's logged departure are fed to the tracker: the rider
    /// on the platform, the train leaving.
    public static let lead: Seconds = 60
    /// Fixes in a leg's first two minutes are not scored (the tracker is still learning).
    public static let warmUp: Seconds = 120
    /// A logged stop that names no station is the station of the leg's kind nearest the
    /// phone's first (or last) fix of the leg, if one lies this near.
    public static let nearestStationReach: Meters = 1_000
    /// A train is past a station once this far beyond it along the track (half a long
    /// platform; a train standing at it is not past it). Set by hand.
    public static let stationPassed: Meters = 100
    /// A fix farther than this from the leg's railway has no geometric truth (next stop).
    public static let offTrack: Meters = 1_000
    /// A logged leg longer than this is a slip of the log, not a ride (the Helsinki legs take
    /// 1–27 minutes).
    public static let longestLeg: Seconds = 4 * 3_600

    /// A railway and direction, as an answer names them.
    public struct Answer: Hashable, Sendable {
        /// The railway's id.
        public var railwayID: String
        /// The direction's name.
        public var directionName: String
    }

    /// One logged leg and what is right for it.
    public struct Leg: Sendable {
        /// The log's row.
        public var logged: LoggedLeg
        /// Where the rider boarded and alighted, when known.
        public var from: RailStation?
        public var to: RailStation?
        /// The phone's fixes from `lead` before departure to arrival, in time order.
        public var fixes: [Location]
        /// "train" or "metro".
        public var kind: String
        /// The logged line's stops from boarding to alighting (nil for a metro leg: any stops).
        var pattern: [String]?
        /// Each railway of the kind in each direction, with its stations' codes in that order.
        var paths: [(answer: Answer, codes: [String])] = []
        /// Why the leg cannot be scored, if it cannot.
        public var problem: String?
        /// The railway and direction the truth along the track is measured on.
        var truth: (railway: Railway, direction: TravelDirection, stops: [(id: String, position: Meters)])?
    }

    /// The rail legs of `log` (`SUBWAY` and `TRAIN` rows) with `fixes` by device, on `lines`,
    /// their track cut from `shapes` where one fits (`RailwayNetwork.init(lines:shapes:)`).
    ///
    /// - Throws: `NetworkError` when `lines` do not form a network.
    /// - Complexity: O(legs · (fixes + railways · stations)).
    public init(log: [LoggedLeg], fixes: [Int: [Location]], lines: [RailLine], shapes: [[Coordinate]] = []) throws(NetworkError) {
        let built = RailLineRailways(lines: lines, shapes: shapes)
        straight = built.straight
        network = try RailwayNetwork(railways: built.railways, stations: built.stations)
        legs = []
        for logged in log where logged.kind == .rail {
            let kind = Self.kind(of: logged)
            let ridden = (fixes[logged.device] ?? []).filter {
                $0.timestamp.seconds(since: logged.start) >= -Self.lead && $0.timestamp <= logged.end
            }
            var leg = Self.leg(logged, kind: kind, fixes: ridden, lines: lines, built: built, network: network)
            let duration = logged.end.seconds(since: logged.start)
            if let problem = Self.problem(duration: duration, knownPhone: fixes[logged.device] != nil, device: logged.device) {
                leg.problem = problem
                leg.fixes = []
            }
            legs.append(leg)
        }
    }

    private static func leg(
        _ logged: LoggedLeg, kind: String, fixes: [Location], lines: [RailLine], built: RailLineRailways, network: RailwayNetwork
    ) -> Leg {
        let stations = lines.filter { $0.kind == kind }.flatMap(\.stations)
        let from = station(named: logged.from, among: stations, near: fixes.first?.coordinate)
        let to = station(named: logged.to, among: stations, near: fixes.last?.coordinate)
        var leg = Leg(logged: logged, from: from, to: to, fixes: fixes, kind: kind, problem: nil, truth: nil)
        guard let from, let to else {
            leg.problem = "stations not found"
            return leg
        }
        guard from.code != to.code else {
            leg.problem = "boards and alights at \(from.name)"
            return leg
        }
        if kind == "train" {
            guard let line = lines.first(where: { $0.name == logged.line && $0.kind == kind }),
                let stops = stops(of: line, from: from.code, to: to.code)
            else {
                leg.problem = "line \(logged.line ?? "?") does not run \(from.name) → \(to.name)"
                return leg
            }
            leg.pattern = stops
        }
        for railway in network.railways where built.kinds[railway.id] == kind {
            let positions = network.stationPositions(of: railway)
            for direction in TravelDirection.allCases {
                var order = Array(zip(railway.stationIDs, positions))
                if direction == .descending { order.reverse() }
                let codes = order.map { RailLineRailways.code(ofStationID: $0.0) }
                let answer = Answer(railwayID: railway.id, directionName: railway.name(of: direction))
                leg.paths.append((answer, codes))
                // The truth is measured along the first railway and direction right for the leg.
                guard leg.truth == nil, leg.runs(codes, to: to.code), let start = codes.firstIndex(of: from.code),
                    let end = codes[start...].firstIndex(of: to.code)
                else { continue }
                leg.truth = (railway, direction, order[start...end].map { (id: $0.0, position: $0.1) })
            }
        }
        if leg.truth == nil { leg.problem = "no railway runs \(from.name) → \(to.name)" }
        return leg
    }

    /// "train" for a `TRAIN` or `RAIL` row of the log, else "metro" (`SUBWAY`, `METRO`).
    public static func kind(of logged: LoggedLeg) -> String {
        let type = logged.label.uppercased()
        return type.hasPrefix("TRAIN") || type.hasPrefix("RAIL") ? "train" : "metro"
    }

    /// What makes a logged leg of `duration` seconds on phone `device` unscorable, if anything.
    static func problem(duration: Seconds, knownPhone: Bool, device: Int) -> String? {
        if duration < 0 { return "arrival before departure" }
        if duration > longestLeg { return "longer than \(Int(longestLeg / 3_600)) hours" }
        if !knownPhone { return "no phone \(device) among the sessions" }
        return nil
    }

    /// The station a log's words name, or the one nearest `coordinate` when they name none.
    ///
    /// Of several it names, the one nearest `coordinate`.
    static func station(named words: String?, among stations: [RailStation], near coordinate: Coordinate?) -> RailStation? {
        let named = words.map { words in stations.filter { RailNamingScore.names(words, $0) } } ?? []
        let candidates = named.isEmpty ? stations : named
        guard let coordinate else { return named.first }
        let nearest = candidates.min { $0.coordinate.distance(to: coordinate) < $1.coordinate.distance(to: coordinate) }
        guard let nearest, !named.isEmpty || nearest.coordinate.distance(to: coordinate) <= nearestStationReach else {
            return nil
        }
        return nearest
    }

    /// The codes of `line`'s stops from `from` to `to`, the shortest way it runs.
    static func stops(of line: RailLine, from: String, to: String) -> [String]? {
        let codes = line.stations.map(\.code)
        var best: [String]?
        for start in codes.indices where codes[start] == from {
            if let end = codes[start...].firstIndex(of: to), best.map({ end - start + 1 < $0.count }) ?? true {
                best = Array(codes[start...end])
            }
            if line.bothWays, let end = codes[...start].lastIndex(of: to), best.map({ start - end + 1 < $0.count }) ?? true {
                best = Array(codes[end...start].reversed())
            }
        }
        return best
    }
}

extension PhoneRailLegs.Leg {
    /// Whether a path of station `codes` runs from the boarding station to `target` with the
    /// logged line's stops in between.
    func runs(_ codes: [String], to target: String) -> Bool {
        guard let from, let start = codes.firstIndex(of: from.code), let end = codes[start...].firstIndex(of: target) else {
            return false
        }
        guard let pattern else { return true }
        guard let stop = pattern.firstIndex(of: target) else { return false }
        return Array(codes[start...end]) == Array(pattern[...stop])
    }

    /// Every railway and direction that is right for the whole leg.
    public var accepted: Set<PhoneRailLegs.Answer> { accepted(toward: nil) }

    /// The railways and directions right at a fix whose next stop ahead is `target` (the
    /// alighting station when unknown or still the boarding one).
    func accepted(toward target: String?) -> Set<PhoneRailLegs.Answer> {
        let ahead = target == nil || target == from?.code ? to?.code : target
        guard let ahead else { return [] }
        return Set(paths.filter { runs($0.codes, to: ahead) }.map(\.answer))
    }
}
