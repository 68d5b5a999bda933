import TrainTrackerCore

/// Real rides from a recording of trains' own positions (an archived GTFS-realtime
/// VehiclePositions feed): one ride per trip and service day, its truth taken from the trip
/// in the timetable the trains ran on (railway, direction, stopping pattern, train).
///
/// Each position becomes a fix with no speed, course or accuracy (the feed has none); the
/// truth at a fix is found by projecting it on the railway's track: the focus station by the
/// now/soon/next rule, and the next stop by the same rule over the trip's own stops.
///
///     let rides = RecordedRides(positions: recording.positions, dataset: dataset)
///     let scores = rides.cases.map { evaluator.score(fixes: $0.fixes, truth: $0.truth, tracker: ...) }
public struct RecordedRides: Sendable {
    /// The rides, in trip and day order: fixes and truth, as `simulate` writes them.
    public var cases: [(fixes: [RecordedFix], truth: CaseTruth)]
    /// Each case's service day (`days[i]` is `cases[i]`'s).
    public var days: [CivilDay]
    /// Positions left out, by reason (exact repeats, off the track, unknown trips...).
    public var dropped: [String: Int]

    /// A position farther than this from its railway's track is off the trip's shape.
    public static let offTrack: Meters = 300
    /// A ride departs at its last fix within this distance (along the track) of its first: a
    /// train may stand at its origin for an hour before it leaves, and no rider there can be
    /// told which train it will be.
    public static let departureDistance: Meters = 300
    /// A ride with fewer fixes than this (after dropping) is left out: too short to score.
    public static let fewestFixes = 3
    /// How far outside a trip's scheduled span a position may be and still be dated to that
    /// trip's service day rather than a neighbouring one.
    static let dayReach: Seconds = 6 * 3_600

    /// Groups `positions` into rides on `dataset`'s timetable.
    ///
    /// - Complexity: O(n log n + n · s) for n positions and s stations per railway.
    public init(positions: [VehiclePosition], dataset: TransitDataset) {
        let network = dataset.network
        let timetable = dataset.timetable
        let trainIndex = Dictionary(
            timetable.trains.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        var dropped: [String: Int] = [:]
        var rides: [RideKey: [VehiclePosition]] = [:]
        // Each trip's scheduled span, worked out once (not once per position).
        let spans = timetable.trains.map(Self.span(of:))
        for position in positions {
            guard let index = trainIndex[position.tripID] else {
                dropped["trip not in the timetable", default: 0] += 1
                continue
            }
            let day = Self.serviceDay(
                of: position.time, train: timetable.trains[index], span: spans[index], timetable: timetable)
            rides[RideKey(train: index, day: day), default: []].append(position)
        }
        var cases: [(fixes: [RecordedFix], truth: CaseTruth)] = []
        var days: [CivilDay] = []
        for key in rides.keys.sorted() {
            let train = timetable.trains[key.train]
            guard let ride = Self.ride(of: train, day: key.day, positions: rides[key] ?? [], network: network, dropped: &dropped)
            else { continue }
            cases.append(ride)
            days.append(key.day)
        }
        self.cases = cases
        self.days = days
        self.dropped = dropped
    }

    /// From `train`'s first scheduled time to its last (seconds of its service day), if it has any.
    static func span(of train: TimetabledTrain) -> ClosedRange<Seconds>? {
        let times = train.stops.flatMap { [$0.arrival, $0.departure] }.compactMap { $0 }
        guard let first = times.min(), let last = times.max() else { return nil }
        return first...last
    }

    /// The service day `time` belongs to for `train` (scheduled over `span`): of the local
    /// date and its neighbours, a day the train runs on whose span is nearest `time` (service
    /// runs past midnight, and a train may stand at its terminal before it leaves).
    static func serviceDay(
        of time: Timestamp, train: TimetabledTrain, span: ClosedRange<Seconds>?, timetable: Timetable
    ) -> CivilDay {
        let zone = timetable.zone
        let local = zone.day(of: time)
        guard let first = span?.lowerBound, let last = span?.upperBound else { return local }
        var best = (day: local, cost: Double.infinity)
        for day in [local.adding(-1), local, local.adding(1)] {
            let clock = time.secondsSince1970 - zone.serviceDayOrigin(day)
            let outside = max(0, first - clock, clock - last)
            // A day the train does not run on only when no day it runs on is near.
            let cost = outside + (timetable.calendar.runs(train.service, on: day) ? 0 : dayReach)
            if cost < best.cost { best = (day, cost) }
        }
        return best.day
    }

    /// One ride: the positions in time order less exact repeats and positions off the track,
    /// each with its truth.
    static func ride(
        of train: TimetabledTrain, day: CivilDay, positions: [VehiclePosition], network: RailwayNetwork,
        dropped: inout [String: Int]
    ) -> (fixes: [RecordedFix], truth: CaseTruth)? {
        guard let railway = network.railway(id: train.railwayID), let direction = railway.direction(named: train.directionName)
        else {
            dropped["trip on a railway the network lacks", default: 0] += positions.count
            return nil
        }
        let positionsAlong = network.stationPositions(of: railway)
        let walk = TrackWalk(railway: railway, direction: direction)
        let slot = Dictionary(railway.stationIDs.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
        let stops = train.stops.compactMap { stop in slot[stop.stationID].map { (stop.stationID, positionsAlong[$0]) } }
        let railwayTruth = FocusRule(stations: Array(zip(railway.stationIDs, positionsAlong)), walk: walk)
        let stopTruth = FocusRule(stations: stops, walk: walk)
        let sessionID = "\(train.id)-\(day)"
        var fixes: [RecordedFix] = []
        var truths: [TruthFix] = []
        var previous: VehiclePosition?
        var lastKept: (time: Timestamp, along: Meters)?
        for position in positions.sorted(by: { $0.time < $1.time }) {
            defer { previous = position }
            // A stale position the feed published again is no new fix (nor is one at the same time).
            if let previous, previous.coordinate == position.coordinate || previous.time == position.time {
                dropped["exact repeat", default: 0] += 1
                continue
            }
            guard let projection = railway.track.polyline.projection(of: position.coordinate, within: offTrack) else {
                dropped["more than \(Int(offTrack)) m off the track", default: 0] += 1
                continue
            }
            let along = projection.alongTrack
            guard let focus = railwayTruth.focus(at: along) else {
                dropped["past the end of the line", default: 0] += 1
                continue
            }
            let stop = stopTruth.focus(at: along)
            let speed = lastKept.map { abs(along - $0.along) / max(1, position.time.seconds(since: $0.time)) } ?? 0
            lastKept = (position.time, along)
            let id = "\(sessionID)-\(String(fixes.count + 1).leftPadded(5))"
            fixes.append(RecordedFix(id: id, location: Location(coordinate: position.coordinate, timestamp: position.time)))
            truths.append(
                TruthFix(
                    locationID: id, time: position.time.secondsSince1970, alongTrack: along, speed: speed,
                    station: focus.station, phase: focus.phase, nextStop: stop?.station, nextStopPhase: stop?.phase))
        }
        guard fixes.count >= fewestFixes, let start = fixes.first?.location.timestamp, let end = fixes.last?.location.timestamp
        else {
            dropped["in rides of fewer than \(fewestFixes) fixes", default: 0] += fixes.count
            return nil
        }
        let origin = truths[0].alongTrack
        let departure = truths.prefix { abs($0.alongTrack - origin) < departureDistance }.last?.time ?? start.secondsSince1970
        var truth = CaseTruth(
            sessionID: sessionID, scenario: railway.name, railwayID: railway.id, directionName: train.directionName,
            trainID: train.id, trainTypeID: train.trainTypeID, stops: train.stops.map(\.stationID),
            departure: departure, arrival: end.secondsSince1970, fixes: truths)
        truth.trainName = train.number ?? train.id
        truth.stopArrivals = Self.arrivals(truths, stops: stops, walk: walk)
        return (fixes, truth)
    }
}

extension RecordedRides {
    /// A train counts as arrived this far before a station's mark (a platform is long).
    static let arrivalBefore: Meters = 50

    /// When the train reached each of `stops` (id, along-track position): the moment it came
    /// within `arrivalBefore` of the station's mark, interpolated between the two positions
    /// either side (a minute apart, so within about half a dwell of the true arrival).
    static func arrivals(_ truths: [TruthFix], stops: [(String, Meters)], walk: TrackWalk) -> [CaseTruth.StopArrival] {
        var arrivals: [CaseTruth.StopArrival] = []
        for (station, position) in stops {
            let mark = walk.advance(position, by: -arrivalBefore)
            for (before, after) in zip(truths, truths.dropFirst()) {
                let from = walk.distanceAhead(from: before.alongTrack, to: mark)
                let stretch = walk.distanceAhead(from: before.alongTrack, to: after.alongTrack)
                guard from > 0, stretch >= from, stretch > 0 else { continue }
                arrivals.append(.init(station: station, time: before.time + (after.time - before.time) * from / stretch))
                break
            }
        }
        return arrivals.sorted { $0.time < $1.time }
    }
}

/// A ride: a trip (an index into the timetable's trains) on a service day.
private struct RideKey: Hashable, Comparable {
    var train: Int
    var day: CivilDay

    static func < (lhs: RideKey, rhs: RideKey) -> Bool { (lhs.train, lhs.day) < (rhs.train, rhs.day) }
}
