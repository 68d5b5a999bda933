import TrainTrackerCore

/// Stops a train makes where its service does not call: at stations it passes, for signals,
/// crossings or a changed timetable (real phones on shared track stood 30–45 s at stations
/// their pattern passes, issue 59). The rider's next stop stays the service's own.
public struct SignalStops: Hashable, Sendable {
    /// How long the train stands.
    public var dwell: ClosedRange<Seconds>
    /// The share of passed stations it stands at; at least one on a ride that passes any.
    public var share: Double

    /// Signal stops of `dwell` at `share` of the stations passed.
    public init(dwell: ClosedRange<Seconds>, share: Double) {
        self.dwell = dwell
        self.share = share
    }

    /// A planned stop: where along the track, and when it arrives and leaves (seconds of the
    /// service day, when the timetable says).
    typealias PlannedStop = (position: Meters, arrival: Seconds?, departure: Seconds?)

    /// `stops` with signal stops added at some of `passed` (positions along the track of
    /// stations the train runs through), each at the time its run between the stops either side
    /// reaches it (by distance), every later time that much later.
    func adding(to stops: [PlannedStop], passed: [Meters], walk: TrackWalk, using generator: inout SeededGenerator)
        -> [PlannedStop]
    {
        guard stops.count >= 2, !passed.isEmpty else { return stops }
        var chosen = passed.filter { _ in Double.random(in: 0..<1, using: &generator) < share }
        if chosen.isEmpty { chosen = [passed[Int.random(in: 0..<passed.count, using: &generator)]] }
        var planned = stops
        for position in chosen {
            guard
                let leg = planned.indices.dropLast().first(where: { index in
                    let ahead = walk.distanceAhead(from: planned[index].position, to: position)
                    return ahead > 0 && ahead < walk.distanceAhead(from: planned[index].position, to: planned[index + 1].position)
                })
            else { continue }
            let from = planned[leg]
            let to = planned[leg + 1]
            let share =
                walk.distanceAhead(from: from.position, to: position)
                / max(walk.distanceAhead(from: from.position, to: to.position), 1)
            let leaves = from.departure ?? from.arrival
            let arrives = to.arrival ?? to.departure
            let stands = Double.random(in: dwell, using: &generator)
            let time = leaves.flatMap { start in arrives.map { start + share * ($0 - start) } }
            for later in (leg + 1)..<planned.count {
                planned[later].arrival = planned[later].arrival.map { $0 + stands }
                planned[later].departure = planned[later].departure.map { $0 + stands }
            }
            planned.insert((position, time, time.map { $0 + stands }), at: leg + 1)
        }
        return planned
    }
}

extension CaseGenerator {
    /// Where along `railway`'s track, between the first and last of `called` (the ride's stops),
    /// the train runs through a station: one of the network's stations (of its own railway or
    /// another's) within `besideTrack` of the track and clear of every stop and of each other
    /// by `apart`.
    func passedStations(on railway: Railway, called: [Meters], walk: TrackWalk) -> [Meters] {
        guard let first = called.first, let last = called.last else { return [] }
        let length = walk.distanceAhead(from: first, to: last)
        var passed: [Meters] = []
        for station in dataset.network.stations {
            guard let projection = railway.track.polyline.projection(of: station.coordinate, within: Self.besideTrack)
            else { continue }
            let position = projection.alongTrack
            let ahead = walk.distanceAhead(from: first, to: position)
            guard ahead > 0, ahead < length, (called + passed).allSatisfy({ walk.separation($0, position) > Self.apart })
            else { continue }
            passed.append(position)
        }
        return passed.sorted { walk.distanceAhead(from: first, to: $0) < walk.distanceAhead(from: first, to: $1) }
    }

    /// A station this near the track is on it (its point may lie off the drawn line).
    static let besideTrack: Meters = 60
    /// Stations this near one another are one place.
    static let apart: Meters = 150
}
