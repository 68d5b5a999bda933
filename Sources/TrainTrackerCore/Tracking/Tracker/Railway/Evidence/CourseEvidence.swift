import RealModule

/// Course: the phone's reported course against the track's, for the direction the hypothesis
/// travels. `weight × (cos θ − 1)`: nothing when they agree, `−weight` at 90°, `−2 weight` at
/// a reversal. Near a vertex of the drawn track (junctions and terminals kink) the neighbouring
/// edges' courses count too, the best agreement winning, but never so as to hide a reversal.
public struct CourseEvidence: Hashable, Sendable {
    /// What 90° between the course and the track costs.
    /// Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.
    public var weight: Nats = 1.5
    /// Below this speed a phone's course is noise.
    /// Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.
    public var minimumSpeed: MetersPerSecond = 2
    /// Agreement (a cosine) below which the neighbouring edges are asked too.
    /// Set by hand on 2026-11-22 for seed 47's one unlocked ride, at a kink of the Sobu Rapid's
    /// drawn track at Chiba; the reason for 0.9 is not recorded.
    static let kinkAgreement = 0.9

    /// The defaults.
    public init() {}

    /// Nats for a fix reporting `course` at `speed`, on a track of course `trackCourse` there
    /// (`reversed` when the hypothesis runs against the track's drawn direction);
    /// `neighbours` gives the courses of the edges either side. Nil when the fix says nothing.
    public func nats(
        course: Degrees?, speed: MetersPerSecond, trackCourse: Degrees, reversed: Bool, neighbours: () -> [Degrees]
    ) -> Nats? {
        guard let course, speed > minimumSpeed else { return nil }
        let flip: Degrees = reversed ? 180 : 0
        var cosine = Double.cos((course - trackCourse - flip) * .pi / 180)
        // A reversal is the other direction's evidence, not a kink.
        if cosine < Self.kinkAgreement, cosine > -Self.kinkAgreement {
            for other in neighbours() {
                cosine = max(cosine, Double.cos((course - other - flip) * .pi / 180))
            }
        }
        return weight * (cosine - 1)
    }
}

extension CourseEvidence: EvidenceKind {
    static let term = EvidenceTerm.course
    static var tunables: [String: WritableKeyPath<Self, Double>] {
        ["courseWeight": \.weight, "courseMinimumSpeed": \.minimumSpeed]
    }

    /// Charges the fix's course against the track's where the fix places the train.
    func observe(_ hypothesis: inout Hypothesis, _ observation: Observation) {
        guard let placement = observation.placement else { return }
        let fix = observation.fix
        let railway = hypothesis.line.railway
        let nats = nats(
            course: fix.location.course, speed: fix.speed, trackCourse: placement.reach.course,
            reversed: !(hypothesis.walk.sign > 0)
        ) {
            let polyline = observation.model.network.trackPolylines[railway]
            return [placement.edge - 1, placement.edge + 1].compactMap { polyline.course(ofEdge: $0, projection: fix.projection) }
        }
        if let nats { hypothesis.charge(.course, nats) }
    }
}
