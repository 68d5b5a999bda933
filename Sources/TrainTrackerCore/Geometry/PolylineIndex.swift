/// A bounding-volume hierarchy over the edges of one polyline.
///
/// Consecutive edges of a track lie close together, so splitting the edge range in
/// halves gives tight boxes without sorting. A nearest-edge query descends the nearer
/// child first and skips every box farther than the best edge found so far, which makes
/// "is this railway within 3 km, and how far" a handful of box tests for a far railway
/// and a few dozen edge tests for a near one.
struct PolylineIndex: Sendable {
    private struct Node: Sendable {
        var minLatitude: Degrees
        var maxLatitude: Degrees
        var minLongitude: Degrees
        var maxLongitude: Degrees
        /// Children, or -1 for a leaf.
        var left: Int32
        var right: Int32
        /// The edge range `firstEdge ..< endEdge` below this node.
        var firstEdge: Int32
        var endEdge: Int32
    }

    struct NearestEdge {
        var edge: Int
        var fraction: Double
        var distance: Meters
    }

    private static let leafSize = 8
    /// Box distances are lower bounds computed with the query's own longitude scale; a
    /// box a few kilometres north or south has a slightly different scale, so the bound
    /// is shrunk by this factor to stay a true lower bound.
    private static let boundSafety = 0.99

    private var nodes: [Node] = []

    /// Builds the hierarchy over the edges between consecutive `vertices`.
    ///
    /// - Complexity: O(n log n).
    init(_ vertices: [Coordinate]) {
        let edgeCount = vertices.count - 1
        guard edgeCount > 0 else { return }
        nodes.reserveCapacity(2 * (edgeCount / Self.leafSize + 1))
        _ = build(firstEdge: 0, endEdge: edgeCount, vertices: vertices)
    }

    private mutating func build(firstEdge: Int, endEdge: Int, vertices: [Coordinate]) -> Int32 {
        var node = Node(
            minLatitude: .infinity, maxLatitude: -.infinity, minLongitude: .infinity, maxLongitude: -.infinity,
            left: -1, right: -1, firstEdge: Int32(firstEdge), endEdge: Int32(endEdge)
        )
        for vertex in vertices[firstEdge...endEdge] {
            node.minLatitude = min(node.minLatitude, vertex.latitude)
            node.maxLatitude = max(node.maxLatitude, vertex.latitude)
            node.minLongitude = min(node.minLongitude, vertex.longitude)
            node.maxLongitude = max(node.maxLongitude, vertex.longitude)
        }
        let position = nodes.count
        nodes.append(node)
        if endEdge - firstEdge > Self.leafSize {
            let middle = (firstEdge + endEdge) / 2
            let left = build(firstEdge: firstEdge, endEdge: middle, vertices: vertices)
            let right = build(firstEdge: middle, endEdge: endEdge, vertices: vertices)
            nodes[position].left = left
            nodes[position].right = right
        }
        return Int32(position)
    }

    /// The nearest edge to the projection's origin, if one lies within `maximumDistance`.
    ///
    /// `hint` is an edge that was nearest a moment ago (for a moving train, the last fix's):
    /// its distance and its neighbours' start the search with a tight bound, so that almost
    /// every box is pruned. The answer is the same with or without it.
    ///
    /// - Complexity: O(log n) expected for a point near the line; O(1) when the root box
    ///   is already farther than `maximumDistance`.
    func nearestEdge(
        to projection: LocalProjection, within maximumDistance: Meters, vertices: [Coordinate], hint: Int? = nil
    ) -> NearestEdge? {
        guard !nodes.isEmpty else { return nil }
        var best = NearestEdge(edge: -1, fraction: 0, distance: maximumDistance)
        var bestSquared = maximumDistance * maximumDistance
        nodes.withUnsafeBufferPointer { nodes in
            vertices.withUnsafeBufferPointer { vertices in
                let rootDistance = boxDistanceSquared(nodes[0], projection)
                guard rootDistance <= bestSquared else { return }
                if let hint {
                    let edgeCount = vertices.count - 1
                    for edge in max(0, hint - 1)...min(edgeCount - 1, hint + 1) {
                        consider(edge, vertices: vertices, projection: projection, best: &best, bestSquared: &bestSquared)
                    }
                }
                search(
                    0, rootDistance, nodes: nodes, vertices: vertices, projection: projection, best: &best,
                    bestSquared: &bestSquared)
            }
        }
        guard best.edge >= 0 else { return nil }
        best.distance = bestSquared.squareRoot()
        return best
    }

    private func boxDistanceSquared(_ node: Node, _ projection: LocalProjection) -> Double {
        let latitude = projection.origin.latitude
        let longitude = projection.origin.longitude
        let dLatitude = max(0, node.minLatitude - latitude, latitude - node.maxLatitude)
        let dLongitude = max(0, node.minLongitude - longitude, longitude - node.maxLongitude)
        let north = dLatitude * projection.metersPerDegreeLatitude
        let east = dLongitude * projection.metersPerDegreeLongitude * Self.boundSafety
        return north * north + east * east
    }

    /// Takes `edge` as the best so far if it is nearer (ties keep the earlier find).
    @inline(__always)
    private func consider(
        _ edge: Int, vertices: UnsafeBufferPointer<Coordinate>, projection: LocalProjection,
        best: inout NearestEdge, bestSquared: inout Double
    ) {
        let start = projection.vector(to: vertices[edge])
        let segment = projection.vector(to: vertices[edge + 1]) - start
        let lengthSquared = segment.dot(segment)
        var fraction = 0.0
        if lengthSquared > 0 {
            fraction = min(1, max(0, -start.dot(segment) / lengthSquared))
        }
        let east = start.east + segment.east * fraction
        let north = start.north + segment.north * fraction
        let distanceSquared = east * east + north * north
        if distanceSquared < bestSquared || (best.edge < 0 && distanceSquared <= bestSquared) {
            bestSquared = distanceSquared
            best.edge = edge
            best.fraction = fraction
        }
    }

    /// Branch and bound below `position`, whose box lies `boxDistance` (squared) away.
    private func search(
        _ position: Int32,
        _ boxDistance: Double,
        nodes: UnsafeBufferPointer<Node>,
        vertices: UnsafeBufferPointer<Coordinate>,
        projection: LocalProjection,
        best: inout NearestEdge,
        bestSquared: inout Double
    ) {
        guard boxDistance <= bestSquared else { return }
        let node = nodes[Int(position)]
        if node.left < 0 {
            for edge in Int(node.firstEdge)..<Int(node.endEdge) {
                consider(edge, vertices: vertices, projection: projection, best: &best, bestSquared: &bestSquared)
            }
            return
        }
        let leftDistance = boxDistanceSquared(nodes[Int(node.left)], projection)
        let rightDistance = boxDistanceSquared(nodes[Int(node.right)], projection)
        if leftDistance <= rightDistance {
            search(
                node.left, leftDistance, nodes: nodes, vertices: vertices, projection: projection, best: &best,
                bestSquared: &bestSquared)
            search(
                node.right, rightDistance, nodes: nodes, vertices: vertices, projection: projection, best: &best,
                bestSquared: &bestSquared)
        } else {
            search(
                node.right, rightDistance, nodes: nodes, vertices: vertices, projection: projection, best: &best,
                bestSquared: &bestSquared)
            search(
                node.left, leftDistance, nodes: nodes, vertices: vertices, projection: projection, best: &best,
                bestSquared: &bestSquared)
        }
    }
}
