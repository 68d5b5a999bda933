/// The plain schedule matcher, a baseline that looks at nothing but the timetable: among the
/// trips running that day, the one minimising the sum over the ride's fixes so far of
/// min(|fix time − the trip's scheduled time at the fix's place on its track|, 15 min). No
/// other geometry, no tuning. The tracker must never do worse than it on a real day.
///
///     var matcher = ScheduleMatcher(model: model)
///     matcher.process(fix).best?.trainID     // "108"
///
/// - Complexity: O(t · log c) per fix for the t trips of the day with c calls each.
public struct ScheduleMatcher: TrackingAlgorithm {
    /// The most one fix costs a trip (seconds).
    /// Set by hand on 2026-11-27 for the untuned baseline; the reason for 15 minutes is not
    /// recorded.
    public static let cap: Seconds = 900
    /// A fix farther than this from a trip's track is not at a place of it (costs the cap).
    /// Set by hand on 2026-11-27 for the untuned baseline; the reason for 1 km is not recorded.
    static let reach: Meters = 1_000

    private let model: TrackerModel
    /// Per trip of the days seen, the summed cost so far.
    private var costs: [TripFollower.Key: Seconds] = [:]
    /// Fixes seen so far (a trip first seen later owes the cap for each earlier one).
    private var fixes = 0

    /// A matcher with no history.
    public init(model: TrackerModel) { self.model = model }

    /// Takes the next fix and returns the best trip's line, train and next stop.
    public mutating func process(_ location: Location) -> TrackingResult {
        guard model.hasTimetable else { return TrackingResult(candidates: []) }
        let time = location.timestamp
        let day = model.serviceDay(at: time)
        var along: [Int: (along: Meters, distance: Meters)?] = [:]
        var seen = Set<TripFollower.Key>()
        for line in LineDirection.all(railwayCount: model.network.railways.count) {
            let trips = model.trips[line: line]
            guard !trips.isEmpty else { continue }
            let railway = model.network.railways[line.railway]
            if along[line.railway] == nil {
                along[line.railway] = railway.track.polyline.projection(of: location.coordinate, within: Self.reach).map {
                    ($0.alongTrack, $0.distance)
                }
            }
            let place = along[line.railway] ?? nil
            let walk = TrackWalk(railway: railway, direction: line.direction)
            let positions = model.network.stationAlongTrack[line.railway]
            for (origin, running) in [(day.origin, day.today), (day.previousOrigin, day.yesterday)] {
                for (index, trip) in trips.enumerated() {
                    let service = Int(trip.service)
                    guard running.indices.contains(service), running[service] else { continue }
                    let key = TripFollower.Key(line: Int32(line.index), trip: Int32(index), origin: origin)
                    seen.insert(key)
                    let clock = time.secondsSince1970 - origin
                    var cost = Self.cap
                    if let place, let due = trip.time(at: place.along, positions: positions, walk: walk, near: clock) {
                        cost = min(abs(clock - due), Self.cap)
                    }
                    costs[key, default: Seconds(fixes) * Self.cap] += cost
                }
            }
        }
        fixes += 1
        var best: (key: TripFollower.Key, cost: Seconds)?
        for key in seen {
            let cost = costs[key] ?? .infinity
            if best.map({ (cost, key.line, key.trip) < ($0.cost, $0.key.line, $0.key.trip) }) ?? true { best = (key, cost) }
        }
        guard let best, let candidate = candidate(for: best.key, location: location) else {
            return TrackingResult(candidates: [])
        }
        return TrackingResult(candidates: [candidate])
    }

    /// The answer for trip `key` at `location`: its line, the focus by the now/soon/next rule,
    /// its next call.
    private func candidate(for key: TripFollower.Key, location: Location) -> TrackingCandidate? {
        let line = key.lineDirection
        let network = model.network
        let railway = network.railways[line.railway]
        let stations = network.railwayStations[line.railway]
        let walk = TrackWalk(railway: railway, direction: line.direction)
        let along = railway.track.polyline.projection(of: location.coordinate)?.alongTrack ?? 0
        let positions = network.stationAlongTrack[line.railway]
        let trip = model.trips[line: line][Int(key.trip)]
        var calls = trip.departures.map { Int($0.slot) }
        if let arrival = trip.arrival { calls.append(Int(arrival.slot)) }
        let next =
            calls.first { positions.indices.contains($0) && walk.separation(along, positions[$0]) <= FocusRule.nowRadius }
            ?? calls.first { positions.indices.contains($0) && walk.distanceAhead(from: along, to: positions[$0]) > 0 }
        let label = model.timetable.tripNames[line: line, trip: Int(key.trip)]
        var candidate = model.candidate(on: line, at: along, score: 0)
        candidate.nextStopID = next.map { network.stations[stations[$0]].id }
        candidate.trainID = label?.id
        candidate.train = label?.name
        return candidate
    }
}
