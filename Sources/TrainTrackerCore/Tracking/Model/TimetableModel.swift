import Algorithms
import RealModule

/// What the trackers take from a timetable, per railway and direction: the service
/// patterns, the scheduled trips with their calls as station slots and seconds, and what
/// follows from them. Built once from a `Timetable` (or read back from a compiled file, see
/// `TimetableModel+Encoding.swift`); holds no strings but the service and train type names.
struct TimetableModel: Sendable {
    /// Whether the patterns come from a timetable (without one, one pattern stops everywhere).
    let hasTimetable: Bool
    /// `patterns[line]`, one list per `LineDirection`.
    let patterns: [[ServicePattern]]
    /// Log prior of each railway and direction: how many trains run it.
    let logPrior: [Double]
    /// `segmentTraffic[key][i]`: log(1 + trains of the line running between its stations
    /// `stationOrder[i]` and `stationOrder[i + 1]` (on a loop, the last entry closes it)).
    let segmentTraffic: [[Double]]
    /// Railways a train may continue onto (through service, from the timetable's links).
    let throughService: [Set<Int>]
    /// The services the trains run on, by name.
    let services: [String]
    /// `trips[key]`: the line's scheduled trains, for following one train's departures.
    let trips: [[ScheduledTrip]]
    /// The id and number of `trips[key][i]`, for naming the train, and where each id is.
    let tripNames: TripNames
    /// The days each service runs on.
    let calendar: ServiceCalendar
    /// The timetable's clock: its zone's offsets from UTC.
    let zone: TimeZoneRules

    // What follows from the above (computed, never stored).

    /// `patternPriors[key][p]`: log share of the trains running pattern `p`.
    let patternPriors: [[Double]]
    /// The chance of a stop at each station before any evidence.
    let initialStopChance: [[Double]]
    /// `tripsByStart[key]`: the line's trips (indices into `trips[key]`) by their first
    /// departure, and `longestTrip[key]` the longest from first departure to last call: the
    /// trips running at a time are found by a binary search.
    /// (`start` in seconds after the service day's midnight, a `Float` as `TripCall.time`.)
    let tripsByStart: [[(start: Float, trip: Int32)]]
    let longestTrip: [Seconds]
    /// `irregularTrips[key]`: the line's trips (sorted indices) with a departure outside
    /// [first departure, first departure + `longestTrip`] (times that wrap at midnight, or
    /// run backwards), which a search by start cannot find.
    let irregularTrips: [[Int32]]

    /// The model from its stored parts; the rest is derived.
    ///
    /// - Complexity: O(calls · log calls).
    init(
        hasTimetable: Bool, patterns: [[ServicePattern]], logPrior: [Double], segmentTraffic: [[Double]],
        throughService: [Set<Int>], services: [String], trips: [[ScheduledTrip]], tripNames: TripNames,
        calendar: ServiceCalendar, zone: TimeZoneRules
    ) {
        self.tripNames = tripNames.indexed()
        self.hasTimetable = hasTimetable
        self.patterns = patterns
        self.logPrior = logPrior
        self.segmentTraffic = segmentTraffic
        self.throughService = throughService
        self.services = services
        self.trips = trips
        self.calendar = calendar
        self.zone = zone
        patternPriors = patterns.map { list in
            let total = Double(list.reduce(0) { $0 + $1.trains })
            return list.map { Double.log(Double($0.trains) / total) }
        }
        initialStopChance = zip(patterns, patternPriors).map { patterns, priors in
            var chance = Array(repeating: 0.0, count: patterns.first?.stops.count ?? 0)
            for (pattern, prior) in zip(patterns, priors) {
                for (station, stops) in pattern.stops.enumerated() where stops { chance[station] += Double.exp(prior) }
            }
            return chance
        }
        tripsByStart = trips.map { line in
            line.enumerated().compactMap { index, trip in
                trip.departures.first.map { ($0.time, Int32(clamping: index)) }
            }.sorted { $0.start < $1.start }
        }
        let longestTrip = trips.map { line in
            line.reduce(0) { longest, trip in
                guard let first = trip.departures.first?.time, let last = trip.arrival?.time ?? trip.departures.last?.time
                else { return longest }
                return max(longest, Seconds(last) - Seconds(first))
            }
        }
        self.longestTrip = longestTrip
        irregularTrips = zip(trips, longestTrip).map { Self.irregular($0, longest: $1) }
    }

    /// The scheduled departures of line `key` from station `slot` between `low` and `high`
    /// (seconds after midnight of the service day), in time order, each with its trip (an
    /// index into `trips[key]`); a trip that calls there twice (round a loop) twice. Found
    /// among the trips running then (`tripsByStart`), not kept in an index of its own (that
    /// took 19 MB for Tokyo).
    ///
    /// - Complexity: O((r + i) · c + k log k) for r trips running, i irregular ones, c calls
    ///   each, k found.
    func departures(line key: Int, station slot: Int, from low: Seconds, through high: Seconds) -> [(
        time: Double, trip: Int32
    )] {
        let byStart = tripsByStart[key]
        let trips = self.trips[key]
        let irregular = irregularTrips[key]
        var found: [(time: Double, trip: Int32, call: Int)] = []
        func search(_ trip: Int32) {
            for (call, departure) in trips[Int(trip)].departures.enumerated() where Int(departure.slot) == slot {
                let time = Double(departure.time)
                if time >= low, time <= high { found.append((time, trip, call)) }
            }
        }
        var index = byStart.partitioningIndex { Seconds($0.start) >= low - longestTrip[key] }
        while index < byStart.count, Seconds(byStart[index].start) <= high {
            let trip = byStart[index].trip
            index += 1
            let position = irregular.partitioningIndex { $0 >= trip }
            if position == irregular.count || irregular[position] != trip { search(trip) }
        }
        irregular.forEach(search)
        // In time order; at one time, in trip and call order.
        found.sort { ($0.time, $0.trip, $0.call) < ($1.time, $1.trip, $1.call) }
        return found.map { ($0.time, $0.trip) }
    }

    /// The trips of `trips` with a departure outside [first, first + `longest`].
    private static func irregular(_ trips: [ScheduledTrip], longest: Seconds) -> [Int32] {
        trips.indices.filter { index in
            guard let first = trips[index].departures.first.map({ Seconds($0.time) }) else { return false }
            return trips[index].departures.contains { Seconds($0.time) < first || Seconds($0.time) > first + longest }
        }.map { Int32($0) }
    }

    /// The most patterns kept per railway and direction (the busiest; rarer ones join the nearest).
    /// Set by hand on 2026-11-22; the reason for 12 is not recorded.
    static let maximumPatterns = 12
}

extension TimetableModel {
    /// Compiles `timetable` for `network`; `stationOrder` is each railway's stations by
    /// along-track position. Trains on railways or directions the network lacks are left out.
    ///
    /// - Complexity: O(trains · stations) once.
    init(timetable: Timetable, network: RailwayNetwork, stationOrder: [[(position: Meters, station: Int)]]) {
        let railwayCount = network.railways.count
        var collected = Array(repeating: [(stops: [Bool], runs: [Bool], trainTypeID: String?)](), count: railwayCount * 2)
        var collectedTrains = Array(repeating: [Int](), count: railwayCount * 2)
        var trainRailway: [String: Int] = [:]
        let stationSlots = network.railways.map { railway in
            Dictionary(railway.stationIDs.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        }
        for (trainIndex, train) in timetable.trains.enumerated() {
            guard let railway = network.railwayIndex(id: train.railwayID),
                let direction = network.railways[railway].direction(named: train.directionName)
            else { continue }
            trainRailway[train.id] = railway
            let count = network.railways[railway].stationIDs.count
            var stops = Array(repeating: false, count: count)
            for stop in train.stops {
                if let slot = stationSlots[railway][stop.stationID] { stops[slot] = true }
            }
            // The stretch run: between the first and last stop (all of a loop).
            var runs = Array(repeating: network.isLoop[railway], count: count)
            if let first = stops.firstIndex(of: true), let last = stops.lastIndex(of: true), !network.isLoop[railway] {
                for slot in first...last { runs[slot] = true }
            }
            let line = LineDirection(railway: railway, direction: direction)
            collected[line: line].append((stops, runs, train.trainTypeID))
            collectedTrains[line: line].append(trainIndex)
        }
        var patterns: [[ServicePattern]] = []
        var logPrior: [Double] = []
        var patternOfTrain = Array(repeating: Int32(-1), count: timetable.trains.count)
        for line in LineDirection.all(railwayCount: railwayCount) {
            let stationCount = network.railways[line.railway].stationIDs.count
            var (list, patternOf) = ServicePattern.merging(collected[line: line], limit: Self.maximumPatterns)
            for (train, pattern) in zip(collectedTrains[line: line], patternOf) { patternOfTrain[train] = Int32(pattern) }
            let trains = list.reduce(0) { $0 + $1.trains }
            if list.isEmpty {
                let everywhere = Array(repeating: true, count: stationCount)
                list = [ServicePattern(stops: everywhere, runs: everywhere, trains: 1, trainTypeID: nil)]
            }
            patterns.append(list)
            logPrior.append(timetable.trains.isEmpty ? 0 : Double.log1p(Double(trains)))
        }
        let services = Array(Set(timetable.trains.map(\.service))).sorted()
        let (trips, tripNames) = Self.trips(
            of: timetable, network: network, stationSlots: stationSlots, patternOfTrain: patternOfTrain, services: services)
        let segmentTraffic = zip(LineDirection.all(railwayCount: railwayCount), collected).map { line, trains in
            let stations = stationOrder[line.railway].map(\.station)
            var counts = Array(repeating: 0, count: stations.count)
            // The last entry closes a loop; a line has one segment fewer than stations.
            let segments = network.isLoop[line.railway] ? stations.count : stations.count - 1
            for train in trains {
                for index in 0..<max(segments, 0) {
                    let next = stations[(index + 1) % stations.count]
                    if train.runs[stations[index]], train.runs[next] { counts[index] += 1 }
                }
            }
            return counts.map { Double.log1p(Double($0)) }
        }
        // Through service: railways linked by a train's previous/next train.
        var links = Array(repeating: Set<Int>(), count: railwayCount)
        for train in timetable.trains {
            guard let from = trainRailway[train.id] else { continue }
            for next in train.nextTrainIDs + train.previousTrainIDs {
                if let to = trainRailway[next], to != from {
                    links[from].insert(to)
                    links[to].insert(from)
                }
            }
        }
        self.init(
            hasTimetable: !timetable.trains.isEmpty, patterns: patterns, logPrior: logPrior,
            segmentTraffic: segmentTraffic, throughService: links, services: services, trips: trips,
            tripNames: tripNames, calendar: timetable.calendar, zone: timetable.zone)
    }

    /// Each line's trips: every call but the last as a departure (slot, seconds), the last as the arrival.
    private static func trips(
        of timetable: Timetable, network: RailwayNetwork, stationSlots: [[String: Int]], patternOfTrain: [Int32],
        services: [String]
    ) -> (trips: [[ScheduledTrip]], names: TripNames) {
        var lines = Array(repeating: LineTrips(), count: network.railways.count * 2)
        var labels = Array(repeating: [TripLabel](), count: lines.count)
        let serviceIndex = Dictionary(uniqueKeysWithValues: services.enumerated().map { ($0.element, Int32($0.offset)) })
        for (trainIndex, train) in timetable.trains.enumerated() {
            guard let railway = network.railwayIndex(id: train.railwayID),
                let direction = network.railways[railway].direction(named: train.directionName)
            else { continue }
            let key = LineDirection(railway: railway, direction: direction).index
            for stop in train.stops.dropLast() {
                guard let slot = stationSlots[railway][stop.stationID], let time = stop.departure ?? stop.arrival else {
                    continue
                }
                lines[key].append((Int32(slot), Float(time)))
            }
            var arrival: TripCall?
            if let last = train.stops.last, let slot = stationSlots[railway][last.stationID],
                let time = last.arrival ?? last.departure
            {
                arrival = (Int32(slot), Float(time))
            }
            lines[key].endTrip(
                pattern: patternOfTrain[trainIndex], service: serviceIndex[train.service] ?? 0, arrival: arrival)
            labels[key].append(TripLabel(id: train.id, number: train.number))
        }
        var names = TripNames()
        for line in labels {
            for label in line { names.append(label) }
            names.endLine()
        }
        return (lines.map(\.trips), names)
    }
}
