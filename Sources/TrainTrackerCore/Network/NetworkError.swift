/// Why a set of railways and stations does not form a usable network.
public enum NetworkError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Two railways share an id.
    case duplicateRailway(String)
    /// Two stations share an id.
    case duplicateStation(String)
    /// A railway lists a station id that no station has.
    case unknownStation(railway: String, station: String)
    /// A railway lists fewer than two stations.
    case tooFewStations(railway: String)
    /// A railway has no track vertices.
    case emptyTrack(railway: String)
    /// A station's coordinate is not a valid WGS-84 position.
    case invalidCoordinate(station: String)
    /// A track vertex (counted from 0) is not a valid WGS-84 position.
    case invalidTrackCoordinate(railway: String, vertex: Int)
    /// Two consecutive track vertices lie further apart than any railway runs without a
    /// bend or a station (`RailwayNetwork.longestTrackEdge`).
    case trackEdgeTooLong(railway: String, vertex: Int, meters: Meters)

    /// One line saying what is wrong.

    public var description: String {
        switch self {
        case .duplicateRailway(let id): "railway '\(id)' is defined twice"
        case .duplicateStation(let id): "station '\(id)' is defined twice"
        case .unknownStation(let railway, let station): "railway '\(railway)' lists unknown station '\(station)'"
        case .tooFewStations(let railway): "railway '\(railway)' has fewer than two stations"
        case .emptyTrack(let railway): "railway '\(railway)' has no track coordinates"
        case .invalidCoordinate(let station): "station '\(station)' has an invalid coordinate"
        case .invalidTrackCoordinate(let railway, let vertex):
            "railway '\(railway)' has an invalid coordinate at track vertex \(vertex)"
        case .trackEdgeTooLong(let railway, let vertex, let meters):
            "railway '\(railway)' has a track edge of \(Int(flooring: meters / 1000, within: 0...100_000)) km after vertex \(vertex)"
        }
    }
}
