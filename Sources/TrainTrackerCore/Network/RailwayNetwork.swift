/// Railways, their stations and tracks, loaded once and held in memory with spatial
/// indexes, so that tracking never touches a database per fix.
public struct RailwayNetwork: Sendable {
    /// All railways, in the order given.
    public let railways: [Railway]
    /// All stations, in the order given.
    public let stations: [Station]

    private let railwayIndexByID: [String: Int]
    private let stationIndexByID: [String: Int]
    /// `railwayStations[r]` holds the indices into `stations` of railway `r`, in line order.
    let railwayStations: [[Int]]
    /// `stationAlongTrack[r][k]` is the along-track position of the `k`-th station of railway `r`.
    let stationAlongTrack: [[Meters]]
    /// `stationsInTrackOrder[r]` tells whether railway `r`'s station positions never decrease
    /// (a station drawn off its track may project out of order): the focus is then a binary search.
    let stationsInTrackOrder: [Bool]
    /// `stationCoordinates[r][k]` is where the `k`-th station of railway `r` stands.
    let stationCoordinates: [[Coordinate]]
    /// `trackPolylines[r]` is railway `r`'s track, kept apart so the per-fix path copies no railway.
    package let trackPolylines: [Polyline]
    /// `isLoop[r]` tells whether railway `r` is a loop line.
    let isLoop: [Bool]
    /// `platformOffsets[r][k]`: where trains stand at the `k`-th station of railway `r`, in
    /// metres along the track from its point (nil until learnt: `placing(_:)`).
    var platformOffsets: [[ClosedRange<Meters>?]]

    /// Builds a network, orienting each track so that along-track positions grow with
    /// the station order (track files do not guarantee it).
    ///
    /// - Throws: `NetworkError` for duplicate ids, unknown stations, railways with
    ///   fewer than two stations or without track, invalid station or track coordinates, and
    ///   track edges longer than `longestTrackEdge`.
    /// - Complexity: O(V log V) for V track vertices.
    public init(railways: [Railway], stations: [Station]) throws(NetworkError) {
        var stationIndexByID: [String: Int] = [:]
        for (index, station) in stations.enumerated() {
            guard stationIndexByID.updateValue(index, forKey: station.id) == nil else {
                throw .duplicateStation(station.id)
            }
            guard station.coordinate.isValid else { throw .invalidCoordinate(station: station.id) }
        }
        var railwayIndexByID: [String: Int] = [:]
        var oriented: [Railway] = []
        var railwayStations: [[Int]] = []
        var stationAlongTrack: [[Meters]] = []
        for (index, railway) in railways.enumerated() {
            guard railwayIndexByID.updateValue(index, forKey: railway.id) == nil else {
                throw .duplicateRailway(railway.id)
            }
            guard railway.stationIDs.count >= 2 else { throw .tooFewStations(railway: railway.id) }
            guard !railway.track.polyline.coordinates.isEmpty else { throw .emptyTrack(railway: railway.id) }
            try Self.check(track: railway.track.polyline, of: railway.id)
            var indices: [Int] = []
            for stationID in railway.stationIDs {
                guard let stationIndex = stationIndexByID[stationID] else {
                    throw .unknownStation(railway: railway.id, station: stationID)
                }
                indices.append(stationIndex)
            }
            var railway = railway
            var positions = indices.map { railway.track.polyline.projection(of: stations[$0].coordinate)?.alongTrack ?? 0 }
            if Self.runsAgainstStationOrder(positions) {
                railway.track = railway.track.reversed()
                let length = railway.track.polyline.length
                positions = positions.map { length - $0 }
            }
            oriented.append(railway)
            railwayStations.append(indices)
            stationAlongTrack.append(positions)
        }
        self.railways = oriented
        self.stations = stations
        self.railwayIndexByID = railwayIndexByID
        self.stationIndexByID = stationIndexByID
        self.railwayStations = railwayStations
        self.stationAlongTrack = stationAlongTrack
        self.stationsInTrackOrder = stationAlongTrack.map { positions in
            zip(positions, positions.dropFirst()).allSatisfy { $0 <= $1 }
        }
        self.stationCoordinates = railwayStations.map { $0.map { stations[$0].coordinate } }
        self.trackPolylines = oriented.map(\.track.polyline)
        self.isLoop = oriented.map(\.isLoop)
        self.platformOffsets = stationAlongTrack.map { Array(repeating: nil, count: $0.count) }
    }

    /// The longest track edge a network may hold: 1,000 km, beyond any stretch between two
    /// stations drawn as a straight line.
    public static let longestTrackEdge: Meters = 1_000_000

    /// Throws for a vertex that is no WGS-84 position or an edge beyond `longestTrackEdge`.
    private static func check(track: Polyline, of railway: String) throws(NetworkError) {
        let vertices = track.coordinates
        for (index, vertex) in vertices.enumerated() where !vertex.isValid {
            throw .invalidTrackCoordinate(railway: railway, vertex: index)
        }
        let lengths = track.cumulativeLengths
        for index in lengths.indices.dropFirst() where lengths[index] - lengths[index - 1] > longestTrackEdge {
            throw .trackEdgeTooLong(railway: railway, vertex: index - 1, meters: lengths[index] - lengths[index - 1])
        }
    }

    /// Whether more consecutive station pairs lie backwards along the track than forwards.
    private static func runsAgainstStationOrder(_ positions: [Meters]) -> Bool {
        var balance = 0.0
        for (earlier, later) in zip(positions, positions.dropFirst()) {
            balance += later - earlier
        }
        return balance < 0
    }

    /// The railway with `id`.
    public func railway(id: String) -> Railway? { railwayIndexByID[id].map { railways[$0] } }

    /// The station with `id`.
    public func station(id: String) -> Station? { stationIndexByID[id].map { stations[$0] } }

    /// The position of the railway with `id` in `railways`.
    public func railwayIndex(id: String) -> Int? { railwayIndexByID[id] }

    /// The stations of `railway` in line order.
    public func stations(of railway: Railway) -> [Station] {
        guard let index = railwayIndexByID[railway.id] else { return [] }
        return railwayStations[index].map { stations[$0] }
    }

    /// The along-track positions of the stations of `railway`, in line order.
    public func stationPositions(of railway: Railway) -> [Meters] {
        guard let index = railwayIndexByID[railway.id] else { return [] }
        return stationAlongTrack[index]
    }

    /// Every railway whose track passes within `maximumDistance` of `coordinate`, nearest first.
    ///
    ///     network.railways(near: fix.coordinate, within: 3_000)
    ///
    /// - Complexity: O(R log V): one bounded nearest-edge query per railway.
    public func railways(near coordinate: Coordinate, within maximumDistance: Meters) -> [(railway: Railway, distance: Meters)] {
        railways.compactMap { railway in
            railway.track.polyline.distance(to: coordinate, within: maximumDistance).map { (railway, $0) }
        }
        .sorted { $0.distance < $1.distance }
    }

    /// The total length of all tracks.
    public var trackLength: Meters { railways.reduce(0) { $0 + $1.track.polyline.length } }

    /// The number of track vertices.
    public var trackVertexCount: Int { railways.reduce(0) { $0 + $1.track.polyline.coordinates.count } }

    /// The smallest latitude/longitude box holding every station and track vertex.
    public var boundingBox: (southWest: Coordinate, northEast: Coordinate) {
        var south = Double.infinity
        var west = Double.infinity
        var north = -Double.infinity
        var east = -Double.infinity
        func include(_ coordinate: Coordinate) {
            south = min(south, coordinate.latitude)
            north = max(north, coordinate.latitude)
            west = min(west, coordinate.longitude)
            east = max(east, coordinate.longitude)
        }
        for station in stations { include(station.coordinate) }
        for railway in railways {
            for coordinate in railway.track.polyline.coordinates { include(coordinate) }
        }
        return (Coordinate(latitude: south, longitude: west), Coordinate(latitude: north, longitude: east))
    }
}
