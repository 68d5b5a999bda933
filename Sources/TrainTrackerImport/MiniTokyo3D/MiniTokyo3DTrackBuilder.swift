import TrainTrackerCore

/// Builds railway tracks from the sublines of `coordinates.json`: `main` (and `hybrid`, at
/// full detail) sublines are drawn as given; `sub` sublines run along the already built
/// track of another railway (or a `Base.` track), shifted sideways by their offset, and move
/// from one base to another over `interpolate` steps when their ends name different bases.
struct MiniTokyo3DTrackBuilder {
    /// One unit of `offset` in metres (at the finest zoom).
    static let offsetUnit: Meters = 6.25
    /// The offsets a `sub` subline may have, in units of `offsetUnit`: ±1 km sideways (the
    /// dataset's own run from −4 to 3).
    static let offsetRange: ClosedRange<Double> = -Double(largestOffset)...Double(largestOffset)
    /// The largest offset either way, in units.
    static let largestOffset = 160
    /// The most points a subline moving between two bases may be drawn with (its
    /// `interpolate`); the dataset's own are 20.
    static let maximumInterpolationPoints = 10_000

    let path: String
    private let entries: [String: MiniTokyo3D.Track]
    private var built: [String: [(coordinates: [Coordinate], isUnderground: Bool)]] = [:]
    private var polylines: [String: Polyline] = [:]

    init(path: String, tracks: [MiniTokyo3D.Track]) {
        self.path = path
        self.entries = Dictionary(tracks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The pieces of track of `id`, each with its underground flag.
    ///
    /// - Throws: `ImportError` for an unknown or circular base, a railway without sublines, a
    ///   subline without coordinates, an offset outside `offsetRange` or an `interpolate`
    ///   beyond `maximumInterpolationPoints`.
    mutating func pieces(of id: String) throws(ImportError) -> [(coordinates: [Coordinate], isUnderground: Bool)] {
        try build(id, chain: [])
    }

    private mutating func build(_ id: String, chain: [String]) throws(ImportError) -> [(
        coordinates: [Coordinate], isUnderground: Bool
    )] {
        if let done = built[id] { return done }
        guard let entry = entries[id] else {
            throw ImportError(file: path, location: chain.last.map { "railway '\($0)'" }, problem: "no track for '\(id)'")
        }
        guard !chain.contains(id) else {
            throw ImportError(
                file: path, location: "railway '\(id)'",
                problem: "its track is built on itself (\((chain + [id]).joined(separator: " → ")))")
        }
        var pieces: [(coordinates: [Coordinate], isUnderground: Bool)] = []
        for (number, subline) in entry.sublines.enumerated() {
            let location = "railway '\(id)', subline \(number + 1)"
            let points = try coordinates(subline.coords, location: location)
            let isUnderground = (subline.altitude ?? entry.altitude ?? 0) < 0
            switch subline.type {
            case "main", "hybrid":
                guard points.count >= 2 else {
                    throw ImportError(
                        file: path, location: location, field: "coords", problem: "a track needs at least two points")
                }
                pieces.append((points, isUnderground))
            case "sub":
                guard let start = subline.start, let startRailway = start.railway, let first = points.first,
                    let last = points.last
                else {
                    throw ImportError(
                        file: path, location: location, field: "start",
                        problem: "a sub subline needs a start railway and coordinates")
                }
                let startBase = try basePolyline(startRailway, chain: chain + [id])
                let startOffset = try offset(start, field: "start.offset", location: location)
                var along = try alongBase(startBase, from: first, to: last, offset: startOffset)
                if let end = subline.end, let endRailway = end.railway, endRailway != startRailway {
                    let endBase = try basePolyline(endRailway, chain: chain + [id])
                    let other = try alongBase(
                        endBase, from: first, to: last, offset: try offset(end, field: "end.offset", location: location))
                    let steps = subline.interpolate ?? 2
                    guard steps <= Self.maximumInterpolationPoints else {
                        throw ImportError(
                            file: path, location: location, field: "interpolate",
                            problem: "\(steps) points; at most \(Self.maximumInterpolationPoints)")
                    }
                    along = blend(along, other, steps: max(2, steps))
                }
                pieces.append((along, isUnderground))
            default:
                throw ImportError(
                    file: path, location: location, field: "type", problem: "unknown subline type '\(subline.type)'")
            }
        }
        // Polyline and Track need a vertex: a railway of no sublines has no track at all.
        guard pieces.contains(where: { !$0.coordinates.isEmpty }) else {
            throw ImportError(
                file: path, location: "railway '\(id)'", field: "sublines", problem: "no sublines; a track needs at least one")
        }
        built[id] = pieces
        return pieces
    }

    /// The sideways offset of an anchor, in units of `offsetUnit`.
    private func offset(_ anchor: MiniTokyo3D.Anchor, field: String, location: String) throws(ImportError) -> Double {
        let value = anchor.offset ?? 0
        guard let offset = value.within(Self.offsetRange) else {
            throw ImportError(
                file: path, location: location, field: field,
                problem: "\(value) is not an offset of -\(Self.largestOffset) to \(Self.largestOffset) units")
        }
        return offset
    }

    private mutating func basePolyline(_ id: String, chain: [String]) throws(ImportError) -> Polyline {
        if let polyline = polylines[id] { return polyline }
        let pieces = try build(id, chain: chain)
        let polyline = Track(pieces: pieces).polyline
        polylines[id] = polyline
        return polyline
    }

    /// The stretch of `base` between the points nearest `first` and `last`, in that order,
    /// shifted `offset` units to the right of the base's own direction.
    private func alongBase(_ base: Polyline, from first: Coordinate, to last: Coordinate, offset: Double) throws(ImportError)
        -> [Coordinate]
    {
        guard let start = base.projection(of: first)?.alongTrack, let end = base.projection(of: last)?.alongTrack else {
            return [first, last]
        }
        let forward = base.slice(from: min(start, end), to: max(start, end)).offset(by: offset * Self.offsetUnit)
        return end < start ? forward.reversed() : forward
    }

    /// A line moving from `from` to `to`: point `i` of `steps` lies `i / (steps - 1)` of the way across.
    private func blend(_ from: [Coordinate], _ to: [Coordinate], steps: Int) -> [Coordinate] {
        guard from.count >= 2, to.count >= 2 else { return from.count >= 2 ? from : to }
        let a = Polyline(from).resampled(count: steps)
        let b = Polyline(to).resampled(count: steps)
        return (0..<steps).map { index in
            let weight = Double(index) / Double(steps - 1)
            return Coordinate(
                latitude: a[index].latitude + (b[index].latitude - a[index].latitude) * weight,
                longitude: a[index].longitude + (b[index].longitude - a[index].longitude) * weight
            )
        }
    }

    private func coordinates(_ pairs: [[Double]], location: String) throws(ImportError) -> [Coordinate] {
        var result: [Coordinate] = []
        result.reserveCapacity(pairs.count)
        for (index, pair) in pairs.enumerated() {
            let coordinate = pair.count >= 2 ? Coordinate(latitude: pair[1], longitude: pair[0]) : nil
            guard let coordinate, coordinate.isValid else {
                throw ImportError(
                    file: path, location: location, field: "coords[\(index)]", problem: "not a [longitude, latitude] pair")
            }
            result.append(coordinate)
        }
        return result
    }
}
