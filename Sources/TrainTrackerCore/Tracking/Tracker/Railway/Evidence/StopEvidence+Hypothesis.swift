import Algorithms
import RealModule

extension StopEvidence: EvidenceKind {
    /// What stop evidence keeps per hypothesis: stations crossed, stops made.
    struct State: Sendable, Codable {
        /// Stations crossed and not yet judged (the train is not yet well past them).
        var pending: [PendingStation] = []
        /// Where the latest stops were.
        var positions: [Meters] = []
        /// Where the train stands, during a stop.
        var standing: Meters?
        /// Where the train was at the previous fix (stations in between were crossed).
        var previousAlong: Meters?
        /// The station the train left at this fix, after a stop seen to its end: its departure
        /// time is known (`DepartureEvidence`) ...
        var departed: Int?
        /// ... this long before the fix (`StopEvidence.timeSinceMovingOff`).
        var departedAgo: Seconds = 0

        /// The rider left the train: its stops say nothing about the next.
        mutating func forgetTrain() {
            pending = []
            positions = []
        }
    }

    static let term = EvidenceTerm.stops
    static var tunables: [String: WritableKeyPath<Self, Double>] {
        [
            "strayStopCost": \.strayStopCost, "patternMismatch": \.patternMismatch,
            "unscheduledStopProbability": \.unscheduledStopProbability,
            "untimedPassProbability": \.untimedPassProbability, "minimumStop": \.minimumStop, "stationReach": \.stationReach,
            "learntReach": \.learntReach,
            "departureGap": \.gap, "unseenStopTime": \.unseenStopTime, "fastRun": \.fastRun, "passClearance": \.passClearance,
            "silentStopSpeed": \.silentStopSpeed,
        ]
    }

    /// What the train did since the last fix, for one hypothesis: stations crossed (judged by
    /// `CrossingEvidence` once the train is well past them), stops made. A stop is judged where
    /// the train stood, also when it ends after a gap in the fixes (a tunnel), and the stations
    /// crossed in the gap say nothing unless the train ran too fast to stop. Sets `State.departed` to the
    /// station the train just left after a stop seen to its end, whose departure time is then
    /// known. Only the train's own progress crosses stations: a step longer than it can have
    /// travelled since the last fix is a correction of its position.
    func observe(_ hypothesis: inout Hypothesis, _ observation: Observation) {
        hypothesis.stops.departed = nil
        hypothesis.stops.departedAgo = 0
        guard let along = hypothesis.along else { return }
        let (model, fix) = (observation.model, observation.fix)
        let gap = fix.dt
        var silentStop = false
        if let previous = hypothesis.stops.previousAlong {
            let travelled = fix.stopped ? 0 : fix.speed * fix.dt * Self.travelShare + Self.travelMargin
            cross(
                &hypothesis, model: model, from: previous, to: along, travelled: travelled, gap: gap,
                speeds: (fix.previousSpeed, fix.location.speed))
            if hypothesis.stops.standing == nil {
                silentStop = self.silentStop(&hypothesis, model: model, from: previous, to: along, gap: gap)
            }
        }
        hypothesis.stops.previousAlong = along
        switch fix.change {
        case .started:
            // A stop the silence before this fix showed is not seen again as it ends.
            hypothesis.stops.standing = silentStop ? nil : along
        case .ended(let duration):
            if duration >= minimumStop, let standing = hypothesis.stops.standing {
                // Where it stood: the train is seen to move off a few metres on, or (a phone
                // without speeds) 60 m and more on, `MotionState.StandingPoint`. When it moved
                // off: as the fix's speed and the distance run say, even after a silence (a
                // phone that logs only on movement), else at the fix; either after the last fix
                // that saw it stand (not a poor fix held through).
                let sinceStanding = fix.sinceSeenStanding
                let ago = timeSinceMovingOff(
                    distance: hypothesis.walk.separation(standing, along), speed: fix.location.speed, gap: sinceStanding)
                let seenToItsEnd = sinceStanding <= self.gap || ago != nil
                hypothesis.stops.departed = stop(&hypothesis, model: model, at: standing, seenToItsEnd: seenToItsEnd)
                hypothesis.stops.departedAgo = ago ?? 0
            }
            hypothesis.stops.standing = nil
        case nil:
            // Where it stands, as the fixes of the stop settle it (the rider's last place, when
            // a walk to the platform ends the stop: not where the walk began; not the fix that
            // lies out of reach as a phone without speeds moves off).
            if fix.stopped, !fix.leavingStand, hypothesis.stops.standing != nil { hypothesis.stops.standing = along }
        }
    }

    /// A stop unseen in the silence from `previous` to `along` (`isSilentStop`), judged where
    /// the train is after it (where it stood is unknown). Returns whether it was one.
    private func silentStop(
        _ hypothesis: inout Hypothesis, model: TrackerModel, from previous: Meters, to along: Meters, gap: Seconds
    )
        -> Bool
    {
        guard isSilentStop(gap: gap, distance: hypothesis.walk.separation(previous, along)) else { return false }
        _ = stop(&hypothesis, model: model, at: along, seenToItsEnd: false)
        return true
    }

    /// Stations crossed between `previous` and `along` wait in `pending` until the train is
    /// well past them. Only the train's own progress crosses stations, not a correction.
    private func cross(
        _ hypothesis: inout Hypothesis, model: TrackerModel, from previous: Meters, to along: Meters, travelled: Meters,
        gap: Seconds, speeds: (before: MetersPerSecond?, after: MetersPerSecond?)
    ) {
        let walk = hypothesis.walk
        let step = walk.distanceAhead(from: previous, to: along)
        guard step > 0, step <= travelled else { return }
        // Measured speeds either side of a gap judge each station by the run a stop there needs;
        // without them, the gap's time and distance judge them all.
        let judgedBySpeeds =
            gap > self.gap && speeds.before ?? 0 >= Self.movingOffSpeed && speeds.after ?? 0 >= Self.movingOffSpeed
        guard judgedBySpeeds || !mayHaveStoppedUnseen(gap: gap, distance: step) else { return }
        let end = walk.advance(previous, by: step)
        let (low, high) = walk.sign > 0 ? (previous, end) : (end, previous)
        // (Lists are read in place, only where needed: this runs per hypothesis per fix.)
        let order = model.stationOrder[hypothesis.line.railway]
        // Positions in (low, high], wrapping once on a loop.
        let wraps = high < low
        for part in 0..<(wraps ? 2 : 1) {
            let (from, to) = !wraps ? (low, high) : part == 0 ? (low, walk.length) : (-1, high)
            var index = order.partitioningIndex { $0.position > from }
            while index < order.count, order[index].position <= to {
                let (position, station) = order[index]
                index += 1
                let before = walk.separation(position, previous)
                let after = walk.separation(position, end)
                if judgedBySpeeds,
                    let could = couldHaveStopped(
                        gap: gap, before: before, after: after, speedBefore: speeds.before, speedAfter: speeds.after)
                {
                    guard !could else { continue }
                } else {
                    guard showsCrossing(gap: gap, before: before, after: after) else { continue }
                }
                if !hypothesis.stops.pending.contains(where: { $0.station == station }) {
                    // Judged once the train is past its platform (worked out once, here).
                    let farEnd = model.network.platformFarEnd(railway: hypothesis.line.railway, station: station, walk: walk)
                    hypothesis.stops.pending.append(PendingStation(station: station, position: farEnd))
                }
            }
        }
    }

    /// A stop at `position`: at the station where trains stand nearest
    /// (`RailwayNetwork.distanceFromPlatform`), if within reach (`beyondPlatform`), an event of the patterns
    /// (unless already pending), else a stray stop. Returns the station, when the stop was
    /// `seenToItsEnd` so its departure time is known.
    private func stop(_ hypothesis: inout Hypothesis, model: TrackerModel, at position: Meters, seenToItsEnd: Bool) -> Int? {
        hypothesis.stops.positions.append(position)
        if hypothesis.stops.positions.count > Self.rememberedStops { hypothesis.stops.positions.removeFirst() }
        let railway = hypothesis.line.railway
        let network = model.network
        let distance = { (station: Int) in
            network.distanceFromPlatform(railway: railway, station: station, position: position)
        }
        let nearest = network.stationAlongTrack[railway].indices.min { distance($0) < distance($1) }
        guard let nearest,
            network.beyondPlatform(
                railway: railway, station: nearest, position: position, reach: stationReach, learntReach: learntReach) <= 0
        else {
            hypothesis.charge(.stops, -strayStopCost)
            return nil
        }
        if !hypothesis.stops.pending.contains(where: { $0.station == nearest }) {
            record(&hypothesis, model: model, station: nearest, stopped: true)
        }
        return seenToItsEnd ? nearest : nil
    }

    /// Evidence from stopping at, or passing, station `station`: the likelihood under the
    /// hypothesis's service patterns, which are re-weighted by it.
    func record(_ hypothesis: inout Hypothesis, model: TrackerModel, station: Int, stopped: Bool) {
        let patterns = model.patterns[line: hypothesis.line]
        let hasTimetable = model.hasTimetable
        let nats = hypothesis.weighPatterns(model: model) { index in
            let pattern = patterns[index]
            let stops = station < pattern.stops.count && pattern.stops[station]
            let runs = station >= pattern.runs.count || pattern.runs[station]
            return Double.log(probability(stopped: stopped, patternStops: stops, patternRuns: runs, hasTimetable: hasTimetable))
        }
        hypothesis.charge(.stops, nats)
    }
}

/// A station crossed and not yet judged: which, and where along the track the train has left
/// it (its point, or its learnt platform's far end: `RailwayNetwork.platformFarEnd`).
struct PendingStation: Sendable, Codable {
    var station: Int
    var position: Meters
}
