import RealModule

/// Silence: a long gap in the fixes is most likely a tunnel. A line whose train would have run
/// above ground all through the gap would have given fixes: it pays per minute of surface
/// running, capped. A gap counts only when it is much longer than the phone's usual wait (a
/// background phone's minute between fixes is not a tunnel).
public struct SilenceEvidence: Hashable, Sendable {
    /// A gap at least this long may be a silence ...
    /// (Set by hand on 2026-11-22 with the silence rule, after a ride of seed 31 that never locked;
    /// the reason is not recorded.)
    public var gap: Seconds = 30
    /// ... and only when it is this many times the phone's usual wait between fixes.
    /// Set by hand on 2026-11-23, on simulated seed 307's background phones (railway 87.8 → 90.8 %
    /// with the pass clearance); the reason for four is not recorded.
    public var overCadence = 4.0
    /// What each minute the line's train would have spent above ground costs ...
    /// (Set by hand on 2026-11-22 with the silence rule, after a ride of seed 31 that never locked;
    /// the reason is not recorded.)
    public var costPerMinute: Nats = 1
    /// ... at most.
    /// Set by hand on 2026-11-22 with the silence rule, after a ride of seed 31 that never locked;
    /// the reason is not recorded.
    public var cap: Nats = 4

    /// A minute.
    static let minute: Seconds = 60

    /// The defaults.
    public init() {}

    /// The shortest silence for a phone that usually waits `cadence` seconds between fixes.
    public func threshold(cadence: Seconds) -> Seconds {
        max(gap, overCadence * cadence)
    }

    /// Nats for a silence of `duration` seconds over a stretch of which `undergroundShare`
    /// runs underground.
    public func nats(duration: Seconds, undergroundShare: Double) -> Nats {
        let surfaceMinutes = duration / Self.minute * max(0, 1 - undergroundShare)
        return -min(cap, costPerMinute * surfaceMinutes)
    }
}

/// The phone's usual wait between fixes: the geometric mean of the first ten waits, then a
/// running one (waits longer than five minutes count as five).
struct PhoneCadence: Hashable, Sendable, Codable {
    /// The usual wait, in seconds.
    private(set) var seconds: Seconds = 1
    private var count = 0
    /// Waits beyond this count as this.
    /// Set by hand on 2026-11-23 with the cadence rule, on simulated seed 307; the reason for five
    /// minutes is not recorded.
    static let longestWait: Seconds = 300
    /// The running mean's shortest memory, as the weight of the newest wait.
    /// Set by hand on 2026-11-23; the reason for 0.1 is not recorded.
    static let newestWeight = 0.1

    /// Takes the wait before the latest fix.
    mutating func add(_ wait: Seconds) {
        count += 1
        let weight = max(Self.newestWeight, 1 / Double(count))
        seconds = Double.exp((1 - weight) * Double.log(seconds) + weight * Double.log(min(wait, Self.longestWait)))
    }
}

extension SilenceEvidence: EvidenceKind {
    static let term = EvidenceTerm.silence
    static var tunables: [String: WritableKeyPath<Self, Double>] {
        [
            "silentGap": \.gap, "silenceOverCadence": \.overCadence, "silentSurfaceCost": \.costPerMinute,
            "silentSurfaceCap": \.cap,
        ]
    }

    /// Charges a silence that ended at this fix (`Placement.silence`, found as the fix placed
    /// the train): beyond the end of the line the train was at its terminal, above ground or
    /// not as the track there.
    func observe(_ hypothesis: inout Hypothesis, _ observation: Observation) {
        guard let (start, end, duration) = observation.placement?.silence else { return }
        let model = observation.model
        let walk = hypothesis.walk
        let path = walk.distanceAhead(from: start, to: end)
        guard path > 0, !walk.isLoop || path < walk.length else { return }
        let (low, high) = walk.sign > 0 ? (start, end) : (end, start)
        let (from, to) = (max(low, 0), min(high, walk.length))
        let underground = from <= to ? model.undergroundLength(railway: hypothesis.line.railway, from: from, to: to) : 0
        hypothesis.charge(.silence, nats(duration: duration, undergroundShare: underground / max(to - from, 1)))
    }
}
