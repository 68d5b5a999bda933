import TrainTrackerCore

/// What really happened at one simulated fix.
public struct TruthFix: Hashable, Sendable, Codable {
    /// The recorded fix's id.
    public var locationID: String
    /// When, in seconds since 1970.
    public var time: Double
    /// The train's true position along its railway's track.
    public var alongTrack: Meters
    /// The train's true speed.
    public var speed: MetersPerSecond
    /// The true focus station of the railway: `now` within 200 m of a station, `soon` within
    /// 500 m before the next station ahead, otherwise `next` for that station.
    public var station: String
    /// The phase of `station`.
    public var phase: FocusPhase
    /// The same rule over the stations this train stops at: the next stop.
    public var nextStop: String?
    /// The phase of `nextStop`.
    public var nextStopPhase: FocusPhase?
    /// The railway at this fix when it is not the session's (the first train of a transfer).
    public var railwayID: String?
    /// Its direction, likewise.
    public var directionName: String?
    /// Whether the fix is scored (`false` while the rider walks between trains).
    public var scored: Bool?

    /// Creates a truth record.
    public init(
        locationID: String, time: Double, alongTrack: Meters, speed: MetersPerSecond, station: String, phase: FocusPhase,
        nextStop: String?, nextStopPhase: FocusPhase?, scored: Bool? = nil
    ) {
        self.scored = scored
        self.locationID = locationID
        self.time = time
        self.alongTrack = alongTrack
        self.speed = speed
        self.station = station
        self.phase = phase
        self.nextStop = nextStop
        self.nextStopPhase = nextStopPhase
    }
}

/// The ground truth of one simulated session.
public struct CaseTruth: Hashable, Sendable, Codable {
    /// The session's id in the sessions file.
    public var sessionID: String
    /// The named scenario it belongs to, if any.
    public var scenario: String?
    /// The railway ridden.
    public var railwayID: String
    /// The direction's name, e.g. `Outbound`.
    public var directionName: String
    /// The timetabled train ridden.
    public var trainID: String
    /// Its type, e.g. `Tokyu.Express`.
    public var trainTypeID: String?
    /// Its name as riders know it (the GTFS `trip_short_name`), when it has one.
    public var trainName: String?
    /// The stations it stops at during the ride, in order.
    public var stops: [String]
    /// When it leaves the first station, in seconds since 1970.
    public var departure: Double
    /// When it reaches the last station, in seconds since 1970.
    public var arrival: Double
    /// Every recorded fix's truth, in time order.
    public var fixes: [TruthFix]
    /// For a rider who changed trains: the first train's railway, and when the second departed.
    public var transfer: Transfer?
    /// On a late (normal) or disrupted day, how many seconds late the train left its first station.
    public var delay: Seconds?
    /// When the train reached each station it stopped at, when the truth says so directly (a
    /// recording's, interpolated between positions); otherwise the evaluator finds the
    /// arrivals where the truth's train stands at a station.
    public var stopArrivals: [StopArrival]?
    /// Every station the train reached during the ride, called at or passed, in order, with
    /// when it did (a simulated ride's; absent in older files).
    public var passages: [StopArrival]?
    /// Where the train first differed from every other service that could be it (a simulated
    /// ride's, when other services ran through its boarding place).
    public var telling: Telling?

    /// The train reached `station` at `time` (seconds since 1970).
    public struct StopArrival: Hashable, Sendable, Codable {
        public var station: String
        public var time: Double

        /// An arrival.
        public init(station: String, time: Double) {
            self.station = station
            self.time = time
        }
    }

    /// The first leg of a ride with a change of trains.
    public struct Transfer: Hashable, Sendable, Codable {
        /// The first train's railway.
        public var fromRailwayID: String
        /// The first train's id.
        public var fromTrainID: String
        /// When the second train leaves, seconds since 1970; lock is measured from here.
        public var secondDeparture: Double
        /// When the rider got off the first train, seconds since 1970 (absent in older files).
        public var firstArrival: Double?
    }

    /// Creates a case's truth.
    public init(
        sessionID: String, scenario: String?, railwayID: String, directionName: String, trainID: String, trainTypeID: String?,
        stops: [String], departure: Double, arrival: Double, fixes: [TruthFix]
    ) {
        self.sessionID = sessionID
        self.scenario = scenario
        self.railwayID = railwayID
        self.directionName = directionName
        self.trainID = trainID
        self.trainTypeID = trainTypeID
        self.stops = stops
        self.departure = departure
        self.arrival = arrival
        self.fixes = fixes
    }
}
