/// One SRTM tile: a square degree of elevations in metres, big-endian 16-bit samples row by
/// row from the north-west corner, 1201 per side (3 arc-seconds) or 3601 (1 arc-second).
/// Voids (-32768) are filled from their valid neighbours when the tile is read, or stay
/// unknown (`nil`), never read as -32768 m.
public struct ElevationTile: Sendable {
    /// The south-west corner's latitude, whole degrees.
    public let latitude: Int
    /// The south-west corner's longitude, whole degrees.
    public let longitude: Int
    /// Samples per side.
    public let size: Int
    /// Elevations, north row first; `Int16.min` where unknown.
    private let samples: [Int16]
    /// Voids filled from their neighbours.
    public let filledVoids: Int
    /// Voids left unknown (no valid neighbour near enough).
    public let unknownVoids: Int

    static let void = Int16.min

    /// Decodes a tile's bytes.
    ///
    /// - Throws: `TerrainError.badTile` when the length is not that of a 1 or 3 arc-second tile.
    public init(latitude: Int, longitude: Int, bytes: [UInt8], name: String) throws(TerrainError) {
        let count = bytes.count / 2
        let size: Int
        switch count {
        case 1_201 * 1_201: size = 1_201
        case 3_601 * 3_601: size = 3_601
        default: throw .badTile(name: name, problem: "\(bytes.count) bytes is neither a 1 nor a 3 arc-second tile")
        }
        var samples = [Int16](repeating: 0, count: count)
        for index in 0..<count {
            samples[index] = Int16(bitPattern: UInt16(bytes[2 * index]) << 8 | UInt16(bytes[2 * index + 1]))
        }
        // Fill voids from the mean of valid neighbours, repeatedly, for up to 8 passes.
        var filled = 0
        var pass = 0
        var voids = samples.indices.filter { samples[$0] == Self.void }
        while !voids.isEmpty, pass < 8 {
            var remaining: [Int] = []
            var updates: [(Int, Int16)] = []
            for index in voids {
                let (row, column) = (index / size, index % size)
                var total = 0
                var valid = 0
                for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1)] {
                    let (r, c) = (row + dr, column + dc)
                    guard r >= 0, r < size, c >= 0, c < size else { continue }
                    let value = samples[r * size + c]
                    if value != Self.void {
                        total += Int(value)
                        valid += 1
                    }
                }
                if valid >= 2 { updates.append((index, Int16(total / valid))) } else { remaining.append(index) }
            }
            for (index, value) in updates { samples[index] = value }
            filled += updates.count
            voids = remaining
            pass += 1
        }
        self.latitude = latitude
        self.longitude = longitude
        self.size = size
        self.samples = samples
        self.filledVoids = filled
        self.unknownVoids = voids.count
    }

    /// The bilinearly interpolated elevation at a point of this tile, or nil where a corner
    /// is unknown or the point lies outside.
    ///
    /// - Complexity: O(1).
    public func elevation(at coordinate: Coordinate) -> Meters? {
        let cells = Double(size - 1)
        let x = (coordinate.longitude - Double(longitude)) * cells
        let y = (Double(latitude + 1) - coordinate.latitude) * cells
        guard x >= 0, y >= 0, x <= cells, y <= cells else { return nil }
        let column = min(Int(x), size - 2)
        let row = min(Int(y), size - 2)
        let (fx, fy) = (x - Double(column), y - Double(row))
        let base = row * size + column
        let corners = [samples[base], samples[base + 1], samples[base + size], samples[base + size + 1]]
        guard !corners.contains(Self.void) else { return nil }
        let (a, b, c, d) = (Double(corners[0]), Double(corners[1]), Double(corners[2]), Double(corners[3]))
        return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy
    }
}

/// Why terrain cannot be used.
public enum TerrainError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A tile's bytes are not a tile.
    case badTile(name: String, problem: String)
    /// Arguments out of range.
    case badArgument(name: String, problem: String)

    /// One line saying what is wrong.
    public var description: String {
        switch self {
        case .badTile(let name, let problem): "\(name): \(problem)"
        case .badArgument(let name, let problem): "\(name) \(problem)"
        }
    }
}

/// Where elevations come from. Asked for batches of points (the original app sent 512 per
/// request to a web service), so a remote source fits without touching the algorithm.
public protocol ElevationProvider: Sendable {
    /// The elevation at each point, nil where the provider has none.
    func elevations(at points: [Coordinate]) throws -> [Meters?]
}

/// Tiles in memory: a point is answered by the tile that covers it.
public struct TileSet: ElevationProvider {
    private let tiles: [Int: ElevationTile]

    /// The tiles given.
    public init(tiles: [ElevationTile]) {
        var byKey: [Int: ElevationTile] = [:]
        for tile in tiles { byKey[Self.key(tile.latitude, tile.longitude)] = tile }
        self.tiles = byKey
    }

    /// How many tiles.
    public var count: Int { tiles.count }

    /// The elevation at each of `points`, `nil` where no tile covers it or it is a void.
    public func elevations(at points: [Coordinate]) -> [Meters?] { points.map(elevation(at:)) }

    /// The elevation at one point.
    public func elevation(at coordinate: Coordinate) -> Meters? {
        guard coordinate.isValid else { return nil }
        let latitude = Int(flooring: coordinate.latitude, within: -90...90)
        let longitude = Int(flooring: coordinate.longitude, within: -180...180)
        return tiles[Self.key(latitude, longitude)]?.elevation(at: coordinate)
    }

    private static func key(_ latitude: Int, _ longitude: Int) -> Int { (latitude + 90) * 1_000 + (longitude + 180) }
}
