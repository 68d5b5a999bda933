/// Progress: a train does not run backwards. Judged between fixes that place the train at
/// least `span` apart (1 Hz fixes a span apart, a sparse phone's fixes one by one), so a phone
/// says the same per second whatever its rate; in sigmas of the two fixes' errors, the first
/// sigma free.
public struct ProgressEvidence: Hashable, Sendable {
    /// Progress is judged over spans at least this long.
    /// Set by hand on 2026-11-23 and tuned on simulated seed 307, checked on seed 401.
    public var span: Seconds = 10
    /// What each sigma of backward progress beyond the first costs, over one span ...
    /// (Set by hand on 2026-11-23 and tuned on simulated seed 307, checked on seed 401.)
    public var weight: Nats = 1
    /// ... at most this many sigmas per span.
    /// Set by hand on 2026-11-23 and tuned on simulated seed 307, checked on seed 401.
    public var cap = 4.0

    /// The defaults.
    public init() {}

    /// Nats for `progress` metres along the hypothesis's direction between two fixes of
    /// errors `sigma` and `anchorSigma`.
    public func nats(progress: Meters, sigma: Meters, anchorSigma: Meters) -> Nats {
        let spread = (sigma * sigma + anchorSigma * anchorSigma).squareRoot()
        let backward = -progress / spread
        return -weight * min(max(backward - 1, 0), cap)
    }
}

extension ProgressEvidence: EvidenceKind {
    /// What progress evidence keeps per hypothesis: the last fix that judged progress.
    struct State: Sendable, Codable {
        /// When, where it placed the train, and its sigma.
        var anchor: ProgressAnchor?
    }

    static let term = EvidenceTerm.progress
    static var tunables: [String: WritableKeyPath<Self, Double>] {
        [
            "progressSpan": \.span, "progressWeight": \.weight, "progressCap": \.cap,
        ]
    }

    /// Judges the hypothesis's progress at a fix that places the train (`Placement.placing`),
    /// against the last fix that judged it, once `span` has passed.
    func observe(_ hypothesis: inout Hypothesis, _ observation: Observation) {
        guard let placement = observation.placement, placement.placing else { return }
        let (measured, sigma, time) = (placement.reach.along, placement.spread, observation.fix.location.timestamp)
        guard let anchor = hypothesis.progress.anchor else {
            hypothesis.progress.anchor = ProgressAnchor(time: time, along: measured, sigma: sigma)
            return
        }
        guard time.seconds(since: anchor.time) >= span else { return }
        var progress = hypothesis.walk.distanceAhead(from: anchor.along, to: measured)
        if hypothesis.walk.isLoop, progress > hypothesis.walk.length / 2 { progress -= hypothesis.walk.length }
        hypothesis.charge(.progress, nats(progress: progress, sigma: sigma, anchorSigma: anchor.sigma))
        hypothesis.progress.anchor = ProgressAnchor(time: time, along: measured, sigma: sigma)
    }
}

/// The last fix that judged progress: when, where it placed the train, and its sigma.
struct ProgressAnchor: Sendable, Codable {
    var time: Timestamp
    var along: Meters
    var sigma: Meters
}
