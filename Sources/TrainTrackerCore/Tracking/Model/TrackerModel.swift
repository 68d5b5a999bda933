import Algorithms
import RealModule

/// Everything the trackers know about the network, prepared once and shared by
/// every tracker (one per rider) on it.
public struct TrackerModel: Sendable {
    /// The model's parts, shared: a copy of the model (one per `Observation`, per fix) costs
    /// one reference count, not one per part.
    private final class Parts: Sendable {
        let network: RailwayNetwork
        let timetable: TimetableModel
        let grid: RailwayGrid
        let stationOrder: [[(position: Meters, station: Int)]]
        let terminals: [[Coordinate]]
        let tunnels: [ClosedRange<Meters>]
        let tunnelRanges: [Range<Int>]
        let trackLengths: [Meters]

        init(
            network: RailwayNetwork, timetable: TimetableModel, grid: RailwayGrid,
            stationOrder: [[(position: Meters, station: Int)]], terminals: [[Coordinate]], tunnels: [ClosedRange<Meters>],
            tunnelRanges: [Range<Int>], trackLengths: [Meters]
        ) {
            self.network = network
            self.timetable = timetable
            self.grid = grid
            self.stationOrder = stationOrder
            self.terminals = terminals
            self.tunnels = tunnels
            self.tunnelRanges = tunnelRanges
            self.trackLengths = trackLengths
        }
    }

    private let parts: Parts

    /// The network.
    public var network: RailwayNetwork { _read { yield parts.network } }
    /// What the timetable says, compiled (one pattern stopping everywhere without one).
    var timetable: TimetableModel {
        // (Yielded in place: a copy of a struct of arrays would retain each of them.)
        _read { yield parts.timetable }
    }
    /// Which railways pass near each part of the network.
    var grid: RailwayGrid { _read { yield parts.grid } }
    /// Per railway, its stations sorted by along-track position: (position, station index).
    var stationOrder: [[(position: Meters, station: Int)]] { _read { yield parts.stationOrder } }
    /// Where each railway ends: its first and last stations (none on a loop).
    var terminals: [[Coordinate]] { _read { yield parts.terminals } }
    /// The underground stretches of every railway, in order, one railway after another:
    /// railway `r`'s are `tunnels[tunnelRanges[r]]`.
    var tunnels: [ClosedRange<Meters>] { _read { yield parts.tunnels } }
    var tunnelRanges: [Range<Int>] { _read { yield parts.tunnelRanges } }
    /// Each railway's track length.
    var trackLengths: [Meters] { _read { yield parts.trackLengths } }
    /// Where each trip id of the timetable is: its line (`LineDirection.index`) and its index
    /// among the line's trips (a GTFS-realtime feed names trips by id).
    var tripIndex: TripNames { _read { yield parts.timetable.tripNames } }

    /// Whether line `key` has a train running at `time` (`TimetableModel.hasTrainRunning`),
    /// asked of the shared parts in place: through `timetable` the struct was copied, every
    /// one of its arrays retained and released, at every fix (1.4 µs of 7.4 on Caltrain).
    func hasTrainRunning(line key: Int, at time: Timestamp) -> Bool {
        parts.timetable.hasTrainRunning(line: key, at: time)
    }

    /// Prepares `dataset` for tracking.
    ///
    /// - Complexity: O(trains · stops) once.
    public init(dataset: TransitDataset) {
        let stationOrder = Self.stationOrder(of: dataset.network)
        self.init(
            network: dataset.network, stationOrder: stationOrder,
            timetable: TimetableModel(timetable: dataset.timetable, network: dataset.network, stationOrder: stationOrder))
    }

    /// Prepares `network` for tracking without a timetable.
    public init(network: RailwayNetwork) {
        self.init(dataset: TransitDataset(network: network))
    }

    init(network: RailwayNetwork, stationOrder: [[(position: Meters, station: Int)]], timetable: TimetableModel) {
        let terminals = network.railways.enumerated().map { index, railway in
            let coordinates = network.stationCoordinates[index]
            return railway.isLoop ? [] : [coordinates[0], coordinates[coordinates.count - 1]]
        }
        var stretches: [ClosedRange<Meters>] = []
        let tunnelRanges = network.railways.map { railway in
            let start = stretches.count
            stretches += railway.track.undergroundStretches()
            return start..<stretches.count
        }
        parts = Parts(
            network: network, timetable: timetable, grid: RailwayGrid(network: network), stationOrder: stationOrder,
            terminals: terminals, tunnels: stretches, tunnelRanges: tunnelRanges,
            trackLengths: network.railways.map(\.track.polyline.length))
    }

    /// The model with trains standing where `platforms` say (`RailwayNetwork.placing(_:)`), and
    /// the platforms it could not place. The timetable and indexes are shared, not rebuilt.
    ///
    /// - Complexity: O(p · s) for p platforms and s stations a railway.
    public func placing(_ platforms: [LearntPlatform]) -> (model: TrackerModel, unplaced: [LearntPlatform]) {
        let (network, unplaced) = parts.network.placing(platforms)
        return (TrackerModel(parts: parts, network: network), unplaced)
    }

    private init(parts old: Parts, network: RailwayNetwork) {
        parts = Parts(
            network: network, timetable: old.timetable, grid: old.grid, stationOrder: old.stationOrder,
            terminals: old.terminals, tunnels: old.tunnels, tunnelRanges: old.tunnelRanges, trackLengths: old.trackLengths)
    }

    /// Each railway's stations by along-track position.
    static func stationOrder(of network: RailwayNetwork) -> [[(position: Meters, station: Int)]] {
        network.stationAlongTrack.map { positions in
            positions.enumerated().map { (position: $0.element, station: $0.offset) }.sorted { $0.position < $1.position }
        }
    }

    /// Whether patterns come from a timetable.
    public var hasTimetable: Bool { timetable.hasTimetable }
    var patterns: [[ServicePattern]] { timetable.patterns }
    var logPrior: [Double] { timetable.logPrior }
    var segmentTraffic: [[Double]] { timetable.segmentTraffic }
    var throughService: [Set<Int>] { timetable.throughService }
    var patternPriors: [[Double]] { timetable.patternPriors }
    var initialStopChance: [[Double]] { timetable.initialStopChance }
    var trips: [[ScheduledTrip]] { timetable.trips }
    var tripsByStart: [[(start: Float, trip: Int32)]] { timetable.tripsByStart }
    var longestTrip: [Seconds] { timetable.longestTrip }
    var services: [String] { timetable.services }
    var calendar: ServiceCalendar { timetable.calendar }
    /// The timetables' clock: their zone's offsets from UTC (`+32_400` all year for Tokyo;
    /// UTC without timetables).
    public var zone: TimeZoneRules { timetable.zone }
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

    /// The service day `time` falls on (its local date on the timetable's clock): where its
    /// clock and the day before's start (seconds since 1970, `TimeZoneRules.serviceDayOrigin`),
    /// and which of `services` run on it and on the day before (whose trains run on past
    /// midnight).
    func serviceDay(at time: Timestamp) -> (origin: Seconds, previousOrigin: Seconds, today: [Bool], yesterday: [Bool]) {
        let day = zone.day(of: time)
        return (
            zone.serviceDayOrigin(day), zone.serviceDayOrigin(day.adding(-1)), servicesRunning(on: day),
            servicesRunning(on: day.adding(-1))
        )
    }

    /// Which of `services` run on `day`.
    func servicesRunning(on day: CivilDay) -> [Bool] { timetable.servicesRunning(on: day) }

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
