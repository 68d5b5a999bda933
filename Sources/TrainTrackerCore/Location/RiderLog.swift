/// One line of a rider's own log of a ride: when, what happened, and where.
///
/// A log comes from the GroundTruthLogger app (a category and free-text notes) or from a
/// plain CSV a rider keeps in any notes app (`time,event,station,railway,direction`). The
/// place is kept as the rider wrote it; `LoggedPlaceResolver` finds it in a network.
public struct RiderLogEvent: Hashable, Sendable {
    /// What the rider logged.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// The train left a station.
        case departure
        /// The train came to a stop at a station.
        case arrival
        /// The rider walked (GroundTruthLogger's `walkingMotionActivity`).
        case walking
        /// The rider was in a car or bus (`automotiveMotionActivity`).
        case automotive
        /// The phone noted a significant location change (`significantLocation`).
        case significantLocation

        /// The kind a log names: `departure`, `arrival`, `walking`, `automotive`,
        /// `significantLocation`, GroundTruthLogger's categories (`trainDeparture`,
        /// `trainArrival`, `walkingMotionActivity`, `automotiveMotionActivity`) and the short
        /// forms `dep`, `depart`, `departed`, `arr`, `arrive`, `arrived`, `walk`; case,
        /// spaces, dashes and underscores do not matter. `nil` for anything else.
        ///
        ///     RiderLogEvent.Kind(logName: "trainArrival")   // .arrival
        ///     RiderLogEvent.Kind(logName: "Departure")      // .departure
        public init?(logName: some StringProtocol) {
            let key = String(logName.lowercased().filter { $0.isLetter })
            guard let kind = Self.names[key] else { return nil }
            self = kind
        }

        private static let names: [String: Kind] = [
            "departure": .departure, "traindeparture": .departure, "dep": .departure, "depart": .departure,
            "departed": .departure, "arrival": .arrival, "trainarrival": .arrival, "arr": .arrival, "arrive": .arrival,
            "arrived": .arrival, "walking": .walking, "walk": .walking, "walkingmotionactivity": .walking,
            "automotive": .automotive, "automotivemotionactivity": .automotive, "significantlocation": .significantLocation,
        ]

        /// Whether the event is a train's departure or arrival, the events that are scored.
        public var isTrainEvent: Bool { self == .departure || self == .arrival }
    }

    /// When it happened.
    public var time: Timestamp
    /// What happened.
    public var kind: Kind
    /// The station as logged: an id (`Tokyu.Toyoko.Kikuna`) or a name (`Kikuna`).
    public var station: String?
    /// The railway as logged: an id or a name (`Toyoko Line`, `Tokaido`).
    public var railway: String?
    /// The direction as logged: the railway's name for it (`Outbound`) or a station ahead
    /// (`Yokohama`, `for Yokohama`).
    public var direction: String?
    /// Free text naming the station, the line or the direction (`Kawasaki, Tokaido Line for
    /// Yokohama`), read when the fields above are not given.
    public var notes: String?
    /// Where the event is in its file, for messages: `line 4`, `row 'E12'`.
    public var source: String

    /// An event.
    public init(
        time: Timestamp, kind: Kind, station: String? = nil, railway: String? = nil, direction: String? = nil,
        notes: String? = nil, source: String = ""
    ) {
        self.time = time
        self.kind = kind
        self.station = station
        self.railway = railway
        self.direction = direction
        self.notes = notes
        self.source = source
    }

    /// The place as the rider wrote it, for a report: the station, or else the notes.
    public var placeText: String {
        station ?? notes ?? "-"
    }
}

/// Writing a log in the CSV form the readers take back.
public enum RiderLogCSV {
    /// The header of the CSV form.
    public static let header = "time,event,station,railway,direction"

    /// `events` as CSV text with `header`: times in ISO 8601 UTC, fields quoted when they
    /// hold a comma or a quote.
    ///
    ///     2025-09-22T08:01:05.000Z,departure,Shibuya,Toyoko Line,for Yokohama
    ///
    /// - Complexity: O(n) in the number of events.
    public static func text(_ events: [RiderLogEvent]) -> String {
        var lines = [header]
        for event in events {
            let fields = [
                event.time.iso8601, event.kind.rawValue, event.station ?? "", event.railway ?? "", event.direction ?? "",
            ]
            lines.append(fields.map(quoted).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return field }
        return "\"" + field.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}
