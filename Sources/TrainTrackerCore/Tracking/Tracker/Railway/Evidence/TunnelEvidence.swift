/// Tunnel: a fix accurate enough to have been taken under the open sky cannot come from a train
/// deep in a tunnel. Charged like position evidence, by how much the fix counts.
public struct TunnelEvidence: Hashable, Sendable {
    /// What such a fix costs a line deep in a tunnel there, at full weight (0: off).
    /// Set by hand on 2026-11-22 with the tunnel rule, which with the traffic prior took simulated
    /// seeds 2027 and 31 from 98.8 and 98.7 % railway to 99.2 and 99.5 %; the reason is not
    /// recorded.
    public var cost: Nats = 4
    /// A fix at least this accurate was taken under the sky.
    /// Set by hand on 2026-11-22 with the tunnel rule, which with the traffic prior took simulated
    /// seeds 2027 and 31 from 98.8 and 98.7 % railway to 99.2 and 99.5 %; the reason is not
    /// recorded.
    public var skyAccuracy: Meters = 50
    /// How far inside a tunnel a track must be for such a fix to count against it (the drawn
    /// portals are approximate).
    /// Set by hand on 2026-11-22 with the tunnel rule, which with the traffic prior took simulated
    /// seeds 2027 and 31 from 98.8 and 98.7 % railway to 99.2 and 99.5 %; the reason is not
    /// recorded.
    public var portalMargin: Meters = 150

    /// The defaults.
    public init() {}

    /// Whether a fix of `accuracy` rules out a train `depth` metres inside a tunnel.
    public func rulesOut(accuracy: Meters, depth: Meters) -> Bool {
        cost > 0 && accuracy <= skyAccuracy && depth > portalMargin
    }

    /// Nats for a ruled-out line, for a fix counted `fixWeight` times.
    public func nats(fixWeight: Double) -> Nats {
        -fixWeight * cost
    }
}

extension TunnelEvidence: EvidenceKind {
    static let term = EvidenceTerm.tunnel
    static var tunables: [String: WritableKeyPath<Self, Double>] {
        [
            "tunnelCost": \.cost, "skyAccuracy": \.skyAccuracy, "portalMargin": \.portalMargin,
        ]
    }

    /// Charges a fix under the sky against a line placed deep in a tunnel (`Reach.underground`).
    func observe(_ hypothesis: inout Hypothesis, _ observation: Observation) {
        guard let placement = observation.placement, placement.reach.underground else { return }
        hypothesis.charge(.tunnel, nats(fixWeight: observation.fix.weight))
    }
}
