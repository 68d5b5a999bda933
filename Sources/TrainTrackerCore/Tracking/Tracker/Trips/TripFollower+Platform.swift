import RealModule

/// A change of trains in the trip model: a rider who walks away from their train stands on a
/// platform, on no train, and boards the trains that come, one of which leaves with them.
///
/// Without it a rider who changed trains was explained by the train they left, held at the
/// station for as long as they waited, and running on: on Tokyo's parallel lines (the Yamanote
/// and Keihin-Tohoku Lines share their stations for 20 km) it explains the new train's fixes
/// as well as the new train does, and the model named the train the rider had left for the
/// rest of the ride (simulated tuning seed 3333: a Yamanote to Keihin-Tohoku change had its
/// railway right on 7.9 % of fixes).
extension TripFollower {
    /// The rider on a platform, on no train.
    struct Platform: Sendable {
        /// Where the rider walked away from their train.
        var place: Coordinate
        /// The platform's share of the belief.
        var share: Double
        /// By how many nats a trip boarded from the platform is less likely, by its line
        /// (`LineDirection.index`): the line just left (`LeavingEvidence`).
        var leftLines: [Int: Nats]
    }

    /// A rider on a platform boards a train that comes at this rate: a share
    /// `1 - exp(-t / platformWait)` of the platform boards the trains at the station over `t`
    /// seconds. Those that leave without the rider lose it again at the next fixes.
    /// Set by hand: a couple of minutes, the wait of a change between lines that run every few
    /// minutes; the likelihood of a ride under its true trip cannot tell it (`fit` follows
    /// riders who never change).
    static let platformWait: Seconds = 120

    /// The rider walked away from their train (`RailwayTracker`'s walked-away reading of the
    /// phone's speeds): the trips' belief moves to the platform at `place`, and a trip of the
    /// line just left, boarded from it, is less likely by `leaving`'s penalty at the belief's
    /// certainty of that line (its reverse by `walkedBackShare` of it), as the railway tracker
    /// reads a walk (`LeavingEvidence`).
    mutating func leaveTrain(at place: Coordinate, leaving: LeavingEvidence) {
        guard onlyTrip == nil else { return }
        let total = followed.reduce(0) { $0 + $1.total }
        guard total > 0, total.isFinite else { return }
        var shares: [Int: Double] = [:]
        for trip in followed { shares[Int(trip.key.line), default: 0] += trip.total / total }
        var leftLines: [Int: Nats] = [:]
        for (line, share) in shares {
            let reverse = LineDirection(index: line).reversed.index
            leftLines[line] = leaving.walkedAwayPenalty * (share + leaving.walkedBackShare * (shares[reverse] ?? 0))
        }
        platform = Platform(place: place, share: total + (platform?.share ?? 0), leftLines: leftLines)
        followed = []
    }

    /// Over `elapsed` seconds a share of the platform (`platformWait`) boards the trips due
    /// near the fix, at the delays the prior gives them.
    mutating func boardFromPlatform(over elapsed: Seconds, reach: [Reach], time: Timestamp, model: TrackerModel) {
        guard let platform, platform.share > 0, elapsed > 0 else { return }
        let share = platform.share * (1 - Double.exp(-elapsed / Self.platformWait))
        self.platform?.share -= share
        board(share: share, reach: reach, time: time, model: model, start: false, fromPlatform: true)
    }

    /// The platform's belief times the likelihood of the fix at `coordinate` where the rider
    /// stands: along as a standing train's (`alongDensity` of `positionScale`) by the fix's
    /// distance from where the rider walked away, `across` metres from the nearest track, and
    /// the phone's motion as a standing train's (`weigh`'s `evidence`).
    mutating func weighPlatform(at coordinate: Coordinate, across: Meters, _ evidence: Evidence) {
        guard let platform else { return }
        let offset = coordinate.distance(to: platform.place)
        let density = alongDensity(offset, scale: parameters.positionScale)
        let likelihood = tempered(density * evidence.lateral(across) * evidence.whereStanding, evidence.weight)
        self.platform?.share = platform.share * likelihood
    }
}
