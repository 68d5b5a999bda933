import RealModule

/// Position: how far the fix lies from where the line's trains run (its drawn track plus the
/// line's learnt `LateralOffset`), in sigmas of the fix's error and the offset's uncertainty.
///
/// Huber-shaped: quadratic near the track, linear beyond one sigma, so a stretch of correlated
/// error does not swing the evidence between two close tracks; capped, so one far-off fix cannot
/// decide. Weighted per second of riding, not per fix: a fix speaks for the seconds since the
/// previous one (up to the phone's error memory), and counts less while the train stands or
/// crawls (its fixes then say little about which track it is on).
public struct PositionEvidence: Hashable, Sendable {
    /// The most a single fix's distance can cost.
    /// Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.
    public var cap: Nats = 6
    /// Nats per second of riding at one sigma beyond the Huber knee, as a share of an
    /// independent measurement: phone errors are correlated over several seconds, so
    /// consecutive fixes say less than their count suggests.
    /// Set by hand on 2026-11-22 with the first default tracker (seed 2026) and kept when evidence
    /// became per second of riding (seed 307, 2026-11-23); the reason for 0.25 is not recorded.
    public var weight = 0.25
    /// A fix speaks for the seconds since the previous one, up to this many: beyond the
    /// phone's error memory, a sparse fix is one independent measurement, not more.
    /// Set by hand on 2026-11-23 as a phone's error memory, on simulated seed 307, checked on seed
    /// 401.
    public var memory: Seconds = 10
    /// Added (in quadrature) to the reported accuracy: the drawn track's own error.
    /// Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.
    public var trackUncertainty: Meters = 10
    /// How far to one side of its drawn track a line's trains may run (one sigma of
    /// `LateralOffset`): maps draw a corridor's lines metres to tens of metres off.
    /// Set by hand on 2026-11-23 and tuned on simulated seed 307, checked on seed 401.
    public var mapOffsetSpread: Meters = 20
    /// Over how much travel that offset changes.
    /// Set by hand on 2026-11-23 and tuned on simulated seed 307, checked on seed 401.
    public var mapOffsetLength: Meters = 3_000
    /// How much of an independent measurement one second of fixes is to the offset's estimate:
    /// slow learning keeps an exact map's evidence, fast learning forgives a poor map.
    /// Set by hand on 2026-11-23 and tuned on simulated seed 307, checked on seed 401.
    public var mapOffsetLearning = 0.02
    /// The speed at which a fix counts in full; slower, it counts in proportion ...
    /// (Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.)
    public static let fullWeightSpeed: MetersPerSecond = 8
    /// ... but never less than this share while moving,
    /// (Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.)
    public static let slowestShare = 0.15
    /// ... and this share while stopped.
    /// Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.
    public static let stoppedShare = 0.1
    /// A fix farther than this many sigmas from the line says nothing about its offset.
    /// Set by hand on 2026-11-23 with the map offset, on simulated seed 307; the reason for 3
    /// sigmas is not recorded.
    public static let offsetGate = 3.0

    /// The defaults.
    public init() {}

    /// A fix's accuracy when the phone gives none.
    /// Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.
    public static let assumedAccuracy: Meters = 30
    /// A reported accuracy is taken within these bounds.
    /// Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.
    public static let accuracyBounds: ClosedRange<Meters> = 5...3_000
    /// Search radius: this many sigmas ...
    /// (Set by hand, 2026-11-22: beyond about seven sigma the cost is capped anyway.)
    static let searchSigmas = 8.0
    /// ... within these bounds.
    /// Set by hand on 2026-11-22; the reason for these bounds is not recorded.
    static let searchRadiusBounds: ClosedRange<Meters> = 150...1_500

    /// The reported accuracy as a domain value: `assumedAccuracy` when the phone gives none
    /// (or not a number), within `accuracyBounds`.
    public static func accuracy(reported: Meters?) -> Meters {
        guard let reported, !reported.isNaN else { return assumedAccuracy }
        return min(max(reported, accuracyBounds.lowerBound), accuracyBounds.upperBound)
    }

    /// The fix's error against the drawn track: its accuracy and the track's own uncertainty.
    public func sigma(accuracy: Meters) -> Meters {
        (accuracy * accuracy + trackUncertainty * trackUncertainty).squareRoot()
    }

    /// How far to look for lines: beyond about seven sigma the cost is capped anyway.
    public func searchRadius(sigma: Meters) -> Meters {
        min(max(Self.searchSigmas * sigma, Self.searchRadiusBounds.lowerBound), Self.searchRadiusBounds.upperBound)
    }

    /// The seconds a fix speaks for, `sinceLast` after the previous one (nil for the first fix).
    public func span(sinceLast: Seconds?) -> Seconds {
        sinceLast.map { min($0, memory) } ?? 1
    }

    /// How much a fix counts, for a `span` of riding at `speed` (0 if `stopped`).
    public func fixWeight(span: Seconds, speed: MetersPerSecond, stopped: Bool) -> Double {
        weight * span * (stopped ? Self.stoppedShare : min(1, max(Self.slowestShare, speed / Self.fullWeightSpeed)))
    }

    /// Nats for a fix `z` sigmas from where the line's trains run, counted `fixWeight` times.
    public func nats(z: Double, fixWeight: Double) -> Nats {
        -min(fixWeight * min(z <= 1 ? 0.5 * z * z : z - 0.5, cap), cap)
    }

    /// Nats for a fix with the line out of reach.
    public func outOfReach(fixWeight: Double) -> Nats {
        -min(fixWeight * cap, cap)
    }

    /// How much of each line's map offset carries over `distance` metres of travel.
    public func offsetKept(over distance: Meters) -> Double {
        Double.exp(-distance / max(mapOffsetLength, 1))
    }

    /// How much of an independent measurement a fix speaking for `span` seconds is to the offset.
    public func offsetLearning(span: Seconds) -> Double {
        min(1, mapOffsetLearning * span)
    }
}

extension PositionEvidence: EvidenceKind {
    static let term = EvidenceTerm.position
    static var tunables: [String: WritableKeyPath<Self, Double>] {
        [
            "positionCap": \.cap, "positionWeight": \.weight, "positionMemory": \.memory, "trackUncertainty": \.trackUncertainty,
            "mapOffsetSpread": \.mapOffsetSpread, "mapOffsetLength": \.mapOffsetLength, "mapOffsetLearning": \.mapOffsetLearning,
        ]
    }

    /// Charges the fix's distance from where the line's trains run, in sigmas (the placement's
    /// `z`), or the line out of reach.
    func observe(_ hypothesis: inout Hypothesis, _ observation: Observation) {
        let fixWeight = observation.fix.weight
        guard let placement = observation.placement else {
            hypothesis.charge(.position, outOfReach(fixWeight: fixWeight))
            return
        }
        hypothesis.charge(.position, nats(z: placement.z, fixWeight: fixWeight))
    }
}
