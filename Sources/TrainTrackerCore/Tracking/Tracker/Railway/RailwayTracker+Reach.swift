extension RailwayTracker {
    /// A railway within reach of the fix: the fix's distance from its drawn track (and signed,
    /// left of the drawn direction positive), its along-track position and the track's course
    /// there, and whether the track there runs deep in a tunnel while the fix saw the sky.
    struct Reach: Codable {
        let railway: Int
        let distance: Meters
        let lateral: Meters
        let along: Meters
        let course: Degrees
        let underground: Bool
    }

    /// Finds the railways within reach of the fix (`near`, `nearSlot`), each searched from the
    /// edge nearest the previous fix.
    mutating func findRailways(near fix: Fix) {
        for item in near { nearSlot[item.railway] = -1 }
        near.removeAll(keepingCapacity: true)
        let radius = parameters.position.searchRadius(sigma: fix.sigma)
        let polylines = model.network.trackPolylines
        // The grid lists the railways within its margin; a wider reach asks every railway.
        let asked: ArraySlice<Int32> =
            radius <= RailwayGrid.margin
            ? model.grid.railways(near: fix.location.coordinate) : ArraySlice(0..<Int32(polylines.count))
        for railway in asked {
            let index = Int(railway)
            let polyline = polylines[index]
            let hint = nearestEdges[index] >= 0 ? Int(nearestEdges[index]) : nil
            guard let nearest = polyline.nearestEdge(from: fix.projection, within: radius, hint: hint) else {
                nearestEdges[index] = -1
                continue
            }
            nearestEdges[index] = Int32(nearest.edge)
            let place = polyline.alongAndCourse(
                edge: nearest.edge, fraction: nearest.fraction, projection: fix.projection, distance: nearest.distance)
            nearSlot[index] = Int32(near.count)
            let underground = parameters.tunnel.rulesOut(
                accuracy: fix.accuracy, depth: model.tunnelDepth(railway: index, along: place.along))
            near.append(
                Reach(
                    railway: index, distance: place.distance, lateral: place.lateral, along: place.along,
                    course: place.course, underground: underground))
        }
    }
}

extension MotionState.Change {
    /// The length of the stop, when this is its end.
    var endedStop: Seconds? {
        if case .ended(let duration) = self { duration } else { nil }
    }
}

extension Polyline {
    /// The along-track position of the point `fraction` along edge `edge` (as the nearest-edge
    /// search found it) and the course of that edge.
    func alongAndCourse(edge: Int, fraction: Double, projection: LocalProjection, distance: Meters) -> (
        distance: Meters, lateral: Meters, along: Meters, course: Degrees
    ) {
        let lengths = cumulativeLengths
        let coordinates = self.coordinates
        guard edge >= 0, edge + 1 < coordinates.count else { return (distance, distance, lengths.last ?? 0, 0) }
        let start = projection.vector(to: coordinates[edge])
        let direction = projection.vector(to: coordinates[edge + 1]) - start
        // The fix (the projection's origin) lies left of the edge when the cross product is positive.
        let cross = direction.north * start.east - direction.east * start.north
        let along = lengths[edge] + (lengths[edge + 1] - lengths[edge]) * fraction
        return (distance, cross >= 0 ? distance : -distance, along, direction.course)
    }

    /// The course of edge `edge` (from vertex `edge` to the next), if there is such an edge.
    func course(ofEdge edge: Int, projection: LocalProjection) -> Degrees? {
        let coordinates = self.coordinates
        guard edge >= 0, edge + 1 < coordinates.count else { return nil }
        return (projection.vector(to: coordinates[edge + 1]) - projection.vector(to: coordinates[edge])).course
    }
}
