/// Which way along a railway's station list a train travels.
public enum TravelDirection: Int, Hashable, Sendable, CaseIterable {
    /// In the order of the railway's `stationIDs`.
    case ascending = 0
    /// Against the order of the railway's `stationIDs`.
    case descending = 1

    /// The other direction.
    public var reversed: TravelDirection { self == .ascending ? .descending : .ascending }
}

/// A railway: an ordered list of stations, the two named directions of travel and its track.
public struct Railway: Sendable, Identifiable {
    /// A unique id, e.g. `Tokyu.Toyoko`.
    public var id: String
    /// The display name in English (or the first name given).
    public var name: String
    /// Names by language code.
    public var names: [String: String]
    /// `#RRGGBB`, for drawing.
    public var color: String
    /// Station ids in line order. A loop line lists each station once and sets `isLoop`.
    public var stationIDs: [String]
    /// Whether the line is a loop, its last station followed by its first (JR-East.Yamanote).
    public var isLoop: Bool
    /// The name of the direction of travel along `stationIDs`, e.g. `Outbound`.
    public var ascendingName: String
    /// The name of the opposite direction, e.g. `Inbound`.
    public var descendingName: String
    /// The track, oriented so that along-track positions grow with the station order.
    public var track: Track

    /// Creates a railway. A station list whose last id repeats its first (the Eki form of a
    /// loop line) is stored once with `isLoop` set.
    public init(
        id: String, name: String, names: [String: String] = [:], color: String = "#888888",
        stationIDs: [String], ascendingName: String, descendingName: String, track: Track
    ) {
        self.id = id
        self.name = name
        self.names = names.isEmpty ? ["en": name] : names
        self.color = color
        if stationIDs.count > 2, stationIDs.first == stationIDs.last {
            self.stationIDs = Array(stationIDs.dropLast())
            self.isLoop = true
        } else {
            self.stationIDs = stationIDs
            self.isLoop = false
        }
        self.ascendingName = ascendingName
        self.descendingName = descendingName
        self.track = track
    }

    /// The name of `direction`, e.g. `Outbound`.
    public func name(of direction: TravelDirection) -> String {
        direction == .ascending ? ascendingName : descendingName
    }

    /// The direction named `name`, if it is one of this railway's.
    public func direction(named name: String) -> TravelDirection? {
        if name == ascendingName { return .ascending }
        if name == descendingName { return .descending }
        return nil
    }
}

/// The track of a railway: one polyline, with the edges that run underground marked.
public struct Track: Sendable {
    /// The geometry.
    public var polyline: Polyline
    /// `undergroundEdges[i]` tells whether the edge from vertex `i` to `i + 1` is underground.
    public var undergroundEdges: [Bool]

    /// Joins consecutive pieces of track (Eki `segment`s) into one polyline.
    ///
    /// - Precondition: at least one piece with at least one vertex.
    public init(pieces: [(coordinates: [Coordinate], isUnderground: Bool)]) {
        var coordinates: [Coordinate] = []
        var underground: [Bool] = []
        // Room for every vertex at once: grown by appending, the track's arrays took up to twice that.
        let vertices = pieces.reduce(0) { $0 + $1.coordinates.count }
        coordinates.reserveCapacity(vertices)
        underground.reserveCapacity(vertices)
        for piece in pieces where !piece.coordinates.isEmpty {
            for coordinate in piece.coordinates where coordinate != coordinates.last {
                if !coordinates.isEmpty { underground.append(piece.isUnderground) }
                coordinates.append(coordinate)
            }
        }
        self.polyline = Polyline(coordinates)
        self.undergroundEdges = underground
    }

    /// A track of `polyline`, `undergroundEdges[i]` telling whether edge `i` runs underground.
    package init(polyline: Polyline, undergroundEdges: [Bool]) {
        self.polyline = polyline
        self.undergroundEdges = undergroundEdges
    }

    /// The same track traversed the other way.
    public func reversed() -> Track {
        Track(polyline: polyline.reversed(), undergroundEdges: undergroundEdges.reversed())
    }

    /// The length of track that runs underground.
    public var undergroundLength: Meters {
        zip(undergroundEdges.indices, undergroundEdges).reduce(0) { sum, edge in
            edge.1 ? sum + polyline.cumulativeLengths[edge.0 + 1] - polyline.cumulativeLengths[edge.0] : sum
        }
    }

    /// The stretches of track that run underground, as along-track ranges in order, each as
    /// long as the underground edges that touch make it.
    ///
    /// - Complexity: O(n) in the number of edges.
    public func undergroundStretches() -> [ClosedRange<Meters>] {
        let lengths = polyline.cumulativeLengths
        var stretches: [ClosedRange<Meters>] = []
        var start: Meters?
        for (edge, underground) in undergroundEdges.enumerated() {
            if underground, start == nil { start = lengths[edge] }
            if !underground, let from = start {
                stretches.append(from...lengths[edge])
                start = nil
            }
        }
        if let from = start, let end = lengths.last { stretches.append(from...end) }
        return stretches
    }

    /// Whether the track at `alongTrack` metres runs underground.
    public func isUnderground(atAlongTrack alongTrack: Meters) -> Bool {
        guard !undergroundEdges.isEmpty else { return false }
        return undergroundEdges[min(polyline.edge(atAlongTrack: alongTrack), undergroundEdges.count - 1)]
    }
}
