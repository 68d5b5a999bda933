/// Fits a line's stations, in their order, to track shapes (a GTFS feed's `shapes.txt`, HSL's
/// rail and metro shapes as GeoJSON): the track a line runs between its first and last station.
///
///     let track = ShapeFit.track(through: stations.map(\.coordinate), shapes: shapes)
public enum ShapeFit {
    /// A station farther than this from a shape is not on it. Set by hand: HSL's 2022 shapes
    /// pass within 2–160 m of most of Helsinki's stations, but Digitraffic's coordinates of
    /// the Ring Rail's stations (Leinelä to Vehkala, the airport among them) lie 390–800 m off
    /// the track. Among shapes that fit, the nearest on average wins, so a parallel line's
    /// shape within reach loses to the line's own.
    public static let stationReach: Meters = 1_000

    /// How a shape fits a line's stations: where along it each lies, and how far off.
    public struct Fit: Sendable {
        /// The shape, in the direction of the stations.
        public var shape: Polyline
        /// Metres along `shape` of each station, never decreasing.
        public var alongs: [Meters]
        /// The farthest a station lies from the shape.
        public var worstDistance: Meters
        /// The stations' mean distance from the shape.
        public var meanDistance: Meters

        /// The shape cut from the first station to the last.
        public var track: [Coordinate] {
            guard let first = alongs.first, let last = alongs.last else { return [] }
            return shape.slice(from: first, to: last)
        }
    }

    /// The track through `stations` cut from the shape (either way round) that fits them best:
    /// every station within `stationReach`, in order, the smallest mean distance; `nil` when no
    /// shape does.
    ///
    /// - Complexity: O(m · n) for m shapes of n vertices in all.
    public static func track(through stations: [Coordinate], shapes: [[Coordinate]]) -> [Coordinate]? {
        bestFit(of: stations, among: shapes)?.track
    }

    /// The best fit of `stations` among `shapes`, either way round (see `track(through:shapes:)`).
    public static func bestFit(of stations: [Coordinate], among shapes: [[Coordinate]]) -> Fit? {
        guard stations.count >= 2 else { return nil }
        var best: Fit?
        for shape in shapes where shape.count >= 2 {
            for candidate in [shape, shape.reversed()] {
                guard let fit = fit(stations, on: candidate) else { continue }
                if best.map({ fit.meanDistance < $0.meanDistance }) ?? true { best = fit }
            }
        }
        return best
    }

    /// Where along `shape` each of `stations` lies, walking it forward: each station at the
    /// nearest point of the first stretch within `stationReach` after the last station, so a
    /// ring that passes a station twice (out and back) places it on the passage in order.
    /// `nil` when a station has no such stretch, or the line would not move along the shape.
    ///
    /// - Complexity: O(n + s) for a shape of n vertices and s stations.
    public static func fit(_ stations: [Coordinate], on shape: [Coordinate]) -> Fit? {
        guard stations.count >= 2, shape.count >= 2 else { return nil }
        let polyline = Polyline(shape)
        let lengths = polyline.cumulativeLengths
        var edge = 0
        var fromFraction = 0.0
        var alongs: [Meters] = []
        var worst: Meters = 0
        var total: Meters = 0
        for station in stations {
            guard let nearest = nearestAhead(of: station, on: shape, edge: edge, fraction: fromFraction) else { return nil }
            edge = nearest.edge
            fromFraction = nearest.fraction
            alongs.append(lengths[edge] + (lengths[edge + 1] - lengths[edge]) * nearest.fraction)
            worst = max(worst, nearest.distance)
            total += nearest.distance
        }
        guard let first = alongs.first, let last = alongs.last, last > first else { return nil }
        return Fit(shape: polyline, alongs: alongs, worstDistance: worst, meanDistance: total / Double(stations.count))
    }

    /// The nearest point to `station` on the first stretch of `shape` within `stationReach`
    /// from `edge` and `fraction` of it on.
    private static func nearestAhead(of station: Coordinate, on shape: [Coordinate], edge start: Int, fraction: Double) -> (
        edge: Int, fraction: Double, distance: Meters
    )? {
        let projection = LocalProjection(origin: station)
        var found: (edge: Int, fraction: Double, distance: Meters)?
        var edge = start
        var from = projection.vector(to: shape[edge])
        while edge < shape.count - 1 {
            let to = projection.vector(to: shape[edge + 1])
            let step = to - from
            let squared = step.dot(step)
            var t = squared > 0 ? min(max(-from.dot(step) / squared, 0), 1) : 0
            if edge == start { t = max(t, fraction) }
            let distance = (from + step * t).length
            if distance <= stationReach {
                if found.map({ distance < $0.distance }) ?? true { found = (edge, t, distance) }
            } else if found != nil {
                break
            }
            from = to
            edge += 1
        }
        return found
    }
}
