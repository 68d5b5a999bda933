/// A feed resolved against a tracker's timetable: per line, the trips it reports, by the
/// model's trip index. The tracker asks it for a trip's reported delay, or whether the trip
/// was cancelled (`RailwayTracker.live`). A report of a trip the timetable does not have is
/// counted in `unknownTrips` and otherwise left alone: a feed for another timetable changes
/// no answer.
public struct LiveTrips: Sendable {
    /// What the feed says about one trip.
    struct Trip: Sendable {
        var cancelled: Bool
        var delay: Seconds?
        /// Where the service day of the run it reports starts (`TimeZoneRules.serviceDayOrigin`),
        /// when the feed names the day.
        var origin: Seconds?
        /// Whether it says the line's trains are reported (an operator's report, not riders').
        var informs = true
        /// Where the feed last saw its train, and when.
        var vehicle: (coordinate: Coordinate, time: Timestamp)?
    }

    /// When the feed was made.
    public private(set) var timestamp: Timestamp
    /// Per line (`LineDirection.index`), the reported trips by trip index (a trip may be
    /// reported for two service days).
    private(set) var lines: [[Int32: [Trip]]]
    /// Per line, whether the feed gives a delay for any of its running trips.
    private(set) var informed: [Bool]
    /// Per line, where an operator's feed saw its running trains (`placedTrains(of:)`), found
    /// once per feed rather than at every passage.
    private var placed: [[PlacedTrain]] = []
    /// Per line, whether the feed reports a train running now by its timetable and delay
    /// without placing it: then the placed trains are not all the line's.
    private var unplacedRunning: [Bool] = []
    /// Trips the feed reports that the timetable has.
    public let knownTrips: Int
    /// Trips the feed reports that the timetable lacks (a feed for another timetable).
    public let unknownTrips: Int
    /// Vehicles on a known trip, near its track.
    public let vehicles: Int
    /// Vehicles on a known trip but farther than `TrackerModel.delayReach` from its track (a
    /// wrong trip id, a position gone astray): they place nothing and give no delay.
    public let offTrackVehicles: Int
    /// The runs the operator's trains made lately into their stops, up to this feed, for
    /// arrival times: none unless whoever keeps the feeds adds them (`LiveFeeds`, a server).
    public var runs = RecentRuns()
    /// When the operator's feeds up to this one reported each trip: none unless whoever keeps
    /// the feeds adds them (`LiveFeeds`, a server).
    public var sightings = TripSightings()

    /// `feed` resolved against `model`'s trips by GTFS trip id.
    ///
    /// - Complexity: O(reports + V log P) once the model's trip index is built, for V vehicle
    ///   positions (each projected on its track of P vertices).
    public init(_ feed: RealtimeFeed, model: TrackerModel) {
        timestamp = feed.timestamp
        var lines = Array(repeating: [Int32: [Trip]](), count: model.network.railways.count * 2)
        var informed = Array(repeating: false, count: lines.count)
        var known = 0
        var unknown = 0
        var delayed: [(id: String, line: Int, trip: Int32, delay: Seconds)] = []
        let railwayIDs = Set(model.network.railways.map(\.id))
        for report in feed.trips {
            guard let place = model.tripIndex[report.tripID] else {
                unknown += 1
                continue
            }
            // A route of this timetable that is not the trip's: the feed's trip is another
            // route's (ids clash), not ours. (A route id the timetable does not use says
            // nothing: a network not made from GTFS names its railways otherwise.)
            if let route = report.routeID, railwayIDs.contains(route),
                route != model.network.railways[LineDirection(index: Int(place.line)).railway].id
            {
                unknown += 1
                continue
            }
            known += 1
            let origin = report.startDate.map { model.zone.serviceDayOrigin($0) }
            lines[Int(place.line)][place.trip, default: []].append(
                Trip(cancelled: report.cancelled, delay: report.delay, origin: origin, informs: !report.fromRiders))
            if !report.cancelled, let delay = report.delay, !report.fromRiders {
                informed[Int(place.line)] = true
                delayed.append((report.tripID, Int(place.line), place.trip, delay))
            }
        }
        // A vehicle position is a report of its own: where the train is, and so (where its
        // trip's update gives none) how late it runs there.
        var (onTrack, offTrack) = (0, 0)
        for vehicle in feed.vehicles {
            guard let id = vehicle.tripID, let place = model.tripIndex[id] else { continue }
            // A train is where its track is: a position far from it is not its train's.
            guard model.isNearTrack(ofTrip: id, vehicle.coordinate) else {
                offTrack += 1
                continue
            }
            onTrack += 1
            let line = Int(place.line)
            let origin = vehicle.startDate.map { model.zone.serviceDayOrigin($0) }
            let seen = (vehicle.coordinate, vehicle.time)
            var reports = lines[line][place.trip] ?? []
            if let index = reports.firstIndex(where: { $0.origin == origin || $0.origin == nil || origin == nil }) {
                reports[index].vehicle = seen
                if reports[index].delay == nil, !reports[index].cancelled {
                    reports[index].delay = model.delay(ofTrip: id, at: vehicle.coordinate, time: vehicle.time)
                }
            } else if let delay = model.delay(ofTrip: id, at: vehicle.coordinate, time: vehicle.time) {
                reports.append(Trip(cancelled: false, delay: delay, origin: origin, vehicle: seen))
            }
            if reports.contains(where: { $0.informs && !$0.cancelled && $0.delay != nil }) { informed[line] = true }
            lines[line][place.trip] = reports
        }
        // A train reported late or early but not placed, running now by its timetable: a feed
        // that places only some trains cannot say the rider's is not among the others.
        var unplacedRunning = Array(repeating: false, count: lines.count)
        for trip in delayed where !unplacedRunning[trip.line] {
            let seen = lines[trip.line][trip.trip]?.contains { $0.vehicle != nil } ?? false
            if !seen, model.progress(ofTrip: trip.id, delay: trip.delay, at: feed.timestamp) != nil {
                unplacedRunning[trip.line] = true
            }
        }
        self.lines = lines
        self.informed = informed
        self.unplacedRunning = unplacedRunning
        placed = lines.indices.map { unplacedRunning[$0] ? [] : Self.placedTrains(among: lines[$0]) }
        knownTrips = known
        unknownTrips = unknown
        vehicles = onTrack
        offTrackVehicles = offTrack
    }

    /// The same reports, as known at `time` (a server's feed, told to a fix taken moments
    /// before the feed was put together).
    public func dated(_ time: Timestamp) -> LiveTrips {
        var copy = self
        copy.timestamp = time
        return copy
    }

    /// The same reports with trip `tripID`'s replaced by `report` (nil: left unreported), as
    /// when a rider's own sighting is taken out of what riders agree on.
    ///
    /// - Complexity: O(reports of the trip's line).
    public func replacing(tripID: String, with report: TripReport?, model: TrackerModel) -> LiveTrips {
        var copy = self
        copy.set(report, forTrip: tripID, model: model)
        return copy
    }

    /// Trip `tripID`'s reports replaced by `report` (nil: left unreported), in place: riders'
    /// reports laid over an operator's feed.
    ///
    /// - Complexity: O(reports of the trip's line).
    public mutating func set(_ report: TripReport?, forTrip tripID: String, model: TrackerModel) {
        guard let place = model.tripIndex[tripID], lines.indices.contains(Int(place.line)) else { return }
        let line = Int(place.line)
        lines[line][place.trip] = report.map { report in
            [
                Trip(
                    cancelled: report.cancelled, delay: report.delay,
                    origin: report.startDate.map { model.zone.serviceDayOrigin($0) }, informs: !report.fromRiders)
            ]
        }
        informed[line] = lines[line].values.contains { $0.contains { $0.informs && !$0.cancelled && $0.delay != nil } }
        if placed.indices.contains(line), !unplacedRunning[line] { placed[line] = Self.placedTrains(among: lines[line]) }
    }

    /// Whether the feed gives the delay of any running trip of `line` (a cancellation alone
    /// says nothing of where the line's trains are).
    func reports(_ line: LineDirection) -> Bool {
        informed.indices.contains(line.index) && informed[line.index]
    }

    /// A train an operator's feed places: where and when it was seen.
    struct PlacedTrain {
        let coordinate: Coordinate
        let time: Timestamp
    }

    /// Where an operator's feed last saw each running train of `line` (riders' reports left
    /// out: they are the riders' own trains; cancelled trips run nowhere); none when the feed
    /// reports a train of the line running now without placing it (it places only some).
    ///
    /// - Complexity: O(1).
    func placedTrains(of line: LineDirection) -> [PlacedTrain] {
        placed.indices.contains(line.index) ? placed[line.index] : []
    }

    /// The trains `reports` (one line's) place.
    private static func placedTrains(among reports: [Int32: [Trip]]) -> [PlacedTrain] {
        reports.values.flatMap { reports in
            reports.compactMap { report in
                guard report.informs, !report.cancelled, let seen = report.vehicle else { return nil }
                return PlacedTrain(coordinate: seen.coordinate, time: seen.time)
            }
        }
    }

    /// What the feed said about trip `trip` of `line` on the service day starting at `origin`
    /// (a report that names no day speaks for either), if anything.
    func trip(_ trip: Int32, of line: LineDirection, origin: Seconds) -> Trip? {
        guard lines.indices.contains(line.index), let reports = lines[line.index][trip] else { return nil }
        return reports.first { $0.origin == origin } ?? reports.first { $0.origin == nil }
    }
}

/// Feeds over time, resolved: at any moment the tracker knows what the latest feed at or
/// before it said, never a later one.
public struct LiveFeeds: Sendable {
    /// The feeds, by time.
    public private(set) var feeds: [LiveTrips]

    /// `feeds` in time order (the latest of equal times wins).
    public init(_ feeds: [LiveTrips]) {
        self.feeds = feeds.enumerated().sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }
            .map(\.element)
    }

    /// `feeds` in time order, each told the runs its trains made into their stops (`RecentRuns`)
    /// and when each trip was reported (`TripSightings`), as the feeds up to it showed them
    /// on `model`'s lines. (One set of each for all: each run and report says which feed
    /// showed it, and a tracker never reads a later one.)
    ///
    /// - Complexity: O(V · (log P + C)) for V vehicle positions in all, P track vertices and C calls per trip.
    public init(_ feeds: [LiveTrips], model: TrackerModel) {
        self.init(feeds)
        var runs = RecentRuns()
        var sightings = TripSightings()
        for feed in self.feeds {
            runs.advance(with: feed, model: model)
            sightings.advance(with: feed)
        }
        self.feeds = self.feeds.map { feed in
            var feed = feed
            feed.runs = runs
            feed.sightings = sightings
            return feed
        }
    }

    /// The latest feed made at or before `time`.
    ///
    /// - Complexity: O(log feeds).
    public func latest(atOrBefore time: Timestamp) -> LiveTrips? {
        var low = 0
        var high = feeds.count
        while low < high {
            let middle = (low + high) / 2
            if feeds[middle].timestamp <= time { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? feeds[low - 1] : nil
    }
}

/// A tracker that can be told what the latest GTFS-realtime feed says (`RailwayTracker`,
/// `TripTracker`).
public protocol LiveInformed: TrackingAlgorithm {
    /// The latest feed, set before each fix by whoever holds the feeds.
    var live: LiveTrips? { get set }
}

extension RailwayTracker: LiveInformed {}

/// A tracker told the latest feed at each fix's time (replays and evaluations of recorded
/// rides with an archive of feeds).
public struct LiveTracker<Tracker: LiveInformed>: TrackingAlgorithm {
    /// The tracker.
    public var tracker: Tracker
    /// The feeds.
    public let feeds: LiveFeeds

    /// `tracker`, told `feeds`.
    public init(_ tracker: Tracker, feeds: LiveFeeds) {
        self.tracker = tracker
        self.feeds = feeds
    }

    /// Takes the next fix, knowing the latest feed at or before its time.
    public mutating func process(_ location: Location) -> TrackingResult {
        tracker.live = feeds.latest(atOrBefore: location.timestamp)
        return tracker.process(location)
    }
}
