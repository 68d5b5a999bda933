/// What one GTFS-realtime feed message says about the trains, as domain values: each trip's
/// delay or cancellation, and each vehicle's position. A reader (`TrainTrackerRealtime`) makes
/// it from the protocol buffers, range-checking every number; the tracker uses it through
/// `LiveTrips`, resolved against its timetable.
public struct RealtimeFeed: Hashable, Sendable {
    /// When the feed was made (its header's timestamp).
    public var timestamp: Timestamp
    /// What it says about trips (TripUpdate entities).
    public var trips: [TripReport]
    /// Where its vehicles are (VehiclePosition entities).
    public var vehicles: [VehicleReport]

    /// A feed.
    public init(timestamp: Timestamp, trips: [TripReport] = [], vehicles: [VehicleReport] = []) {
        self.timestamp = timestamp
        self.trips = trips
        self.vehicles = vehicles
    }
}

/// One trip's state in a feed: cancelled, or running with a delay.
public struct TripReport: Hashable, Sendable {
    /// The GTFS trip id.
    public var tripID: String
    /// The service day of the trip's run it reports (GTFS-realtime `start_date`), when the
    /// feed says: a trip after midnight may run on two days' timetables at once.
    public var startDate: CivilDay?
    /// Whether the trip was cancelled (`schedule_relationship` CANCELED or DELETED).
    public var cancelled: Bool
    /// Seconds late (negative: early): the trip's delay, or that of its latest stop-time
    /// update at or before the stops still to come; nil when the feed gives none.
    public var delay: Seconds?
    /// When the delay was measured (the update's timestamp, else the feed's).
    public var measured: Timestamp?
    /// The expected times at the stations still to come, when the report says (a feed
    /// published from riders does; the reader keeps only the delay).
    public var nextCalls: [TripProgress.Call]
    /// The GTFS route id the feed gives the trip, if any: a trip id of another route of this
    /// timetable is a clash, not a report (`LiveTrips`).
    public var routeID: String?
    /// Whether riders, not an operator, report the trip. Riders report only the trains they
    /// are on, so a train their feed leaves out may well run: their reports say where a train
    /// is, never that the line's other trains are not running.
    public var fromRiders = false

    /// A report.
    public init(
        tripID: String, startDate: CivilDay? = nil, cancelled: Bool = false, delay: Seconds? = nil, measured: Timestamp? = nil,
        nextCalls: [TripProgress.Call] = []
    ) {
        self.tripID = tripID
        self.startDate = startDate
        self.cancelled = cancelled
        self.delay = delay
        self.measured = measured
        self.nextCalls = nextCalls
    }
}

/// Where a vehicle on a trip was, and when.
public struct VehicleReport: Hashable, Sendable {
    /// The GTFS trip id it serves, when the feed says.
    public var tripID: String?
    /// The vehicle's id or label, when the feed says.
    public var vehicleID: String?
    /// Where it was.
    public var coordinate: Coordinate
    /// When (the position's timestamp, else the feed's).
    public var time: Timestamp
    /// Its heading, degrees clockwise from north, when the feed says.
    public var bearing: Degrees?
    /// The service day of the trip's run, when the feed says.
    public var startDate: CivilDay?

    /// A report.
    public init(
        tripID: String?, vehicleID: String? = nil, coordinate: Coordinate, time: Timestamp, bearing: Degrees? = nil,
        startDate: CivilDay? = nil
    ) {
        self.tripID = tripID
        self.vehicleID = vehicleID
        self.coordinate = coordinate
        self.time = time
        self.bearing = bearing
        self.startDate = startDate
    }
}
