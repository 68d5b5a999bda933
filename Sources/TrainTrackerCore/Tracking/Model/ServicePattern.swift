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
    let departures: TripCalls
    /// Where it ends and when it arrives there (slot -1: not known). Kept as two numbers, not
    /// an optional pair: 8 bytes less for each of Tokyo's 92,923 trips.
    private let arrivalSlot: Int32
    private let arrivalTime: Float

    /// Where it ends and when it arrives there, if known.
    var arrival: TripCall? { arrivalSlot >= 0 ? (arrivalSlot, arrivalTime) : nil }

    init(pattern: Int32, service: Int32, departures: TripCalls, arrival: TripCall? = nil) {
        self.pattern = pattern
        self.service = service
        self.departures = departures
        arrivalSlot = arrival.map { max($0.slot, 0) } ?? -1
        arrivalTime = arrival?.time ?? 0
    }

    /// A trip with departures of its own (tests, small tables).
    init(pattern: Int32, service: Int32, departures: [TripCall], arrival: TripCall? = nil) {
        self.init(pattern: pattern, service: service, departures: TripCalls(departures), arrival: arrival)
    }

    /// When it leaves station `slot`, if it calls there (and does not end there).
    func departure(at slot: Int) -> Seconds? {
        departures.first { Int($0.slot) == slot }.map { Seconds($0.time) }
    }

    /// How long before `time` it left its first station, `delay` seconds late on the service
    /// day whose clock starts at `origin` (nil: it has no calls).
    func secondsSinceLeaving(origin: Seconds, delay: Seconds, at time: Timestamp) -> Seconds? {
        departures.first.map { time.secondsSince1970 - (origin + Seconds($0.time) + delay) }
    }
}

/// A scheduled trip as riders and feeds name it: the timetable's train id (a GTFS `trip_id`)
/// and, when it differs, the number riders know (`trip_short_name`).
struct TripLabel: Sendable, Hashable {
    /// The timetable's id.
    let id: String
    /// The published number, when it is not the id.
    let number: String?

    /// The id and the number, the number left out when it repeats the id (or is empty).
    init(id: String, number: String?) {
        self.id = id
        self.number = number.flatMap { $0.isEmpty || $0 == id ? nil : $0 }
    }

    /// What a rider is shown: the number, else the id.
    var name: String { number ?? id }
}

/// A line's trips as they are compiled or read: every trip's calls appended to one array,
/// each trip a window on it.
struct LineTrips {
    private var calls = ContiguousArray<TripCall>()
    private var made: [(pattern: Int32, service: Int32, start: Int, count: Int, arrival: TripCall?)] = []
    /// Where the trip being added began in `calls`.
    private var start = 0

    /// Room for `calls` calls and `trips` trips.
    init(calls: Int = 0, trips: Int = 0) {
        self.calls.reserveCapacity(calls)
        made.reserveCapacity(trips)
    }

    /// Adds a call of the trip being added.
    mutating func append(_ call: TripCall) { calls.append(call) }

    /// Ends the trip being added: the calls appended since the last.
    mutating func endTrip(pattern: Int32, service: Int32, arrival: TripCall?) {
        made.append((pattern, service, start, calls.count - start, arrival))
        start = calls.count
    }

    /// The trips added, their calls packed in an array of just their size (`CallStorage`).
    var trips: [ScheduledTrip] {
        let calls = CallStorage(calls)
        return made.map {
            ScheduledTrip(
                pattern: $0.pattern, service: $0.service, departures: TripCalls(calls, start: $0.start, count: $0.count),
                arrival: $0.arrival)
        }
    }
}

extension ScheduledTrip {
    /// The stations it calls at (slots on the railway), in calling order, its last included.
    var callSlots: [Int] {
        departures.map { Int($0.slot) } + (arrival.map { [Int($0.slot)] } ?? [])
    }

    /// The station it calls at just before station `slot` (slots on the railway), as
    /// `callSlots` has them, without making the list: nil where it starts at `slot` or does
    /// not call there.
    func callSlot(before slot: Int) -> Int? {
        var previous: Int?
        for departure in departures {
            if Int(departure.slot) == slot { return previous }
            previous = Int(departure.slot)
        }
        if let arrival, Int(arrival.slot) == slot { return previous }
        return nil
    }
}
