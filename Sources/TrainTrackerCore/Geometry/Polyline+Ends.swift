extension Polyline {
    /// Where `coordinate` lies along and across the polyline continued straight past each end
    /// for up to `extending` metres, or nil when it is farther than `maximumDistance` from the
    /// polyline itself.
    ///
    /// A drawn track often ends at a platform's mark while its trains stand or turn beyond it,
    /// in the station's throat or a yard: a position 200 m past the end lies 200 m *along* the
    /// track's continuation, not 200 m across it. `along` is negative before the first vertex
    /// and beyond `length` past the last; within the polyline it is `projection(of:)`'s.
    ///
    ///     // a track drawn from A to B; a fix 150 m past B, in line with the last edge
    ///     track.projectionPastEnds(of: fix, within: 500, extending: 500)   // (length + 150, 0)
    ///
    /// - Complexity: O(log n) expected, as `projection(of:within:)`.
    package func projectionPastEnds(of coordinate: Coordinate, within maximumDistance: Meters, extending: Meters)
        -> (along: Meters, across: Meters)?
    {
        guard let projection = projection(of: coordinate, within: maximumDistance) else { return nil }
        let plain = (along: projection.alongTrack, across: projection.distance)
        let vertices = coordinates
        guard vertices.count >= 2, extending > 0 else { return plain }
        let last = vertices.count - 1
        if projection.edge == 0, projection.fraction <= 0 {
            return Self.pastEnd(of: coordinate, end: vertices[0], inward: vertices[1...], extending: extending)
                .map { (-$0.beyond, $0.across) } ?? plain
        }
        if projection.edge == last - 1, projection.fraction >= 1 {
            return Self.pastEnd(
                of: coordinate, end: vertices[last], inward: vertices[..<last].reversed(), extending: extending
            ).map { (length + $0.beyond, $0.across) } ?? plain
        }
        return plain
    }

    /// How far past `end` (beyond it, up to `extending`) and how far across the track's
    /// straight continuation `coordinate` lies; the continuation's heading is from the first
    /// of `inward` (the vertices from the end inwards) that is not at the end itself. Nil when
    /// the coordinate is not past the end or every vertex is at the end.
    private static func pastEnd<Vertices: Sequence<Coordinate>>(
        of coordinate: Coordinate, end: Coordinate, inward: Vertices, extending: Meters
    ) -> (beyond: Meters, across: Meters)? {
        let frame = LocalProjection(origin: end)
        guard let toward = inward.lazy.map({ frame.vector(to: $0) }).first(where: { $0.length > 0 }),
            let inwards = toward.normalized
        else { return nil }
        let point = frame.vector(to: coordinate)
        let beyond = -point.dot(inwards)
        guard beyond > 0 else { return nil }
        let travelled = min(beyond, extending)
        let foot = PlanarVector(east: -inwards.east * travelled, north: -inwards.north * travelled)
        let across = PlanarVector(east: point.east - foot.east, north: point.north - foot.north).length
        return (travelled, across)
    }
}
