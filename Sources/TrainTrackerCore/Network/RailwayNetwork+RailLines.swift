extension RailwayNetwork {
    /// A network of metro and commuter-rail `lines` (such as `docs/helsinki/rail-lines-2016.json`),
    /// one railway per line, its track cut from the one of `shapes` that fits its stations
    /// (`ShapeFit`; HSL's rail and metro shapes), else drawn straight from station to station:
    /// such a file carries no track geometry, so a straight track is off by up to a few hundred
    /// metres on a curve. No stretch is marked underground.
    ///
    /// A ring line (first station = last, Helsinki's I and P) becomes two railways, split at its
    /// station farthest from the start (near the airport, where the trains' signs change), the
    /// halves sharing a few stations either side, so that positions along each track grow with
    /// its stations. A line that runs
    /// another line's stations in reverse order is that railway's other direction (P is I the
    /// other way round): its direction is named after it. Directions are named "K to Kerava".
    /// Lines of one name (the metro's two branches) are told apart by their end stations. A
    /// station's id is its railway's id, `/` and its code (`RailLineRailways.code(ofStationID:)`).
    ///
    ///     let network = try RailwayNetwork(lines: RailLinesFile.lines(path: ..., stationList: ...))
    ///
    /// - Throws: `NetworkError` as `init(railways:stations:)` does (a line with a station
    ///   listed twice in a row is a duplicate station).
    /// - Complexity: O(l · s) for l lines of s stations.
    public init(lines: [RailLine], shapes: [[Coordinate]] = []) throws(NetworkError) {
        let built = RailLineRailways(lines: lines, shapes: shapes)
        try self.init(railways: built.railways, stations: built.stations)
    }
}

/// The railways and stations of a network of rail lines (see `RailwayNetwork.init(lines:)`).
public struct RailLineRailways: Sendable {
    /// One railway per line or half of a ring line, lines run the other way round merged in.
    public var railways: [Railway] = []
    /// Each railway's stations.
    public var stations: [Station] = []
    /// For each railway id, what its line is ("train", "metro").
    public var kinds: [String: String] = [:]
    /// The railways whose track no shape fitted, drawn straight from station to station (all
    /// of them when no shapes are given).
    public var straight: [String] = []

    /// The railway of a metro line, for drawing (HSL's metro orange).
    static let metroColor = "#FF6319"
    /// The railway of a commuter-rail line (HSL's commuter-rail purple).
    static let trainColor = "#8C4799"

    /// A line, or half of a ring line, before it is a railway.
    private struct Part {
        var line: String
        var kind: String
        var stations: [RailStation]
        var bothWays: Bool
        var reverseLine: String?

        var codes: [String] { stations.map(\.code) }
    }

    /// Builds the railways of `lines`, their track cut from the one of `shapes` that fits
    /// (`ShapeFit.track(through:shapes:)`), else straight from station to station.
    ///
    /// - Complexity: O(l · s) for l lines of s stations, plus O(l · m) for shapes of m
    ///   vertices in all.
    public init(lines: [RailLine], shapes: [[Coordinate]] = []) {
        var parts: [Part] = []
        // Parts by their station codes: a twin run the other way round, or the same line again.
        var byCodes: [[String]: [Int]] = [:]
        for line in lines {
            for stations in Self.halves(of: line.stations) {
                let part = Part(line: line.name, kind: line.kind, stations: stations, bothWays: line.bothWays)
                let codes = part.codes
                if let twin = byCodes[codes.reversed(), default: []].first(where: { parts[$0].reverseLine == nil }) {
                    parts[twin].reverseLine = line.name
                } else if !byCodes[codes, default: []].contains(where: { parts[$0].line == part.line }) {
                    byCodes[codes, default: []].append(parts.count)
                    parts.append(part)
                }
            }
        }
        let bases = parts.map(Self.baseName(of:))
        var baseCounts: [String: Int] = [:]
        for base in bases { baseCounts[base, default: 0] += 1 }
        for (index, part) in parts.enumerated() {
            let base = bases[index]
            guard let first = part.stations.first, let last = part.stations.last else { continue }
            let id = (baseCounts[base] ?? 0) > 1 ? "\(base) \(first.name)–\(last.name)" : base
            var stationIDs: [String] = []
            for station in part.stations {
                let stationID = "\(id)/\(station.code)"
                stationIDs.append(stationID)
                stations.append(Station(id: stationID, railwayID: id, name: station.name, coordinate: station.coordinate))
            }
            let reverse = part.reverseLine ?? (part.bothWays ? part.line : nil)
            let coordinates = part.stations.map(\.coordinate)
            let fitted = ShapeFit.track(through: coordinates, shapes: shapes)
            if fitted == nil { straight.append(id) }
            let track = Track(pieces: [(fitted ?? coordinates, false)])
            railways.append(
                Railway(
                    id: id, name: id, color: part.kind == "metro" ? Self.metroColor : Self.trainColor, stationIDs: stationIDs,
                    ascendingName: "\(part.line) to \(last.name)", descendingName: "\(reverse ?? part.line) to \(first.name)",
                    track: track))
            kinds[id] = part.kind
        }
    }

    /// The station code of a station id of such a network ("K/PSL" → "PSL").
    public static func code(ofStationID stationID: String) -> String {
        guard let slash = stationID.lastIndex(of: "/") else { return stationID }
        return String(stationID[stationID.index(after: slash)...])
    }

    /// The halves of a ring line share this many stations either side of where it is split, so
    /// that a ride across the split (Tikkurila to the airport) lies on one railway.
    public static let ringOverlap = 2

    /// A ring (first station = last, more than three stations) split at its station farthest
    /// from the first, the halves overlapping by `ringOverlap` stations; any other line whole.
    private static func halves(of stations: [RailStation]) -> [[RailStation]] {
        guard stations.count > 3, let first = stations.first, first.code == stations.last?.code else { return [stations] }
        let inner = stations.indices.dropFirst().dropLast()
        guard
            let far = inner.max(by: {
                stations[$0].coordinate.distance(to: first.coordinate) < stations[$1].coordinate.distance(to: first.coordinate)
            })
        else { return [stations] }
        // Each half reaches up to `ringOverlap` stations past the split, but never to a station
        // it already has (a ring that passes a station on its way out and back).
        var end = far
        var seen = Set(stations[...far].map(\.code))
        while end < far + ringOverlap, end + 1 < stations.count - 1, seen.insert(stations[end + 1].code).inserted { end += 1 }
        var start = far
        seen = Set(stations[far...].map(\.code))
        while start > far - ringOverlap, start - 1 > 0, seen.insert(stations[start - 1].code).inserted { start -= 1 }
        return [Array(stations[...end]), Array(stations[start...])]
    }

    /// "K", or "I/P" for a line merged with the one that runs it the other way round.
    private static func baseName(of part: Part) -> String {
        guard let reverse = part.reverseLine, reverse != part.line else { return part.line }
        return "\(part.line)/\(reverse)"
    }
}
