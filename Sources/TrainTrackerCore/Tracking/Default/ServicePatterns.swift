import Algorithms
import RealModule

/// The ways trains run along one railway in one direction: which stations they stop at,
/// over which stretch of the line, how often, and as what train type. Built once from a
/// timetable; without one, a single pattern stopping everywhere stands in (with a lenient
/// mismatch probability, since express trains exist that the network alone cannot tell about).
struct ServicePattern: Sendable {
    /// Stations stopped at, by position in the railway's station list.
    var stops: [Bool]
    /// Stations on the stretch its trains run (from their first stop to their last): beyond
    /// it, neither stopping nor passing is what the pattern's trains do.
    var runs: [Bool]
    /// How many trains run it (its prior weight).
    var trains: Int
    /// The commonest train type among them.
    var trainTypeID: String?

    /// Whether `other` stops where this stops on every station both run through.
    func agrees(with other: ServicePattern) -> Bool {
        disagreements(with: other) == 0
    }

    /// Stations both run through where one stops and the other passes.
    func disagreements(with other: ServicePattern) -> Int {
        var count = 0
        for station in stops.indices where runs[station] && other.runs[station] && stops[station] != other.stops[station] {
            count += 1
        }
        return count
    }

    /// Takes in `other`'s trains and the stretch it runs beyond this one's.
    mutating func absorb(_ other: ServicePattern) {
        for station in stops.indices where other.runs[station] && !runs[station] {
            runs[station] = true
            stops[station] = other.stops[station]
        }
        trains += other.trains
    }

    /// Patterns from the trains' stops: trains of one type that stop alike wherever both run
    /// are one pattern, whatever stretch each covers (a short working of an express is the
    /// express); beyond `limit` patterns, the rarest join the one they differ least from.
    /// `patternOf[t]` gives the pattern of `trains[t]`.
    ///
    /// - Complexity: O(g · p · s) for g distinct stop lists, p patterns and s stations.
    static func merging(
        _ trains: [(stops: [Bool], runs: [Bool], trainTypeID: String?)], limit: Int
    ) -> (patterns: [ServicePattern], patternOf: [Int]) {
        struct Group: Hashable {
            var stops: [Bool]
            var runs: [Bool]
            var trainTypeID: String?
        }
        var counts: [Group: Int] = [:]
        for train in trains {
            counts[Group(stops: train.stops, runs: train.runs, trainTypeID: train.trainTypeID), default: 0] += 1
        }
        // Commonest first; ties in a fixed order, so that the result never depends on hashing.
        let order = { (group: Group) in
            (group.trainTypeID ?? "") + String(group.stops.map { $0 ? "1" : "0" }) + String(group.runs.map { $0 ? "1" : "0" })
        }
        let groups = counts.sorted { $0.value != $1.value ? $0.value > $1.value : order($0.key) < order($1.key) }
        var patterns: [ServicePattern] = []
        var groupPattern: [Group: Int] = [:]
        for (group, count) in groups {
            let pattern = ServicePattern(stops: group.stops, runs: group.runs, trains: count, trainTypeID: group.trainTypeID)
            if let index = patterns.firstIndex(where: { $0.trainTypeID == group.trainTypeID && $0.agrees(with: pattern) }) {
                patterns[index].absorb(pattern)
                groupPattern[group] = index
            } else {
                groupPattern[group] = patterns.count
                patterns.append(pattern)
            }
        }
        // Too many: keep the busiest, fold each other into its nearest.
        var remap = Array(patterns.indices)
        if patterns.count > limit {
            let ranked = patterns.indices.sorted {
                patterns[$0].trains > patterns[$1].trains || (patterns[$0].trains == patterns[$1].trains && $0 < $1)
            }
            let kept = Array(ranked.prefix(limit)).sorted()
            var merged = kept.map { patterns[$0] }
            for index in ranked.dropFirst(limit) {
                let nearest =
                    merged.indices.min {
                        let (a, b) = (
                            merged[$0].disagreements(with: patterns[index]), merged[$1].disagreements(with: patterns[index])
                        )
                        return a != b ? a < b : $0 < $1
                    } ?? 0
                merged[nearest].absorb(patterns[index])
                remap[index] = nearest
            }
            for (position, index) in kept.enumerated() { remap[index] = position }
            patterns = merged
        }
        let patternOf = trains.map { train in
            remap[groupPattern[Group(stops: train.stops, runs: train.runs, trainTypeID: train.trainTypeID)] ?? 0]
        }
        return (patterns, patternOf)
    }
}

/// One scheduled train of a line in one direction, as the tracker follows it.
struct ScheduledTrip: Sendable {
    /// The service pattern it runs.
    let pattern: Int32
    /// Its service, an index into `TrackerModel.services`.
    let service: Int32
    /// Where it leaves from (station by position in the railway's list) and when (seconds
    /// after its service day's midnight), in calling order.
    let departures: [(slot: Int32, time: Float)]
    /// Where it ends and when it arrives there, if known.
    var arrival: (slot: Int32, time: Float)?

    /// When it leaves station `slot`, if it calls there (and does not end there).
    func departure(at slot: Int) -> Seconds? {
        departures.first { Int($0.slot) == slot }.map { Seconds($0.time) }
    }
}

/// Everything the default tracker knows about the network, prepared once and shared by
/// every tracker (one per rider) on it.
public struct TrackerModel: Sendable {
    /// The network.
    public let network: RailwayNetwork
    /// Whether patterns come from a timetable.
    public let hasTimetable: Bool
    /// `patterns[line]`, one list per `LineDirection`.
    let patterns: [[ServicePattern]]
    /// Log prior of each railway and direction: how many trains run it.
    let logPrior: [Double]
    /// `segmentTraffic[key][i]`: log(1 + trains of the line running between its stations
    /// `stationOrder[i]` and `stationOrder[i + 1]` (on a loop, the last entry closes it)).
    let segmentTraffic: [[Double]]
    /// Railways a train may continue onto (through service, from the timetable's links).
    let throughService: [Set<Int>]
    /// `patternPriors[key][p]`: log share of the trains running pattern `p`.
    let patternPriors: [[Double]]
    /// The chance of a stop at each station before any evidence.
    let initialStopChance: [[Double]]
    /// Which railways pass near each part of the network.
    let grid: RailwayGrid
    /// Per railway, its stations sorted by along-track position: (position, station index).
    let stationOrder: [[(position: Meters, station: Int)]]
    /// `departures[key][station]`: the scheduled departures there, seconds after midnight of
    /// the service day (past 86,400 after midnight), sorted, each with its trip (an index
    /// into `trips[key]`).
    let departures: [[[(time: Double, trip: Int32)]]]
    /// `trips[key]`: the line's scheduled trains, for following one train's departures.
    let trips: [[ScheduledTrip]]
    /// `tripsByStart[key]`: the line's trips (indices into `trips[key]`) by their first
    /// departure, and `longestTrip[key]` the longest from first departure to last call: the
    /// trips running at a time are found by a binary search.
    let tripsByStart: [[(start: Seconds, trip: Int32)]]
    let longestTrip: [Seconds]
    /// The services the trains run on, by name.
    let services: [String]
    /// The days each service runs on.
    let calendar: ServiceCalendar
    /// The timetable's clock, seconds ahead of UTC.
    let utcOffset: Seconds
    /// Where each railway ends: its first and last stations (none on a loop).
    let terminals: [[Coordinate]]
    /// The underground stretches of every railway, in order, one railway after another:
    /// railway `r`'s are `tunnels[tunnelRanges[r]]`.
    let tunnels: [ClosedRange<Meters>]
    let tunnelRanges: [Range<Int>]
    /// Each railway's track length.
    let trackLengths: [Meters]

    /// The most patterns kept per railway and direction (the busiest; rarer ones join the nearest).
    static let maximumPatterns = 12

    /// Prepares `dataset` for tracking.
    ///
    /// - Complexity: O(trains · stops) once.
    public init(dataset: TransitDataset) {
        let network = dataset.network
        self.network = network
        let railwayCount = network.railways.count
        var collected = Array(repeating: [(stops: [Bool], runs: [Bool], trainTypeID: String?)](), count: railwayCount * 2)
        var collectedTrains = Array(repeating: [Int](), count: railwayCount * 2)
        var trainRailway: [String: Int] = [:]
        let stationSlots = network.railways.map { railway in
            Dictionary(railway.stationIDs.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        }
        for (trainIndex, train) in dataset.timetable.trains.enumerated() {
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
        utcOffset = dataset.timetable.utcOffset
        terminals = network.railways.enumerated().map { index, railway in
            let coordinates = network.stationCoordinates[index]
            return railway.isLoop ? [] : [coordinates[0], coordinates[coordinates.count - 1]]
        }
        var patterns: [[ServicePattern]] = []
        var logPrior: [Double] = []
        var patternOfTrain = Array(repeating: Int32(-1), count: dataset.timetable.trains.count)
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
            logPrior.append(dataset.timetable.trains.isEmpty ? 0 : Double.log1p(Double(trains)))
        }
        // Departures by station, each with its trip.
        var departures = LineDirection.all(railwayCount: railwayCount).map { line in
            Array(repeating: [(time: Double, trip: Int32)](), count: network.railways[line.railway].stationIDs.count)
        }
        var trips = Array(repeating: [ScheduledTrip](), count: railwayCount * 2)
        let services = Array(Set(dataset.timetable.trains.map(\.service))).sorted()
        let serviceIndex = Dictionary(uniqueKeysWithValues: services.enumerated().map { ($0.element, Int32($0.offset)) })
        for (trainIndex, train) in dataset.timetable.trains.enumerated() {
            guard let railway = network.railwayIndex(id: train.railwayID),
                let direction = network.railways[railway].direction(named: train.directionName)
            else { continue }
            let key = LineDirection(railway: railway, direction: direction).index
            // A train leaves every station it calls at but its last.
            var calls: [(slot: Int32, time: Float)] = []
            for stop in train.stops.dropLast() {
                guard let slot = stationSlots[railway][stop.stationID], let time = stop.departure ?? stop.arrival else {
                    continue
                }
                departures[key][slot].append((time, Int32(trips[key].count)))
                calls.append((Int32(slot), Float(time)))
            }
            var trip = ScheduledTrip(
                pattern: patternOfTrain[trainIndex], service: serviceIndex[train.service] ?? 0, departures: calls)
            if let last = train.stops.last, let slot = stationSlots[railway][last.stationID],
                let time = last.arrival ?? last.departure
            {
                trip.arrival = (Int32(slot), Float(time))
            }
            trips[key].append(trip)
        }
        self.departures = departures.map { $0.map { $0.sorted { $0.time < $1.time } } }
        self.trips = trips
        tripsByStart = trips.map { line in
            line.enumerated().compactMap { index, trip in
                trip.departures.first.map { (Seconds($0.time), Int32(clamping: index)) }
            }.sorted { $0.start < $1.start }
        }
        longestTrip = trips.map { line in
            line.reduce(0) { longest, trip in
                guard let first = trip.departures.first?.time, let last = trip.arrival?.time ?? trip.departures.last?.time
                else { return longest }
                return max(longest, Seconds(last) - Seconds(first))
            }
        }
        self.services = services
        calendar = dataset.timetable.calendar
        // Through service: railways linked by a train's previous/next train.
        var links = Array(repeating: Set<Int>(), count: railwayCount)
        for train in dataset.timetable.trains {
            guard let from = trainRailway[train.id] else { continue }
            for next in train.nextTrainIDs + train.previousTrainIDs {
                if let to = trainRailway[next], to != from {
                    links[from].insert(to)
                    links[to].insert(from)
                }
            }
        }
        self.patterns = patterns
        self.patternPriors = patterns.map { list in
            let total = Double(list.reduce(0) { $0 + $1.trains })
            return list.map { Double.log(Double($0.trains) / total) }
        }
        self.logPrior = logPrior
        let stationOrder = network.stationAlongTrack.map { positions in
            positions.enumerated().map { (position: $0.element, station: $0.offset) }.sorted { $0.position < $1.position }
        }
        self.stationOrder = stationOrder
        segmentTraffic = zip(LineDirection.all(railwayCount: railwayCount), collected).map { line, trains in
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
        self.throughService = links
        var initial: [[Double]] = []
        for (key, priors) in patternPriors.enumerated() {
            var chance = Array(repeating: 0.0, count: patterns[key].first?.stops.count ?? 0)
            for (pattern, prior) in zip(patterns[key], priors) {
                for (station, stops) in pattern.stops.enumerated() where stops { chance[station] += Double.exp(prior) }
            }
            initial.append(chance)
        }
        initialStopChance = initial
        grid = RailwayGrid(network: network)
        var stretches: [ClosedRange<Meters>] = []
        tunnelRanges = network.railways.map { railway in
            let start = stretches.count
            stretches += railway.track.undergroundStretches()
            return start..<stretches.count
        }
        tunnels = stretches
        trackLengths = network.railways.map(\.track.polyline.length)
        hasTimetable = !dataset.timetable.trains.isEmpty
    }
}

extension TrackerModel {
    /// How much of railway `railway`'s track between `low` and `high` (along-track, in order)
    /// runs underground.
    ///
    /// - Complexity: O(t) for its t tunnels.
    func undergroundLength(railway: Int, from low: Meters, to high: Meters) -> Meters {
        tunnels[tunnelRanges[railway]].reduce(0) { sum, stretch in
            sum + max(0, min(high, stretch.upperBound) - max(low, stretch.lowerBound))
        }
    }

    /// How far inside a tunnel railway `railway`'s track is at `along`: the distance to the
    /// nearer portal (0 above ground; a tunnel that reaches the end of the line has one portal;
    /// infinite on a line wholly underground).
    ///
    /// - Complexity: O(log t) for t tunnels.
    func tunnelDepth(railway: Int, along: Meters) -> Meters {
        let range = tunnelRanges[railway]
        guard !range.isEmpty else { return 0 }
        let stretches = tunnels[range]
        let index = stretches.partitioningIndex { $0.upperBound >= along }
        guard index < range.upperBound, stretches[index].contains(along) else { return 0 }
        let stretch = stretches[index]
        let length = trackLengths[railway]
        let fromStart = stretch.lowerBound > 0 ? along - stretch.lowerBound : .infinity
        let toEnd = stretch.upperBound < length ? stretch.upperBound - along : .infinity
        return min(fromStart, toEnd)
    }

    /// The service day `time` falls on: its midnight on the timetable's clock (seconds since
    /// 1970), and which of `services` run on it and on the day before (whose trains run on
    /// past midnight).
    func serviceDay(at time: Timestamp) -> (midnight: Seconds, today: [Bool], yesterday: [Bool]) {
        let day = CivilDay(time, utcOffset: utcOffset)
        return (Double(day.daysSince1970) * 86_400, servicesRunning(on: day), servicesRunning(on: day.adding(-1)))
    }

    /// Which of `services` run on `day`.
    func servicesRunning(on day: CivilDay) -> [Bool] {
        services.map { calendar.runs($0, on: day) }
    }

    /// Pattern probabilities from their log weights.
    func probabilities(_ weights: [Double]) -> [Double] {
        let top = weights.max() ?? 0
        let values = weights.map { Double.exp($0 - top) }
        let sum = values.reduce(0, +)
        return values.map { $0 / sum }
    }

    /// The chance of a stop at each station of `line` under pattern log weights `weights`.
    func stopChance(line: LineDirection, weights: [Double]) -> [Double] {
        let patterns = self.patterns[line: line]
        var chance = Array(repeating: 0.0, count: patterns.first?.stops.count ?? 0)
        for (pattern, probability) in zip(patterns, probabilities(weights)) {
            for (station, stops) in pattern.stops.enumerated() where stops { chance[station] += probability }
        }
        return chance
    }

    /// The train type at least 60 % of the pattern weight points to.
    func trainType(line: LineDirection, weights: [Double]) -> String? {
        var byType: [String: Double] = [:]
        for (pattern, probability) in zip(patterns[line: line], probabilities(weights)) {
            if let type = pattern.trainTypeID { byType[type, default: 0] += probability }
        }
        return byType.max { $0.value < $1.value }.flatMap { $0.value >= 0.6 ? $0.key : nil }
    }
}

extension Double {
    static func log1p(_ value: Double) -> Double { Double.log(1 + value) }
}
