/// What kind of vehicle a logged leg used, as far as a diary can tell.
public enum VehicleKind: String, Hashable, Sendable {
    /// Metro or train.
    case rail
    /// Bus, tram, car, or a vehicle of unknown type.
    case road

    /// The kind of a manual-log line type (`SUBWAY`, `TRAIN` are rail; the rest road).
    public static func of(lineType: String?) -> VehicleKind {
        ["SUBWAY", "TRAIN", "METRO", "RAIL"].contains(lineType?.uppercased() ?? "") ? .rail : .road
    }
}

/// A vehicle leg from a log: who, when, and what.
public struct LoggedLeg: Hashable, Sendable {
    /// The device.
    public var device: Int
    /// Departure.
    public var start: Timestamp
    /// Arrival.
    public var end: Timestamp
    /// Rail or road.
    public var kind: VehicleKind
    /// The log's words for it ("SUBWAY V").
    public var label: String
    /// The line, as the log names it ("K", "9"), if it does.
    public var line: String?
    /// Where it was boarded, in the log's words ("Sörnäinen(M)").
    public var from: String?
    /// Where it was left, in the log's words.
    public var to: String?

    /// A leg.
    public init(
        device: Int, start: Timestamp, end: Timestamp, kind: VehicleKind, label: String, line: String? = nil, from: String? = nil,
        to: String? = nil
    ) {
        self.device = device
        self.start = start
        self.end = end
        self.kind = kind
        self.label = label
        self.line = line
        self.from = from
        self.to = to
    }
}
