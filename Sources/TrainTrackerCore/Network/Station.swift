/// A station of one railway. A transfer station appears once per railway it serves.
public struct Station: Hashable, Sendable, Identifiable {
    /// A unique id, e.g. `Tokyu.Toyoko.Tsunashima`.
    public var id: String
    /// The railway this station belongs to.
    public var railwayID: String
    /// The display name in English (or the first name given).
    public var name: String
    /// Names by language code (`en`, `ja`, ...).
    public var names: [String: String]
    /// Where the station is.
    public var coordinate: Coordinate
    /// Whether the station is underground (no GPS on its platforms).
    public var isUnderground: Bool

    /// Creates a station.
    public init(
        id: String, railwayID: String, name: String, names: [String: String] = [:], coordinate: Coordinate,
        isUnderground: Bool = false
    ) {
        self.id = id
        self.railwayID = railwayID
        self.name = name
        self.names = names.isEmpty ? ["en": name] : names
        self.coordinate = coordinate
        self.isUnderground = isUnderground
    }
}
