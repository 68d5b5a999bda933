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

    /// One line saying what is wrong.

    public var description: String {
        switch self {
        case .duplicateRailway(let id): "railway '\(id)' is defined twice"
        case .duplicateStation(let id): "station '\(id)' is defined twice"
        case .unknownStation(let railway, let station): "railway '\(railway)' lists unknown station '\(station)'"
        case .tooFewStations(let railway): "railway '\(railway)' has fewer than two stations"
        case .emptyTrack(let railway): "railway '\(railway)' has no track coordinates"
        case .invalidCoordinate(let station): "station '\(station)' has an invalid coordinate"
        }
    }
}
