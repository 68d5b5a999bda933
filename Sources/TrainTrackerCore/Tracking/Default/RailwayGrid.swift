/// A uniform grid over the network: for each cell, the railways whose track passes within
/// `margin` of it. A fix then asks only those railways how far they are, instead of all.
struct RailwayGrid: Sendable {
    /// Cell size and the reach every cell list covers.
    static let cellSize: Meters = 500
    static let margin: Meters = 500

    private let origin: Coordinate
    private let degreesPerCellLatitude: Degrees
    private let degreesPerCellLongitude: Degrees
    private let cells: [Int64: [Int32]]

    init(network: RailwayNetwork) {
        let box = network.boundingBox
        origin = box.southWest
        let projection = LocalProjection(
            origin: Coordinate(
                latitude: (box.southWest.latitude + box.northEast.latitude) / 2, longitude: box.southWest.longitude))
        degreesPerCellLatitude = Self.cellSize / projection.metersPerDegreeLatitude
        // The longitude scale of the southern edge is the smallest cell in metres; take the northern
        // (narrowest) so that cells are never narrower than `cellSize`.
        let north = LocalProjection(
            origin: Coordinate(latitude: min(89, max(box.northEast.latitude, box.southWest.latitude)), longitude: 0))
        degreesPerCellLongitude = Self.cellSize / max(north.metersPerDegreeLongitude, 1)
        let marginLatitude = Self.margin / projection.metersPerDegreeLatitude
        let marginLongitude = Self.margin / max(north.metersPerDegreeLongitude, 1)
        var cells: [Int64: Set<Int32>] = [:]
        for (railway, polyline) in network.trackPolylines.enumerated() {
            let vertices = polyline.coordinates
            for index in vertices.indices {
                let from = vertices[index]
                let to = vertices[min(index + 1, vertices.count - 1)]
                let south = min(from.latitude, to.latitude) - marginLatitude
                let north = max(from.latitude, to.latitude) + marginLatitude
                let west = min(from.longitude, to.longitude) - marginLongitude
                let east = max(from.longitude, to.longitude) + marginLongitude
                let (row0, column0) = (
                    Int((south - origin.latitude) / degreesPerCellLatitude),
                    Int((west - origin.longitude) / degreesPerCellLongitude)
                )
                let (row1, column1) = (
                    Int((north - origin.latitude) / degreesPerCellLatitude),
                    Int((east - origin.longitude) / degreesPerCellLongitude)
                )
                for row in row0...row1 {
                    for column in column0...column1 {
                        cells[Self.key(row, column), default: []].insert(Int32(railway))
                    }
                }
            }
        }
        self.cells = cells.mapValues { $0.sorted() }
    }

    private static func key(_ row: Int, _ column: Int) -> Int64 { Int64(row) << 32 | Int64(UInt32(truncatingIfNeeded: column)) }

    /// The railways whose track may lie within `margin` of `coordinate`.
    func railways(near coordinate: Coordinate) -> [Int32] {
        let row = Int(((coordinate.latitude - origin.latitude) / degreesPerCellLatitude).rounded(.down))
        let column = Int(((coordinate.longitude - origin.longitude) / degreesPerCellLongitude).rounded(.down))
        return cells[Self.key(row, column)] ?? []
    }
}
