import RealModule

/// The ways trains run along one railway in one direction: which stations they stop at,
/// how often, and as what train type. Built once from a timetable; without one, a single
/// pattern stopping everywhere stands in (with a lenient mismatch probability, since
/// express trains exist that the network alone cannot tell about).
struct ServicePattern: Sendable {
    /// Stations stopped at, by position in the railway's station list.
    var stops: [Bool]
    /// How many trains run it (its prior weight).
    var trains: Int
    /// The commonest train type among them.
    var trainTypeID: String?
}

/// Everything the default tracker knows about the network, prepared once and shared by
/// every tracker (one per rider) on it.
public struct TrackerModel: Sendable {
    /// The network.
    public let network: RailwayNetwork
    /// Whether patterns come from a timetable.
    public let hasTimetable: Bool
    /// `patterns[railway * 2 + direction]`.
    let patterns: [[ServicePattern]]
    /// Log prior of each railway and direction: how many trains run it.
    let logPrior: [Double]
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
    /// `departures[key][station]`: the scheduled departures there, seconds of the day, sorted,
    /// each with the service pattern its train runs (-1: a rare pattern not kept).
    let departures: [[[(time: Double, pattern: Int32)]]]
    /// The timetable's clock, seconds ahead of UTC.
    let utcOffset: Seconds
    /// Where each railway ends: its first and last stations (none on a loop).
    let terminals: [[Coordinate]]

    /// The most patterns kept per railway and direction (the commonest; rare ones join the nearest).
    static let maximumPatterns = 12

    /// Prepares `dataset` for tracking.
    ///
    /// - Complexity: O(trains · stops) once.
    public init(dataset: TransitDataset) {
        let network = dataset.network
        self.network = network
        let railwayCount = network.railways.count
        var collected = Array(repeating: [[Bool]: (count: Int, types: [String: Int])](), count: railwayCount * 2)
        var trainRailway: [String: Int] = [:]
        let stationSlots = network.railways.map { railway in
            Dictionary(railway.stationIDs.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        }
        for train in dataset.timetable.trains {
            guard let railway = network.railwayIndex(id: train.railwayID),
                let direction = network.railways[railway].direction(named: train.directionName)
            else { continue }
            trainRailway[train.id] = railway
            var stops = Array(repeating: false, count: network.railways[railway].stationIDs.count)
            for stop in train.stops {
                if let slot = stationSlots[railway][stop.stationID] { stops[slot] = true }
            }
            let key = railway * 2 + direction.rawValue
            var entry = collected[key][stops] ?? (0, [:])
            entry.count += 1
            if let type = train.trainTypeID { entry.types[type, default: 0] += 1 }
            collected[key][stops] = entry
        }
        utcOffset = dataset.timetable.utcOffset
        terminals = network.railways.enumerated().map { index, railway in
            let coordinates = network.stationCoordinates[index]
            return railway.isLoop ? [] : [coordinates[0], coordinates[coordinates.count - 1]]
        }
        var patterns: [[ServicePattern]] = []
        var logPrior: [Double] = []
        for key in 0..<(railwayCount * 2) {
            let stationCount = network.railways[key / 2].stationIDs.count
            var list = collected[key].map { stops, entry in
                ServicePattern(stops: stops, trains: entry.count, trainTypeID: entry.types.max { $0.value < $1.value }?.key)
            }
            .sorted {
                $0.trains != $1.trains ? $0.trains > $1.trains : $0.stops.lexicographicallyPrecedes($1.stops) { !$0 && $1 }
            }
            if list.count > Self.maximumPatterns { list = Array(list.prefix(Self.maximumPatterns)) }
            let trains = list.reduce(0) { $0 + $1.trains }
            if list.isEmpty {
                list = [ServicePattern(stops: Array(repeating: true, count: stationCount), trains: 1, trainTypeID: nil)]
            }
            patterns.append(list)
            logPrior.append(dataset.timetable.trains.isEmpty ? 0 : Double.log1p(Double(trains)))
        }
        // Departures by station, each with its train's pattern.
        let patternIndex = patterns.map { list in
            Dictionary(list.enumerated().map { ($0.element.stops, Int32($0.offset)) }, uniquingKeysWith: { first, _ in first })
        }
        var departures = (0..<(railwayCount * 2)).map { key in
            Array(repeating: [(time: Double, pattern: Int32)](), count: network.railways[key / 2].stationIDs.count)
        }
        for train in dataset.timetable.trains {
            guard let railway = network.railwayIndex(id: train.railwayID),
                let direction = network.railways[railway].direction(named: train.directionName)
            else { continue }
            let key = railway * 2 + direction.rawValue
            var stops = Array(repeating: false, count: network.railways[railway].stationIDs.count)
            for stop in train.stops {
                if let slot = stationSlots[railway][stop.stationID] { stops[slot] = true }
            }
            let pattern = patternIndex[key][stops] ?? -1
            // A train leaves every station it calls at but its last.
            for stop in train.stops.dropLast() {
                guard let slot = stationSlots[railway][stop.stationID], let time = stop.departure ?? stop.arrival else {
                    continue
                }
                departures[key][slot].append((time.truncatingRemainder(dividingBy: 86_400), pattern))
            }
        }
        self.departures = departures.map { $0.map { $0.sorted { $0.time < $1.time } } }
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
        stationOrder = network.stationAlongTrack.map { positions in
            positions.enumerated().map { ($0.element, $0.offset) }.sorted { $0.0 < $1.0 }
        }
        hasTimetable = !dataset.timetable.trains.isEmpty
    }
}

extension TrackerModel {
    /// Pattern probabilities from their log weights.
    func probabilities(_ weights: [Double]) -> [Double] {
        let top = weights.max() ?? 0
        let values = weights.map { Double.exp($0 - top) }
        let sum = values.reduce(0, +)
        return values.map { $0 / sum }
    }

    /// The chance of a stop at each station of line `key` under pattern log weights `weights`.
    func stopChance(key: Int, weights: [Double]) -> [Double] {
        let patterns = self.patterns[key]
        var chance = Array(repeating: 0.0, count: patterns.first?.stops.count ?? 0)
        for (pattern, probability) in zip(patterns, probabilities(weights)) {
            for (station, stops) in pattern.stops.enumerated() where stops { chance[station] += probability }
        }
        return chance
    }

    /// The train type at least 60 % of the pattern weight points to.
    func trainType(key: Int, weights: [Double]) -> String? {
        var byType: [String: Double] = [:]
        for (pattern, probability) in zip(patterns[key], probabilities(weights)) {
            if let type = pattern.trainTypeID { byType[type, default: 0] += probability }
        }
        return byType.max { $0.value < $1.value }.flatMap { $0.value >= 0.6 ? $0.key : nil }
    }
}

extension Double {
    static func log1p(_ value: Double) -> Double { Double.log(1 + value) }
}
