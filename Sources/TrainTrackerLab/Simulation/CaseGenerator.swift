import TrainTrackerCore

/// A simulated recording with its ground truth.
public struct SimulatedCase: Sendable {
    /// The session as it is written to the sessions file.
    public var sessionID: String
    /// When recording started.
    public var start: Timestamp
    /// The recorded fixes.
    public var fixes: [RecordedFix]
    /// What really happened.
    public var truth: CaseTruth
}

/// Which rides a set of cases is drawn from.
public struct RideFilter: Hashable, Sendable {
    /// The name the cases carry (a scenario's), if any.
    public var name: String?
    /// Railways to ride; all when empty.
    public var railways: Set<String> = []
    /// Train types to ride (`TimetabledTrain.trainTypeID`); all when empty.
    public var trainTypes: Set<String> = []
    /// The ride must call at or pass one of these stations; any ride when empty.
    public var throughStations: Set<String> = []
    /// The fewest and most stops in a ride, both ends counted.
    public var stops: ClosedRange<Int> = 3...8
    /// Whether the rider changes trains: a first ride, a walk to another railway's station
    /// within 300 m, and a second ride on a train leaving there 1 to 25 minutes later.
    public var transfer = false

    /// A filter; the defaults take any ride of 3 to 8 stops.
    public init(
        name: String? = nil, railways: Set<String> = [], trainTypes: Set<String> = [], throughStations: Set<String> = [],
        stops: ClosedRange<Int> = 3...8, transfer: Bool = false
    ) {
        self.transfer = transfer
        self.name = name
        self.railways = railways
        self.trainTypes = trainTypes
        self.throughStations = throughStations
        self.stops = stops
    }
}

/// Picks real trains from a timetable and simulates rides on them: the same seed gives
/// the same cases.
public struct CaseGenerator: Sendable {
    /// The network and timetable rides are drawn from.
    public let dataset: TransitDataset
    /// The phone's behaviour.
    public var phone = PhoneModel()
    /// The train's motion limits.
    public var limits = TimetabledRide.Limits()
    /// How the drawn map differs from the real track, if it does: trains then run on the real
    /// track, and the network's own (drawn) track is what a tracker is given.
    public var mapDistortion: MapDistortion?
    /// Where trains stop against the map's station points, if not at them.
    public var stationDisplacement: StationDisplacement?
    /// Stops the rider's train makes at stations its service passes, if it does.
    public var signalStops: SignalStops?
    /// How the day's trains run against their timetable (ordinarily late, or disrupted); on
    /// time when nil.
    public var disruption: (any TrainDelays)?
    /// How long the rider stays on the platform at the last stop, if longer than the train's
    /// own `limits.finalWait`.
    public var platformStay: ClosedRange<Seconds>?
    /// How long the train stands at one stop between the ride's ends (drawn per ride, at a stop
    /// drawn among them), if it does.
    public var longDwell: ClosedRange<Seconds>?
    /// How long the rider sits in the train at its first station before it leaves, if the
    /// rider boards there early: rides then start at their train's first station.
    public var originWait: ClosedRange<Seconds>?
    /// The first day rides are dated on: each ride takes the first day from this one on which
    /// its train's service runs (a weekday train the Monday, a weekend train the Saturday).
    /// The timetable's `utcOffset` turns its clock times into true UTC timestamps.
    public var firstServiceDay = CivilDay(daysSince1970: 20_353)  // 2025-09-22, a Monday

    private let bigStations: Set<String>
    private let rivals: RivalServices

    /// A generator over `dataset`.
    public init(dataset: TransitDataset) {
        self.dataset = dataset
        // Big stations: several railways' stations within 300 m of each other.
        let network = dataset.network
        var big = Set<String>()
        for station in network.stations where network.railwaysWithStations(within: 300, of: station.coordinate).count >= 3 {
            big.insert(station.id)
        }
        bigStations = big
        rivals = RivalServices(dataset: dataset)
    }

    /// `count` cases drawn with `seed` from the rides `filter` allows.
    ///
    /// - Returns: fewer cases when the timetable holds no ride the filter allows.
    /// - Complexity: O(count · ride length), plus one pass over the timetable.
    public func cases(count: Int, seed: UInt64, filter: RideFilter = RideFilter(), idPrefix: String = "") -> [SimulatedCase] {
        let network = dataset.network
        let trains = dataset.timetable.trains.filter { train in
            (filter.railways.isEmpty || filter.railways.contains(train.railwayID))
                && (filter.trainTypes.isEmpty || train.trainTypeID.map(filter.trainTypes.contains) == true)
                && train.stops.count >= filter.stops.lowerBound && network.railway(id: train.railwayID) != nil
        }
        guard !trains.isEmpty else { return [] }
        var generator = SeededGenerator(seed: seed)
        var cases: [SimulatedCase] = []
        var attempts = 0
        while cases.count < count, attempts < count * 200 {
            attempts += 1
            let train = trains[Int.random(in: 0..<trains.count, using: &generator)]
            let length = Int.random(
                in: filter.stops.lowerBound...min(filter.stops.upperBound, train.stops.count), using: &generator)
            let drawn = Int.random(in: 0...(train.stops.count - length), using: &generator)
            let first = originWait == nil ? drawn : 0
            let stretch = Array(runningStops(of: train)[first..<(first + length)])
            let seed = generator.next()
            guard let day = serviceDay(of: train),
                let single = ride(
                    train: train, on: day, stretch: stretch, filter: filter, index: cases.count, seed: seed, idPrefix: idPrefix)
            else { continue }
            if filter.transfer {
                guard let combined = transfer(after: single, on: day, filter: filter, generator: &generator) else { continue }
                cases.append(combined)
            } else {
                cases.append(single)
            }
        }
        return cases
    }

    /// The fewest fixes a ride is kept with: 30 for a phone with a fix every 10 s or more
    /// often, as many as 5 minutes give for a sparser one (at least 2), 5 for an irregular one.
    static func fewestFixes(_ phone: PhoneModel) -> Int {
        guard phone.irregularInterval == nil else { return 5 }
        return Int(min(30, max(2, (300 / max(1, phone.interval)).rounded(.down))))
    }

    /// The first day from `firstServiceDay` on which `train` runs, if any within four weeks.
    private func serviceDay(of train: TimetabledTrain) -> CivilDay? {
        (0..<28).lazy.map { firstServiceDay.adding($0) }.first { dataset.timetable.calendar.runs(train.service, on: $0) }
    }

    private func ride(
        train: TimetabledTrain, on day: CivilDay, stretch: [TimetableStop], filter: RideFilter, index: Int, seed: UInt64,
        idPrefix: String
    ) -> SimulatedCase? {
        let network = dataset.network
        guard let (railway, positions, direction, walk) = track(of: train) else { return nil }
        let stationIDs = railway.stationIDs
        let positionOf = Dictionary(zip(stationIDs, positions), uniquingKeysWith: { first, _ in first })
        guard stretch.allSatisfy({ positionOf[$0.stationID] != nil }) else { return nil }
        // Stations passed or called at between the ends, for the through-station filter.
        let firstIndex = stationIDs.firstIndex(of: stretch[0].stationID) ?? 0
        let lastIndex = stationIDs.firstIndex(of: stretch[stretch.count - 1].stationID) ?? 0
        let covered = Set(stationIDs[min(firstIndex, lastIndex)...max(firstIndex, lastIndex)])
        if !filter.throughStations.isEmpty, filter.throughStations.isDisjoint(with: covered), !railway.isLoop { return nil }
        var limits = self.limits
        var rider = SeededGenerator(seed: seed ^ 0x5EED)
        if let stay = platformStay { limits.finalWait = max(limits.finalWait, Double.random(in: stay, using: &rider)) }
        if let wait = originWait { limits.initialWait = max(limits.initialWait, Double.random(in: wait, using: &rider)) }
        let stops = held(stretch, using: &rider)
        var planned = stops.map { (position: positionOf[$0.stationID] ?? 0, arrival: $0.arrival, departure: $0.departure) }
        if let signalStops {
            var signals = SeededGenerator(seed: seed ^ 0x5349_474E)
            let passed = passedStations(on: railway, called: planned.map(\.position), walk: walk)
            planned = signalStops.adding(to: planned, passed: passed, walk: walk, using: &signals)
        }
        let plan = TimetabledRide(stops: planned, walk: walk, limits: limits)
        let scheduledDeparture = stretch[0].departure ?? stretch[0].arrival ?? 0
        let start = Timestamp(secondsSince1970: dataset.timetable.zone.serviceDayOrigin(day)).adding(
            scheduledDeparture - plan.departureOffset)
        let sessionID = "\(idPrefix)\(filter.name.map { "\($0)-" } ?? "")\(String(index + 1).leftPadded(3))-\(train.id)"
        let railwayTruth = FocusRule(stations: Array(zip(stationIDs, positions)).map { ($0.0, $0.1) }, walk: walk)
        let stopTruth = FocusRule(stations: stretch.map { ($0.stationID, positionOf[$0.stationID] ?? 0) }, walk: walk)
        let stationCoordinates = network.stations(of: railway)
        var phone = Phone(model: phone, seed: seed)
        var fixes: [RecordedFix] = []
        var truths: [TruthFix] = []
        var time: Seconds = 0
        var lastReport: Seconds = -phone.model.interval
        var number = 0
        while time <= plan.duration {
            defer { time += phone.nextInterval() }
            let (position, speed) = plan.state(at: time)
            if railway.track.isUnderground(atAlongTrack: position) { continue }
            let (coordinate, trackCourse) = railway.track.polyline.point(atAlongTrack: position)
            let course = direction == .ascending ? trackCourse : (trackCourse + 180).truncatingRemainder(dividingBy: 360)
            let nearest = stationCoordinates.min {
                $0.coordinate.distance(to: coordinate) < $1.coordinate.distance(to: coordinate)
            }
            let stationDistance = nearest.map { $0.coordinate.distance(to: coordinate) } ?? .infinity
            let timestamp = start.adding(time)
            let nearBig = nearest.map { bigStations.contains($0.id) } == true
            let elapsed = time - lastReport
            lastReport = time
            guard
                let location = phone.report(
                    coordinate: coordinate, course: course, speed: speed, time: timestamp, elapsed: elapsed,
                    nearStation: stationDistance <= phone.model.stationRadius, atBigStation: stationDistance <= 200 && nearBig,
                    nearBigStation: stationDistance <= phone.model.canyonRadius && nearBig)
            else { continue }
            number += 1
            let id = "\(sessionID)-\(String(number).leftPadded(5))"
            guard let focus = railwayTruth.focus(at: position) else { continue }
            let stop = stopTruth.focus(at: position)
            fixes.append(RecordedFix(id: id, location: location))
            truths.append(
                TruthFix(
                    locationID: id, time: timestamp.secondsSince1970, alongTrack: position, speed: speed, station: focus.station,
                    phase: focus.phase, nextStop: stop?.station, nextStopPhase: stop?.phase))
        }
        // Wholly underground rides give nothing to track (a background phone's few fixes are its normal).
        guard fixes.count >= Self.fewestFixes(phone.model) else { return nil }
        var truth = CaseTruth(
            sessionID: sessionID, scenario: filter.name, railwayID: railway.id, directionName: train.directionName,
            trainID: train.id, trainTypeID: train.trainTypeID, stops: stretch.map(\.stationID),
            departure: start.adding(plan.departureOffset).secondsSince1970,
            arrival: start.adding(plan.arrivalOffset).secondsSince1970,
            fixes: truths)
        truth.delay = disruption?.lateness(of: train.id)
        let passages = plan.passages(
            of: zip(stationIDs, positions).map { (id: $0, position: $1) }, from: positionOf[stretch[0].stationID] ?? 0,
            to: positionOf[stretch[stretch.count - 1].stationID] ?? 0)
        truth.passages = passages.map { CaseTruth.StopArrival(station: $0.station, time: start.adding($0.time).secondsSince1970) }
        truth.telling = rivals.telling(
            of: train, on: day, departure: scheduledDeparture, passages: passages.map(\.station),
            stops: Set(stretch.map(\.stationID)))
        return SimulatedCase(sessionID: sessionID, start: start, fixes: fixes, truth: truth)
    }
}

extension CaseGenerator {
    /// A second ride from a station within 300 m of where `first` ends, joined to it by a walk.
    fileprivate func transfer(
        after first: SimulatedCase, on day: CivilDay, filter: RideFilter, generator: inout SeededGenerator
    ) -> SimulatedCase? {
        let network = dataset.network
        guard let endID = first.truth.stops.last, let end = network.station(id: endID), let last = first.fixes.last else {
            return nil
        }
        let options = network.stations.filter {
            $0.railwayID != first.truth.railwayID && $0.coordinate.distance(to: end.coordinate) <= 300
        }
        guard !options.isEmpty else { return nil }
        let target = options[Int.random(in: 0..<options.count, using: &generator)]
        let walk = end.coordinate.distance(to: target.coordinate) / 1.2 + 30
        let ready = last.location.timestamp.adding(walk)
        // The same service day as the first ride.
        let midnight = Timestamp(secondsSince1970: dataset.timetable.zone.serviceDayOrigin(day))
        let clock = { (time: Timestamp) in time.seconds(since: midnight) }
        // Trains of that day leaving the target station 1 to 25 minutes after the rider gets there (past its wait).
        let calendar = dataset.timetable.calendar
        let candidates = dataset.timetable.trains.filter {
            $0.railwayID == target.railwayID && calendar.runs($0.service, on: day)
        }.compactMap {
            train -> (TimetabledTrain, [TimetableStop], Int)? in
            let stops = runningStops(of: train)
            guard let index = stops.firstIndex(where: { $0.stationID == target.id }), index + 2 < stops.count,
                let departure = stops[index].departure
            else { return nil }
            let wait = departure - clock(ready) - limits.initialWait
            return wait >= 60 && wait <= 1_500 ? (train, stops, index) : nil
        }
        guard let (train, stops, index) = candidates.min(by: { ($0.1[$0.2].departure ?? 0) < ($1.1[$1.2].departure ?? 0) })
        else { return nil }
        let length = min(stops.count - index, Int.random(in: 3...5, using: &generator))
        var single = filter
        single.transfer = false
        single.throughStations = []
        guard
            let second = ride(
                train: train, on: day, stretch: Array(stops[index..<(index + length)]), filter: single, index: 0,
                seed: generator.next(), idPrefix: "")
        else { return nil }
        // Join the first ride, the walk (and the wait), and the second ride under one session.
        let sessionID = "\(first.sessionID)+\(train.railwayID)"
        var fixes: [RecordedFix] = []
        var truths: [TruthFix] = []
        func add(_ location: Location, _ truth: TruthFix) {
            let id = "\(sessionID)-\(String(fixes.count + 1).leftPadded(5))"
            fixes.append(RecordedFix(id: id, location: location))
            var copy = truth
            copy.locationID = id
            truths.append(copy)
        }
        for (fix, truth) in zip(first.fixes, first.truth.fixes) {
            var truth = truth
            truth.railwayID = first.truth.railwayID
            truth.directionName = first.truth.directionName
            add(fix.location, truth)
        }
        let walkStart = last.location.timestamp
        // The walk and the wait on the platform last until the rider boards; on an underground
        // platform the phone then has no fixes until the train comes out.
        let walkEnd = second.start
        let projection = LocalProjection(origin: end.coordinate)
        let offset = projection.vector(to: target.coordinate)
        var time = walkStart.adding(1)
        while time < walkEnd {
            let fraction = min(1, time.seconds(since: walkStart) / walk)
            let walking = fraction < 1
            let location = Location(
                coordinate: projection.coordinate(at: offset * fraction), timestamp: time, horizontalAccuracy: 12,
                speed: walking ? 1.2 : 0, course: walking ? offset.course : nil)
            add(
                location,
                TruthFix(
                    locationID: "", time: time.secondsSince1970, alongTrack: 0, speed: walking ? 1.2 : 0, station: target.id,
                    phase: .now, nextStop: target.id, nextStopPhase: .now, scored: false))
            time = time.adding(1)
        }
        for (fix, truth) in zip(second.fixes, second.truth.fixes) where fix.location.timestamp > walkStart {
            add(fix.location, truth)
        }
        var truth = second.truth
        truth.sessionID = sessionID
        truth.scenario = filter.name
        truth.departure = first.truth.departure
        truth.fixes = truths
        truth.transfer = CaseTruth.Transfer(
            fromRailwayID: first.truth.railwayID, fromTrainID: first.truth.trainID, secondDeparture: second.truth.departure,
            firstArrival: walkStart.secondsSince1970)
        return SimulatedCase(sessionID: sessionID, start: first.start, fixes: fixes, truth: truth)
    }
}

extension CaseGenerator {
    /// The track `train` runs on (the real one when the map is distorted), its stations'
    /// places along it and the walk in the train's direction; nil for a railway or direction
    /// the network lacks.
    func track(of train: TimetabledTrain) -> (
        railway: Railway, positions: [Meters], direction: TravelDirection, walk: TrackWalk
    )? {
        let network = dataset.network
        guard let drawn = network.railway(id: train.railwayID), let direction = drawn.direction(named: train.directionName)
        else { return nil }
        // The train runs on the real track; the stations sit at the same places along it.
        var railway = drawn
        var positions = network.stationPositions(of: drawn)
        if let mapDistortion {
            let real = mapDistortion.realTrack(of: drawn, in: network)
            railway.track = real.track
            positions = positions.map(real.along)
        }
        if let stationDisplacement {
            // Keyed by the station's name: one place served by several railways (Caltrain's
            // local and express, each a railway with stations of its own) moves by the same
            // distance along each railway's track (the same place where their stations run the
            // same way, as Caltrain's do; the other way round on a railway drawn the other way).
            positions = stationDisplacement.stoppingPlaces(
                of: network.stations(of: drawn).map(\.name), at: positions, length: railway.track.polyline.length)
        }
        return (railway, positions, direction, TrackWalk(railway: railway, direction: direction))
    }

    /// The stops of `train` as it runs today: its timetable, or on a disrupted day, late.
    func runningStops(of train: TimetabledTrain) -> [TimetableStop] {
        disruption?.stops(of: train) ?? train.stops
    }

    /// `stretch` with the train held for `longDwell` at one of its stops between the ends
    /// (every later call that much later); as it is without a long dwell or such a stop.
    func held(_ stretch: [TimetableStop], using generator: inout SeededGenerator) -> [TimetableStop] {
        guard let longDwell, stretch.count >= 3 else { return stretch }
        let stop = Int.random(in: 1...(stretch.count - 2), using: &generator)
        let hold = Double.random(in: longDwell, using: &generator)
        var stops = stretch
        // (A call published with one time arrives at it, then stands the hold.)
        stops[stop].arrival = stretch[stop].arrival ?? stretch[stop].departure
        stops[stop].departure = (stretch[stop].departure ?? stretch[stop].arrival).map { $0 + hold }
        for index in (stop + 1)..<stops.count {
            stops[index].arrival = stops[index].arrival.map { $0 + hold }
            stops[index].departure = stops[index].departure.map { $0 + hold }
        }
        return stops
    }
}
