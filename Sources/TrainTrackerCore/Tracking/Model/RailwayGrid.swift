import Algorithms

/// A uniform grid over the network: for each cell, the railways whose track passes within
/// `margin` of it. A fix then asks only those railways how far they are, instead of all.
struct RailwayGrid: Sendable {
    /// Cell size and the reach every cell list covers.
    static let cellSize: Meters = 500
    static let margin: Meters = 500
    /// Edges whose margin box spans more cells than this (about 4 km square) are entered cell
    /// by cell along their length: the box of a long edge, from a feed without shapes or a
    /// hostile one, could be billions of cells.
    private static let largestBoxCells = 64

    private let frame: Frame
    /// The cells some track passes near, as `Frame.key`s in increasing order; cell
    /// `cellKeys[i]` lists the railways `railwayLists[listStarts[i]..<listStarts[i + 1]]`, in
    /// increasing order. (On Tokyo, 0.6 MB; as a dictionary of arrays it was 2.1 MB, and the
    /// sets it was built from 3 MB more.)
    private let cellKeys: [Int64]
    private let listStarts: [Int32]
    private let railwayLists: [Int32]

    init(network: RailwayNetwork) {
        let box = network.boundingBox
        let projection = LocalProjection(
            origin: Coordinate(
                latitude: (box.southWest.latitude + box.northEast.latitude) / 2, longitude: box.southWest.longitude))
        // The longitude scale of the southern edge is the smallest cell in metres; take the northern
        // (narrowest) so that cells are never narrower than `cellSize`.
        let north = LocalProjection(
            origin: Coordinate(latitude: min(89, max(box.northEast.latitude, box.southWest.latitude)), longitude: 0))
        let frame = Frame(
            origin: box.southWest, degreesPerCellLatitude: Self.cellSize / projection.metersPerDegreeLatitude,
            degreesPerCellLongitude: Self.cellSize / max(north.metersPerDegreeLongitude, 1))
        var entries: [(cell: Int64, railway: Int32)] = []
        for (railway, polyline) in network.trackPolylines.enumerated() {
            for cell in Self.cells(near: polyline.coordinates, frame: frame, projection: projection, north: north) {
                entries.append((cell, Int32(clamping: railway)))
            }
        }
        entries.sort { ($0.cell, $0.railway) < ($1.cell, $1.railway) }
        var keys: [Int64] = []
        var starts: [Int32] = []
        for (index, entry) in entries.enumerated() where keys.last != entry.cell {
            keys.append(entry.cell)
            starts.append(Int32(clamping: index))
        }
        starts.append(Int32(clamping: entries.count))
        self.frame = frame
        cellKeys = keys
        listStarts = starts
        railwayLists = entries.map(\.railway)
    }

    /// The cells within `margin` of the track through `vertices`, each once.
    private static func cells(
        near vertices: [Coordinate], frame: Frame, projection: LocalProjection, north: LocalProjection
    ) -> Set<Int64> {
        let marginLatitude = Self.margin / projection.metersPerDegreeLatitude
        let marginLongitude = Self.margin / max(north.metersPerDegreeLongitude, 1)
        var cells = Set<Int64>()
        for index in vertices.indices {
            let from = vertices[index]
            let to = vertices[min(index + 1, vertices.count - 1)]
            let (row0, column0) = frame.cell(
                latitude: min(from.latitude, to.latitude) - marginLatitude,
                longitude: min(from.longitude, to.longitude) - marginLongitude)
            let (row1, column1) = frame.cell(
                latitude: max(from.latitude, to.latitude) + marginLatitude,
                longitude: max(from.longitude, to.longitude) + marginLongitude)
            if (row1 - row0 + 1) * (column1 - column0 + 1) <= Self.largestBoxCells {
                for row in row0...row1 {
                    for column in column0...column1 { cells.insert(Frame.key(row, column)) }
                }
            } else {
                cells.formUnion(frame.cellsAlong(from: from, to: to))
            }
        }
        return cells
    }

    /// The railways whose track may lie within `margin` of `coordinate`, in increasing order.
    ///
    /// - Complexity: O(log cells).
    func railways(near coordinate: Coordinate) -> ArraySlice<Int32> {
        let (row, column) = frame.cell(latitude: coordinate.latitude, longitude: coordinate.longitude)
        let key = Frame.key(row, column)
        let index = cellKeys.partitioningIndex { $0 >= key }
        guard index < cellKeys.count, cellKeys[index] == key else { return [] }
        return railwayLists[Int(listStarts[index])..<Int(listStarts[index + 1])]
    }

    /// Where the cells lie: the south-west corner and the size of a cell in degrees.
    private struct Frame: Sendable {
        let origin: Coordinate
        let degreesPerCellLatitude: Degrees
        let degreesPerCellLongitude: Degrees

        /// Row and column numbers stay within ±10^8 (far beyond any network on Earth), so a
        /// coordinate that is not finite can never trap.
        private static let cellNumbers = -100_000_000...100_000_000

        func cell(latitude: Degrees, longitude: Degrees) -> (row: Int, column: Int) {
            (
                Int(flooring: (latitude - origin.latitude) / degreesPerCellLatitude, within: Self.cellNumbers),
                Int(flooring: (longitude - origin.longitude) / degreesPerCellLongitude, within: Self.cellNumbers)
            )
        }

        /// The cells within `margin` of the edge `from`–`to`: the neighbours of points a
        /// quarter cell apart along it.
        func cellsAlong(from: Coordinate, to: Coordinate) -> Set<Int64> {
            let step = RailwayGrid.cellSize / 4
            let steps = Int(flooring: from.distance(to: to) / step, within: 1...10_000_000)
            // The margin, plus the eighth of a cell between a point of the edge and its nearest sample.
            let reach = 1 + Int(flooring: (RailwayGrid.margin + step / 2) / RailwayGrid.cellSize, within: 0...10)
            var found = Set<Int64>()
            for index in 0...steps {
                let share = Double(index) / Double(steps)
                let (row, column) = cell(
                    latitude: from.latitude + (to.latitude - from.latitude) * share,
                    longitude: from.longitude + (to.longitude - from.longitude) * share)
                for dRow in -reach...reach {
                    for dColumn in -reach...reach { found.insert(Self.key(row + dRow, column + dColumn)) }
                }
            }
            return found
        }

        static func key(_ row: Int, _ column: Int) -> Int64 {
            Int64(row) << 32 | Int64(UInt32(truncatingIfNeeded: column))
        }
    }
}
