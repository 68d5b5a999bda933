/// A kind of train on a railway: local, rapid, express, Baby Bullet...
public struct TrainType: Hashable, Sendable, Identifiable {
    /// A unique id, e.g. `Tokyu.Express` or `caltrain.Limited`.
    public var id: String
    /// The display name in English (or the first name given).
    public var name: String
    /// Names by language code.
    public var names: [String: String]

    /// Creates a train type.
    public init(id: String, name: String, names: [String: String] = [:]) {
        self.id = id
        self.name = name
        self.names = names.isEmpty ? ["en": name] : names
    }
}

/// A call at a station: when the train arrives and departs, in seconds after midnight of
/// its service day (past 24 h for trains running after midnight).
public struct TimetableStop: Hashable, Sendable {
    /// The station called at.
    public var stationID: String
    /// Seconds after midnight of the service day; `nil` at the origin or when not published.
    public var arrival: Seconds?
    /// Seconds after midnight of the service day; `nil` at the destination or when not published.
    public var departure: Seconds?

    /// Creates a call.
    public init(stationID: String, arrival: Seconds?, departure: Seconds?) {
        self.stationID = stationID
        self.arrival = arrival
        self.departure = departure
    }
}

/// One scheduled run of a train along one railway. A station of the railway that is not
/// among `stops` is passed without stopping, which is how express and local trains of one
/// railway differ.
public struct TimetabledTrain: Hashable, Sendable, Identifiable {
    /// A unique id, e.g. `Tokyu.Toyoko.1234K.Weekday`.
    public var id: String
    /// The railway run along.
    public var railwayID: String
    /// The train's number as published, if any.
    public var number: String?
    /// Its type (`TrainType.id`), if known.
    public var trainTypeID: String?
    /// The direction of travel, by the railway's direction name (e.g. `Outbound`).
    public var directionName: String
    /// The calendar it runs on, e.g. `Weekday`, `Holiday` or a GTFS `service_id`.
    public var service: String
    /// A name such as a limited express's, if any.
    public var name: String?
    /// The stations called at, in order.
    public var stops: [TimetableStop]
    /// Trains this one continues from on another railway (through service).
    public var previousTrainIDs: [String]
    /// Trains this one continues as on another railway (through service).
    public var nextTrainIDs: [String]

    /// Creates a train.
    public init(
        id: String, railwayID: String, number: String? = nil, trainTypeID: String? = nil, directionName: String,
        service: String, name: String? = nil, stops: [TimetableStop], previousTrainIDs: [String] = [],
        nextTrainIDs: [String] = []
    ) {
        self.id = id
        self.railwayID = railwayID
        self.number = number
        self.trainTypeID = trainTypeID
        self.directionName = directionName
        self.service = service
        self.name = name
        self.stops = stops
        self.previousTrainIDs = previousTrainIDs
        self.nextTrainIDs = nextTrainIDs
    }
}

/// The scheduled trains of a network.
public struct Timetable: Sendable {
    /// The kinds of train, by id.
    public var trainTypes: [TrainType]
    /// Every scheduled run.
    public var trains: [TimetabledTrain]
    /// The timetable's clock: its zone's offsets from UTC over the feed's years (daylight
    /// saving included), which place each service day's times in real time.
    public var zone: TimeZoneRules
    /// The days each train's `service` runs on.
    public var calendar: ServiceCalendar

    /// Creates a timetable on the clock of `zone`.
    public init(
        trainTypes: [TrainType] = [], trains: [TimetabledTrain] = [], zone: TimeZoneRules,
        calendar: ServiceCalendar = ServiceCalendar()
    ) {
        self.trainTypes = trainTypes
        self.trains = trains
        self.zone = zone
        self.calendar = calendar
    }

    /// Creates a timetable on a clock `utcOffset` seconds ahead of UTC all year.
    public init(
        trainTypes: [TrainType] = [], trains: [TimetabledTrain] = [], utcOffset: Seconds = 0,
        calendar: ServiceCalendar = ServiceCalendar()
    ) {
        self.init(trainTypes: trainTypes, trains: trains, zone: .fixed(utcOffset), calendar: calendar)
    }

    /// An empty timetable.
    public static let empty = Timetable()

    /// How many calls all trains make together.
    public var stopCount: Int { trains.reduce(0) { $0 + $1.stops.count } }
}

/// A railway network with the timetable that runs on it (possibly empty).
public struct TransitDataset: Sendable {
    /// Railways, stations and tracks.
    public var network: RailwayNetwork
    /// The scheduled trains.
    public var timetable: Timetable

    /// Creates a dataset.
    public init(network: RailwayNetwork, timetable: Timetable = .empty) {
        self.network = network
        self.timetable = timetable
    }
}

extension TimetableStop {
    /// Parses `HH:MM` or `HH:MM:SS` (hours may pass 24) into seconds after midnight.
    ///
    ///     TimetableStop.seconds(fromClock: "24:05")   // 86_700
    ///
    /// - Complexity: O(n) in the length of the text.
    public static func seconds(fromClock text: some StringProtocol) -> Seconds? {
        let parts = String(text).split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count) else { return nil }
        var values: [Int] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy(\.isASCII), let value = Int(part.trimmingSpaces()) else {
                return nil
            }
            values.append(value)
        }
        guard values[0] >= 0, values[0] < 48, values[1] >= 0, values[1] < 60 else { return nil }
        let seconds = values.count == 3 ? values[2] : 0
        guard seconds >= 0, seconds < 60 else { return nil }
        return Seconds(values[0] * 3600 + values[1] * 60 + seconds)
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
