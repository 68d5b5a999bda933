import Algorithms

/// Where a point projects onto a polyline.
public struct PolylineProjection: Hashable, Sendable {
    /// The index of the edge (from vertex `edge` to `edge + 1`) holding the nearest point.
    public var edge: Int
    /// Where on that edge, 0 at its first vertex and 1 at its second.
    public var fraction: Double
    /// The nearest point on the polyline.
    public var coordinate: Coordinate
    /// The distance from the projected point to `coordinate`.
    public var distance: Meters
    /// The length of polyline from its first vertex to `coordinate`.
    public var alongTrack: Meters
}

/// An ordered list of WGS-84 vertices with cumulative lengths and a spatial index,
/// answering nearest-point and along-track queries.
public struct Polyline: Sendable {
    /// The immutable arrays behind a polyline, shared by its copies: copying a polyline
    /// costs one reference count, which matters on the per-fix path.
    private final class Storage: Sendable {
        let coordinates: [Coordinate]
        let cumulativeLengths: [Meters]
        let index: PolylineIndex

        init(coordinates: [Coordinate], cumulativeLengths: [Meters]) {
            self.coordinates = coordinates
            self.cumulativeLengths = cumulativeLengths
            self.index = PolylineIndex(coordinates)
        }
    }

    private let storage: Storage

    /// The vertices, in order.
    public var coordinates: [Coordinate] { storage.coordinates }
    /// `cumulativeLengths[i]` is the length from the first vertex to vertex `i`.
    public var cumulativeLengths: [Meters] { storage.cumulativeLengths }
    private var index: PolylineIndex { storage.index }

    /// Creates a polyline; consecutive duplicate vertices are kept out.
    ///
    /// - Precondition: at least one vertex.
    /// - Complexity: O(n log n) for the spatial index.
    public init(_ coordinates: [Coordinate]) {
        precondition(!coordinates.isEmpty, "a polyline needs at least one vertex")
        var vertices: [Coordinate] = []
        vertices.reserveCapacity(coordinates.count)
        for coordinate in coordinates where coordinate != vertices.last {
            vertices.append(coordinate)
        }
        var lengths: [Meters] = [0]
        lengths.reserveCapacity(vertices.count)
        for (from, to) in zip(vertices, vertices.dropFirst()) {
            lengths.append(lengths[lengths.count - 1] + from.distance(to: to))
        }
        storage = Storage(coordinates: vertices, cumulativeLengths: lengths)
    }

    /// The total length.
    public var length: Meters { storage.cumulativeLengths[storage.cumulativeLengths.count - 1] }

    /// The same line traversed the other way.
    public func reversed() -> Polyline { Polyline(coordinates.reversed()) }

    /// The nearest point of the polyline to `coordinate`, if one lies within `maximumDistance`.
    ///
    ///     track.projection(of: fix.coordinate)?.alongTrack   // metres from the first vertex
    ///
    /// - Complexity: O(log n) expected, using the bounding-volume hierarchy.
    public func projection(of coordinate: Coordinate, within maximumDistance: Meters = .infinity) -> PolylineProjection? {
        let projection = LocalProjection(origin: coordinate)
        guard let nearest = index.nearestEdge(to: projection, within: maximumDistance, vertices: coordinates) else {
            if coordinates.count == 1 {
                let distance = coordinate.distance(to: coordinates[0])
                guard distance <= maximumDistance else { return nil }
                return PolylineProjection(edge: 0, fraction: 0, coordinate: coordinates[0], distance: distance, alongTrack: 0)
            }
            return nil
        }
        let from = coordinates[nearest.edge]
        let to = coordinates[nearest.edge + 1]
        let point = Coordinate(
            latitude: from.latitude + (to.latitude - from.latitude) * nearest.fraction,
            longitude: from.longitude + (to.longitude - from.longitude) * nearest.fraction
        )
        let edgeLength = cumulativeLengths[nearest.edge + 1] - cumulativeLengths[nearest.edge]
        return PolylineProjection(
            edge: nearest.edge,
            fraction: nearest.fraction,
            coordinate: point,
            distance: nearest.distance,
            alongTrack: cumulativeLengths[nearest.edge] + edgeLength * nearest.fraction
        )
    }

    /// The distance from `coordinate` to the nearest point of the polyline, or `nil` when
    /// it is farther than `maximumDistance`.
    ///
    /// - Complexity: O(log n) expected.
    public func distance(to coordinate: Coordinate, within maximumDistance: Meters = .infinity) -> Meters? {
        if coordinates.count == 1 {
            let distance = coordinate.distance(to: coordinates[0])
            return distance <= maximumDistance ? distance : nil
        }
        return distance(from: LocalProjection(origin: coordinate), within: maximumDistance)
    }

    /// The distance from the origin of `projection` to the polyline, or `nil` when it is
    /// farther than `maximumDistance`; lets a caller reuse one projection for many lines.
    ///
    /// - Complexity: O(log n) expected; O(1) when the whole line is farther away.
    public func distance(from projection: LocalProjection, within maximumDistance: Meters) -> Meters? {
        nearestEdge(from: projection, within: maximumDistance, hint: nil)?.distance
    }

    /// The distance and the nearest edge from the origin of `projection`, if within
    /// `maximumDistance`. `hint`, the edge nearest a moment ago, makes a moving point's
    /// query cheap; the answer does not depend on it.
    ///
    /// - Complexity: O(log n) expected; close to O(1) with a good hint.
    public func nearestEdge(from projection: LocalProjection, within maximumDistance: Meters, hint: Int?) -> (
        edge: Int, fraction: Double, distance: Meters
    )? {
        let storage = self.storage
        if storage.coordinates.count == 1 {
            let distance = projection.distance(to: storage.coordinates[0])
            return distance <= maximumDistance ? (0, 0, distance) : nil
        }
        return storage.index.nearestEdge(to: projection, within: maximumDistance, vertices: storage.coordinates, hint: hint)
            .map { ($0.edge, $0.fraction, $0.distance) }
    }

    /// The point `alongTrack` metres from the first vertex (clamped to the line) and the
    /// course of the line there, degrees clockwise from north.
    ///
    /// - Complexity: O(log n), a binary search over the cumulative lengths.
    public func point(atAlongTrack alongTrack: Meters) -> (coordinate: Coordinate, course: Degrees) {
        guard coordinates.count > 1 else { return (coordinates[0], 0) }
        let clamped = min(max(alongTrack, 0), length)
        let low = edge(atAlongTrack: clamped)
        let high = low + 1
        let from = coordinates[low]
        let to = coordinates[high]
        let edgeLength = cumulativeLengths[high] - cumulativeLengths[low]
        let fraction = edgeLength > 0 ? (clamped - cumulativeLengths[low]) / edgeLength : 0
        let coordinate = Coordinate(
            latitude: from.latitude + (to.latitude - from.latitude) * fraction,
            longitude: from.longitude + (to.longitude - from.longitude) * fraction
        )
        return (coordinate, from.bearing(to: to))
    }
}

extension Polyline {
    /// The edge holding the point `alongTrack` metres from the first vertex: positions before
    /// the line fall on the first edge, positions past it on the last.
    ///
    /// - Precondition: at least two vertices.
    /// - Complexity: O(log n).
    package func edge(atAlongTrack alongTrack: Meters) -> Int {
        let lengths = cumulativeLengths
        let firstBeyond = lengths.partitioningIndex { $0 > alongTrack }
        return min(max(firstBeyond - 1, 0), lengths.count - 2)
    }
}
