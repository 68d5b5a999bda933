import TrainTrackerCore

extension CaseTruth {
    /// Where a ride's train first differs from every other service that could be it: the
    /// other train types of its railway, and the trains of other railways with a station at
    /// its boarding place (Keihin-Tohoku and Tokaido, express and local).
    ///
    /// A service is told apart at the first station of the ride where it stops and the ride's
    /// train passes, passes where the train stops, or has no station at all (its track has
    /// left). The ride is told at the station where the last rival is told apart; a rival
    /// that calls where the train calls to the ride's end is never told apart (`untold`).
    public struct Telling: Hashable, Sendable, Codable {
        /// The services that could be the train at its boarding station, as `railway/type`.
        public var rivals: [String]
        /// Those the ride never tells apart.
        public var untold: [String]
        /// The station where the last rival is told apart (a `passages` station), when every
        /// one is.
        public var station: String?
        /// Where each rival is told apart (a `passages` station; none when never), by rival.
        public var partings: [String: String]? = nil

        /// A ride's telling station.
        public init(rivals: [String], untold: [String], station: String?, partings: [String: String]? = nil) {
            self.rivals = rivals
            self.untold = untold
            self.station = station
            self.partings = partings
        }

        /// The railways of the rivals not yet told apart `time` seconds since 1970 into a ride
        /// that reached `passages` when they say.
        public func railwaysStillAlike(at time: Double, passages: [StopArrival]) -> Set<String> {
            let reached = Dictionary(passages.map { ($0.station, $0.time) }, uniquingKeysWith: { first, _ in first })
            return Set(
                rivals.filter { rival in
                    guard let station = partings?[rival] else { return untold.contains(rival) }
                    return reached[station].map { time < $0 } ?? false
                }.map { String($0.prefix { $0 != "/" }) })
        }
    }
}

/// The services that could be a train at a station, with the stations each calls at: the
/// trains of every railway with a station at the ride's boarding place that run the ride's
/// way through it within `window` of its departure.
struct RivalServices: Sendable {
    /// A station of another railway counts as the same place within this distance (the
    /// tracker's own, so that what it names and what the simulator counts agree).
    static let samePlace = RailwayTracker.samePlace
    /// A train is a rival when it calls within this long of the ride's departure.
    static let window: Seconds = 30 * 60

    let dataset: TransitDataset
    /// The timetable's trains by railway, as indices into `dataset.timetable.trains`.
    private let trainsByRailway: [String: [Int]]

    /// The rivals in `dataset`.
    ///
    /// - Complexity: O(trains).
    init(dataset: TransitDataset) {
        self.dataset = dataset
        trainsByRailway = Dictionary(grouping: dataset.timetable.trains.indices) { dataset.timetable.trains[$0].railwayID }
    }

    /// The railways with a station within `samePlace` of `station`, its own among them.
    private func railways(at station: String) -> [String] {
        guard let here = dataset.network.station(id: station) else { return [] }
        return dataset.network.railwaysWithStations(within: Self.samePlace, of: here.coordinate).sorted()
    }

    /// The ride's telling station: `passages` are the stations the train reaches, in order
    /// (its boarding station first), and `stops` the ones it calls at.
    ///
    /// - Complexity: O(trains of `railways` · their stops + rivals · passages · stations).
    func telling(
        of train: TimetabledTrain, on day: CivilDay, departure: Seconds, passages: [String], stops: Set<String>
    ) -> CaseTruth.Telling? {
        guard let boarding = passages.first else { return nil }
        var calls: [String: Set<String>] = [:]
        var lines: [String: Line] = [:]
        for railwayID in railways(at: boarding) {
            guard let railway = dataset.network.railway(id: railwayID) else { continue }
            let place = placeMap(of: passages, on: railway)
            let order = Dictionary(
                railway.stationIDs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            guard let boardingPlace = place[boarding], let boardingIndex = order[boardingPlace] else { continue }
            // (A loop may list its first station again at the end.)
            let ids = railway.stationIDs
            let count = railway.isLoop && ids.count > 1 && ids.first == ids.last ? ids.count - 1 : ids.count
            let line = Line(place: place, order: order, count: count, isLoop: railway.isLoop)
            lines[railwayID] = line
            let ascending = Self.ascending(passages.compactMap { place[$0] }.compactMap { order[$0] }, line: line)
            for index in trainsByRailway[railwayID] ?? [] {
                let rival = dataset.timetable.trains[index]
                let type = rival.trainTypeID ?? ""
                guard !(railwayID == train.railwayID && type == (train.trainTypeID ?? "")),
                    dataset.timetable.calendar.runs(rival.service, on: day),
                    rival.stops.contains(where: { call in
                        [call.arrival, call.departure].contains { $0.map { abs($0 - departure) <= Self.window } == true }
                    }),
                    Self.runs(rival, through: boardingIndex, ascending: ascending, line: line)
                else { continue }
                calls["\(railwayID)/\(type)", default: []].formUnion(rival.stops.map(\.stationID))
            }
        }
        guard !calls.isEmpty else { return nil }
        var station: Int?
        var untold: [String] = []
        var partings: [String: String] = [:]
        for (rival, called) in calls.sorted(by: { $0.key < $1.key }) {
            let line = lines[String(rival.prefix { $0 != "/" })] ?? Line(place: [:], order: [:])
            guard let told = line.firstDifference(of: called, from: passages, stops: stops) else {
                untold.append(rival)
                continue
            }
            partings[rival] = passages[told]
            station = max(station ?? told, told)
        }
        return CaseTruth.Telling(
            rivals: calls.keys.sorted(), untold: untold, station: untold.isEmpty ? station.map { passages[$0] } : nil,
            partings: partings)
    }

    /// A railway seen from a ride: its station at the place of each of the ride's passages, and
    /// the line order of its stations.
    struct Line {
        let place: [String: String]
        let order: [String: Int]
        /// Its stations, and whether it is a loop.
        var count = 0
        var isLoop = false

        /// How many stations on from `from` `to` lies, going forward (round a loop).
        func forward(from: Int, to: Int) -> Int {
            guard count > 0 else { return to - from }
            return ((to - from) % count + count) % count
        }

        /// Whether the station at `index` lies strictly between `previous` and `here`, the short
        /// way round on a loop.
        func between(_ index: Int, _ previous: Int, _ here: Int) -> Bool {
            guard isLoop else { return min(previous, here) < index && index < max(previous, here) }
            let ahead = forward(from: previous, to: here) <= count / 2
            let (from, to) = ahead ? (previous, here) : (here, previous)
            let step = forward(from: from, to: index)
            return step > 0 && step < forward(from: from, to: to)
        }

        /// The first passage where a service of this railway calling at `called` differs from
        /// the ride: it has no station there (its track has left), calls where the ride passes
        /// or passes where the ride calls, or called at a station of its own between this
        /// passage and the last (one the ride's railway does not have).
        func firstDifference(of called: Set<String>, from passages: [String], stops: Set<String>) -> Int? {
            var previous: Int?
            for (index, passage) in passages.enumerated() {
                guard let there = place[passage], let here = order[there] else { return index }
                if let previous, here != previous,
                    called.contains(where: { order[$0].map { between($0, previous, here) } == true })
                {
                    return index
                }
                if called.contains(there) != stops.contains(passage) { return index }
                previous = here
            }
            return nil
        }
    }

    /// For each of `passages`, the station of `railway` at the same place, if it has one.
    private func placeMap(of passages: [String], on railway: Railway) -> [String: String] {
        let network = dataset.network
        let stations = network.stations(of: railway)
        var place: [String: String] = [:]
        for passage in passages {
            guard let here = network.station(id: passage) else { continue }
            if here.railwayID == railway.id {
                place[passage] = passage
            } else if let nearest = stations.min(by: {
                $0.coordinate.distance(to: here.coordinate) < $1.coordinate.distance(to: here.coordinate)
            }), nearest.coordinate.distance(to: here.coordinate) <= Self.samePlace {
                place[passage] = nearest.id
            }
        }
        return place
    }

    /// Whether line-order indices increase (the ride's way along another railway); on a loop,
    /// whether its first step goes forward the short way round.
    private static func ascending(_ indices: [Int], line: Line) -> Bool? {
        guard let first = indices.first, let last = indices.last else { return nil }
        guard line.isLoop else { return first == last ? nil : last > first }
        guard let second = indices.dropFirst().first(where: { $0 != first }) else { return nil }
        return line.forward(from: first, to: second) <= line.count / 2
    }

    /// Whether `rival` runs the ride's way through the station at `index` in line order (calling
    /// there or passing it between two calls, round a loop the way it runs).
    private static func runs(_ rival: TimetabledTrain, through index: Int, ascending: Bool?, line: Line) -> Bool {
        let indices = rival.stops.compactMap { line.order[$0.stationID] }
        guard let first = indices.first, let last = indices.last, indices.contains(where: { $0 != first }) else {
            return false
        }
        let forward = Self.ascending(indices, line: line)
        if let ascending, forward != ascending { return false }
        guard line.isLoop else { return (min(first, last)...max(first, last)).contains(index) }
        // Round a loop from its first call to its last, the way it runs (all of it when they meet).
        let (from, to) = forward ?? true ? (first, last) : (last, first)
        return first == last || line.forward(from: from, to: index) <= line.forward(from: from, to: to)
    }
}

extension TimetabledRide {
    /// Every station of `stations` (id and place along the track) the ride reaches, from its
    /// first stop to its last in order, with the seconds after the ride's start when it does.
    ///
    /// - Complexity: O(duration in seconds + stations).
    func passages(of stations: [(id: String, position: Meters)], from first: Meters, to last: Meters) -> [(
        station: String, time: Seconds
    )] {
        let end = walk.distanceAhead(from: first, to: last)
        let ahead = stations.map { ($0.id, walk.distanceAhead(from: first, to: $0.position)) }
            .filter { $0.1 >= -1 && $0.1 <= end + 1 }.sorted { $0.1 < $1.1 }
        var passages: [(station: String, time: Seconds)] = []
        var time: Seconds = 0
        var travelled: Meters = 0
        for (station, distance) in ahead {
            while travelled < distance - 1, time < duration {
                time += 1
                let covered = walk.distanceAhead(from: first, to: state(at: time).position)
                // (On a loop a position a hair behind the start reads as a whole lap ahead.)
                if covered <= end + 1 { travelled = max(travelled, covered) }
            }
            passages.append((station, time))
        }
        return passages
    }
}

extension RailwayNetwork {
    /// The railways with a station within `distance` of `coordinate` (on a local plane).
    ///
    /// - Complexity: O(stations).
    func railwaysWithStations(within distance: Meters, of coordinate: Coordinate) -> Set<String> {
        let projection = LocalProjection(origin: coordinate)
        // (A degree of latitude is 111 km: a cheap test first.)
        let latitudeSpan = distance / 100_000
        return Set(
            stations.lazy.filter { abs($0.coordinate.latitude - coordinate.latitude) < latitudeSpan }
                .filter { projection.distance(to: $0.coordinate) <= distance }.map(\.railwayID))
    }
}
