/// Crossings: each station the train crossed (`StopEvidence.State.pending`) is judged once the
/// train is well past its platform: stopped at, if one of its stops was within reach of where
/// trains stand there (`StopEvidence.stationReach`, `learntReach`), run through otherwise, an
/// event its line's service patterns explain well or badly (`StopEvidence.record`). Judged after departures, so a departure at this fix is weighed by
/// the patterns as the stop left them.
public struct CrossingEvidence: Hashable, Sendable {
    /// A station is judged once the train is this far past it (past its learnt platform's far
    /// end, `RailwayNetwork.platformFarEnd`).
    /// Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.
    public static let judgedBehind: Meters = 300

    /// The defaults.
    public init() {}
}

extension CrossingEvidence: EvidenceKind {
    static let term = EvidenceTerm.stops
    static var tunables: [String: WritableKeyPath<Self, Double>] { [:] }

    /// Judges the pending stations the train has left well behind.
    func observe(_ hypothesis: inout Hypothesis, _ observation: Observation) {
        guard let along = hypothesis.along else { return }
        let stops = observation.parameters.stops
        let walk = hypothesis.walk
        let leftBehind = { (position: Meters) in
            let behind = walk.distanceAhead(from: position, to: along)
            return behind > Self.judgedBehind && !(walk.isLoop && behind > walk.length / 2)
        }
        guard hypothesis.stops.pending.contains(where: { leftBehind($0.position) }) else { return }
        // (The network read in place, only when a station is judged: this runs per hypothesis per fix.)
        let railway = hypothesis.line.railway
        var remaining: [PendingStation] = []
        for item in hypothesis.stops.pending {
            guard leftBehind(item.position) else {
                remaining.append(item)
                continue
            }
            let stopped = hypothesis.stops.positions.contains {
                observation.model.network.beyondPlatform(
                    railway: railway, station: item.station, position: $0, reach: stops.stationReach,
                    learntReach: stops.learntReach) <= 0
            }
            stops.record(&hypothesis, model: observation.model, station: item.station, stopped: stopped)
        }
        hypothesis.stops.pending = remaining
    }
}
