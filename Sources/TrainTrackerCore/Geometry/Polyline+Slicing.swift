import Algorithms

extension Polyline {
    /// The vertices between two along-track positions, with interpolated end points, in the
    /// order from `start` to `end` (reversed when `end < start`).
    ///
    ///     base.slice(from: 1_200, to: 300)   // 900 m of the line, walked backwards
    ///
    /// - Complexity: O(k + log n) for k vertices in the slice.
    public func slice(from start: Meters, to end: Meters) -> [Coordinate] {
        let low = min(max(min(start, end), 0), length)
        let high = min(max(max(start, end), 0), length)
        var vertices = [point(atAlongTrack: low).coordinate]
        let lengths = cumulativeLengths
        var index = lengths.partitioningIndex { $0 > low }
        while index < lengths.count, lengths[index] < high {
            if coordinates[index] != vertices[vertices.count - 1] { vertices.append(coordinates[index]) }
            index += 1
        }
        let last = point(atAlongTrack: high).coordinate
        if last != vertices[vertices.count - 1] { vertices.append(last) }
        return end < start ? vertices.reversed() : vertices
    }

    /// `count` points evenly spaced along the line from its first to its last vertex.
    ///
    /// - Precondition: `count >= 2`.
    /// - Complexity: O(count · log n).
    public func resampled(count: Int) -> [Coordinate] {
        precondition(count >= 2, "resampling needs at least two points")
        return (0..<count).map { point(atAlongTrack: length * Double($0) / Double(count - 1)).coordinate }
    }
}

extension Array where Element == Coordinate {
    /// The line shifted sideways by `distance` metres, to the right of its direction of
    /// travel for positive values (each vertex moves along the mean normal of its edges).
    ///
    /// - Complexity: O(n).
    public func offset(by distance: Meters) -> [Coordinate] {
        guard count > 1, distance != 0 else { return self }
        return indices.map { index in
            let projection = LocalProjection(origin: self[index])
            let previous = index > 0 ? projection.vector(to: self[index - 1]) : nil
            let next = index < count - 1 ? projection.vector(to: self[index + 1]) : nil
            var direction = PlanarVector(east: 0, north: 0)
            if let previous, let unit = (PlanarVector(east: 0, north: 0) - previous).normalized { direction = direction + unit }
            if let next, let unit = next.normalized { direction = direction + unit }
            guard let along = direction.normalized else { return self[index] }
            let right = PlanarVector(east: along.north, north: -along.east)
            return projection.coordinate(at: right * distance)
        }
    }
}
