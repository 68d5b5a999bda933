/// Progress: a train does not run backwards. Judged between fixes that place the train at
/// least `span` apart (1 Hz fixes a span apart, a sparse phone's fixes one by one), so a phone
/// says the same per second whatever its rate; in sigmas of the two fixes' errors, the first
/// sigma free.
public struct ProgressEvidence: Hashable, Sendable {
    /// Progress is judged over spans at least this long.
    public var span: Seconds = 10
    /// Nats per sigma of backward progress beyond the first, over one span ...
    public var weight = 1.0
    /// ... at most this many sigmas per span.
    public var cap = 4.0

    /// The defaults.
    public init() {}

    /// Nats for `progress` metres along the hypothesis's direction between two fixes of
    /// errors `sigma` and `anchorSigma`.
    public func nats(progress: Meters, sigma: Meters, anchorSigma: Meters) -> Double {
        let spread = (sigma * sigma + anchorSigma * anchorSigma).squareRoot()
        let backward = -progress / spread
        return -weight * min(max(backward - 1, 0), cap)
    }
}

extension ProgressEvidence {
    /// Judges the hypothesis's progress at a fix at `measured` along its line (error `sigma`)
    /// at `time`, when the fix is `placing` (`Hypothesis.placesTheTrain`), against the last
    /// fix that judged it, once `span` has passed.
    func observe(_ hypothesis: inout Hypothesis, measured: Meters, sigma: Meters, placing: Bool, at time: Timestamp) {
        guard placing else { return }
        guard let anchor = hypothesis.progressAnchor else {
            hypothesis.progressAnchor = ProgressAnchor(time: time, along: measured, sigma: sigma)
            return
        }
        guard time.seconds(since: anchor.time) >= span else { return }
        var progress = hypothesis.walk.distanceAhead(from: anchor.along, to: measured)
        if hypothesis.walk.isLoop, progress > hypothesis.walk.length / 2 { progress -= hypothesis.walk.length }
        hypothesis.charge(.progress, nats(progress: progress, sigma: sigma, anchorSigma: anchor.sigma))
        hypothesis.progressAnchor = ProgressAnchor(time: time, along: measured, sigma: sigma)
    }
}
