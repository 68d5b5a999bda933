/// Constants that can be tuned one number at a time (`evaluate --tune NAME=VALUE`).
protocol Tunable {
    /// Each constant that is one number, by the name `--tune` takes (unique across the tracker).
    static var tunables: [String: WritableKeyPath<Self, Double>] { get }
}

/// One kind of evidence: its constants (the conforming value), what it keeps per hypothesis
/// (a `State` struct on `Hypothesis`, if any) and how it weighs a hypothesis at a fix.
///
/// Every kind sees the same input, an `Observation`, in the order of
/// `RailwayTracker.Parameters.visitKinds(_:)`, and charges its nats to its `term`. A kind that
/// needs what an earlier kind found at this fix reads it from the hypothesis (the station the
/// train just left is `Hypothesis.stops.departed`).
protocol EvidenceKind: Tunable, Hashable, Sendable {
    /// The explanation's term its nats are charged to.
    static var term: EvidenceTerm { get }
    /// Weighs `hypothesis` at one fix.
    func observe(_ hypothesis: inout Hypothesis, _ observation: Observation)
}

/// What every kind of evidence sees of one fix, for one hypothesis.
///
/// What is the same for every hypothesis sits behind one reference (`Fixed`), made once a fix:
/// handing the observation from hypothesis to hypothesis and kind to kind then copies a
/// pointer and a placement, not the fix and every kind's constants (about 800 bytes, copied
/// several times a hypothesis when they were held inline).
struct Observation {
    /// What one fix says for every hypothesis.
    final class Fixed {
        let fix: RailwayTracker.Fix
        let model: TrackerModel
        let parameters: RailwayTracker.Parameters
        let cadence: Seconds
        let live: LiveTrips?

        init(
            fix: RailwayTracker.Fix, model: TrackerModel, parameters: RailwayTracker.Parameters, cadence: Seconds,
            live: LiveTrips?
        ) {
            (self.fix, self.model, self.parameters, self.cadence, self.live) = (fix, model, parameters, cadence, live)
        }
    }

    let fixed: Fixed
    /// Where the fix places the hypothesis's train on its line; nil when the line is out of reach.
    var placement: Placement?

    /// The fix, read once for every hypothesis.
    var fix: RailwayTracker.Fix { fixed.fix }
    /// The network and timetable.
    var model: TrackerModel { fixed.model }
    /// Every kind's constants: a kind may borrow another's (passages time trains as departures do).
    var parameters: RailwayTracker.Parameters { fixed.parameters }
    /// The phone's usual wait between fixes, this fix's included.
    var cadence: Seconds { fixed.cadence }
    /// What the latest GTFS-realtime feed says about the line's trips, if it is recent
    /// (`RailwayTracker.live`).
    var live: LiveTrips? { fixed.live }
}

/// Where a fix places a hypothesis's train on its line (`RailwayTracker.place(_:fix:)`).
struct Placement {
    /// The line's track near the fix: along-track position, course, tunnel.
    let reach: RailwayTracker.Reach
    /// The track edge nearest the fix (its neighbours' courses count near a kink).
    let edge: Int
    /// The fix's distance from where the line's trains run (the drawn track plus the learnt
    /// offset), and that distance's sigma.
    let residual: Meters
    let spread: Meters
    /// Whether the fix is good enough to place the train on this line (near it, not wildly
    /// inaccurate): only such a fix moves the train or judges progress and passages.
    let placing: Bool
    /// A silence that ended at this fix: where the train went meanwhile, and how long it took.
    let silence: (from: Meters, to: Meters, duration: Seconds)?

    /// The distance in sigmas.
    var z: Double { abs(residual) / spread }

    /// A fix this many sigmas from the track ...
    /// (Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.)
    static let placingSigmas = 3.0
    /// ... or within this distance, places the train,
    /// (Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.)
    static let placingDistance: Meters = 60
    /// ... if its sigma is at most this.
    /// Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.
    static let placingSigma: Meters = 150

    /// Whether a fix `distance` from where the line's trains run, with error `sigma`, is good
    /// enough to place the train: near this track, and not wildly inaccurate.
    static func placesTheTrain(distance: Meters, sigma: Meters) -> Bool {
        distance <= max(placingSigmas * sigma, placingDistance) && sigma <= placingSigma
    }
}

/// Something done with every kind of evidence in turn, to a `Subject` handed from kind to
/// kind: weighing a hypothesis, building the tuning map, listing the terms.
protocol EvidenceVisitor {
    associatedtype Subject
    /// Does it with `kind`, found in the tracker's parameters at `path`.
    func visit<Kind: EvidenceKind>(
        _ kind: Kind, at path: WritableKeyPath<RailwayTracker.Parameters, Kind>, _ subject: inout Subject)
}

/// Weighs a hypothesis (the subject) with every kind of evidence, in order, at one fix.
struct Weighing: EvidenceVisitor {
    /// The fix, with the hypothesis's placement set before each hypothesis is weighed.
    let observation: Observation

    func visit<Kind: EvidenceKind>(
        _ kind: Kind, at path: WritableKeyPath<RailwayTracker.Parameters, Kind>, _ hypothesis: inout Hypothesis
    ) {
        kind.observe(&hypothesis, observation)
    }
}
