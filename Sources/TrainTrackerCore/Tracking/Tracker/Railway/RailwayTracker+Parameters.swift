extension RailwayTracker {
    /// The tuning constants: the transition's, then one value per kind of evidence, each with
    /// its own constants.
    public struct Parameters: Hashable, Sendable {
        /// The Viterbi step: taking over from the leader.
        public var switching = SwitchingEvidence()
        /// Walking away from a train.
        public var leaving = LeavingEvidence()
        /// The fix against where the line's trains run.
        public var position = PositionEvidence()
        /// A fix under the sky against a line in a tunnel.
        public var tunnel = TunnelEvidence()
        /// The reported course against the track's.
        public var course = CourseEvidence()
        /// Gaps in the fixes.
        public var silence = SilenceEvidence()
        /// Backward progress between fixes.
        public var progress = ProgressEvidence()
        /// How many of the line's trains run the stretch.
        public var traffic = TrafficEvidence()
        /// Where the train is when, against the timetable.
        public var passages = PassageEvidence()
        /// Stops against the service patterns.
        public var stops = StopEvidence()
        /// Departure times against the timetable.
        public var departures = DepartureEvidence()
        /// Stations left behind, stopped at or run through, against the service patterns.
        public var crossings = CrossingEvidence()
        /// How a followed train spends its run time between stops, for arrival times.
        public var runs = RunProfile()
        /// How far an arrival time moves from the followed train's timetable towards the run
        /// the last trains with the same two stops made from there (the median of the latest
        /// few, `RecentRuns`, from an operator's feeds), as a share from 0 (the timetable alone)
        /// to 1 (that median alone).
        /// Set by hand on 2026-11-26 from `scripts/arrival-ceiling.py` on Caltrain's recording
        /// before the tracker ran with it (0.3 to 0.6 gave 86.2–86.4 % within a minute); not
        /// fitted.
        public var lastRunShare = 0.5
        /// Weight of the timetable prior in the ranking (busier lines win ties), in nats per
        /// unit of log prior; it never enters the scores.
        /// Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed
        /// 2026; the reason is not recorded.
        public var priorWeight = 0.01
        /// Fixes older than this make the answer estimated.
        /// Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed
        /// 2026; the reason is not recorded.
        public var staleAfter: Seconds = 3
        /// A service (a line's service pattern) is still possible, and listed in
        /// `TrackingResult.undecided`, while it holds at least this share of the belief.
        /// (`RailwayTracker+Undecided.swift`.)
        public var possibleShare = RailwayTracker.possibleShare
        /// Whether the line shown first is kept while the rider stands still (or walks): a new
        /// line is taken only once a train moves on it.
        public var holdsLineWhileStanding = true

        /// The defaults.
        public init() {}
    }
}

extension RailwayTracker.Parameters {
    /// Every kind of evidence, in the order each fix meets them. A new kind is a line here
    /// (and its constants a property above): the tracker then weighs every hypothesis with
    /// it, and the tuning map and the explanation's checks find it.
    func visitKinds<Visitor: EvidenceVisitor>(_ visitor: Visitor, _ subject: inout Visitor.Subject) {
        visitor.visit(position, at: \.position, &subject)
        visitor.visit(tunnel, at: \.tunnel, &subject)
        visitor.visit(course, at: \.course, &subject)
        visitor.visit(silence, at: \.silence, &subject)
        visitor.visit(progress, at: \.progress, &subject)
        visitor.visit(traffic, at: \.traffic, &subject)
        visitor.visit(passages, at: \.passages, &subject)
        visitor.visit(stops, at: \.stops, &subject)
        visitor.visit(departures, at: \.departures, &subject)
        visitor.visit(crossings, at: \.crossings, &subject)
    }

    /// Every constant that is one number, by name: for tuning runs (`evaluate --tune NAME=VALUE`).
    /// Built from the transition's constants and every kind's `tunables`.
    /// (Key paths are immutable values; the dictionary is never changed.)
    public nonisolated(unsafe) static let tunable: [String: WritableKeyPath<RailwayTracker.Parameters, Double>] = {
        var map: [String: WritableKeyPath<RailwayTracker.Parameters, Double>] = [
            "priorWeight": \.priorWeight, "staleAfter": \.staleAfter, "lastRunShare": \.lastRunShare,
            "possibleShare": \.possibleShare,
        ]
        TuningMap.add(SwitchingEvidence.self, at: \.switching, to: &map)
        TuningMap.add(LeavingEvidence.self, at: \.leaving, to: &map)
        TuningMap.add(RunProfile.self, at: \.runs, to: &map)
        RailwayTracker.Parameters().visitKinds(TuningMap(), &map)
        return map
    }()

    /// The explanation's term of every kind of evidence, in the order each fix meets them.
    static var kindTerms: [EvidenceTerm] {
        var terms: [EvidenceTerm] = []
        Self().visitKinds(TermList(), &terms)
        return terms
    }
}

/// Builds the tuning map (the subject) from every kind's `tunables`.
private struct TuningMap: EvidenceVisitor {
    typealias Map = [String: WritableKeyPath<RailwayTracker.Parameters, Double>]

    func visit<Kind: EvidenceKind>(_ kind: Kind, at path: WritableKeyPath<RailwayTracker.Parameters, Kind>, _ map: inout Map) {
        Self.add(Kind.self, at: path, to: &map)
    }

    /// Adds `Kind`'s tunables, found at `path` in the parameters; a name used twice is a
    /// programmer's error.
    static func add<Kind: Tunable>(
        _ kind: Kind.Type, at path: WritableKeyPath<RailwayTracker.Parameters, Kind>, to map: inout Map
    ) {
        for (name, constant) in Kind.tunables {
            precondition(map[name] == nil, "tuning name \(name) used twice")
            map[name] = path.appending(path: constant)
        }
    }
}

/// Lists (as the subject) every kind's term.
private struct TermList: EvidenceVisitor {
    func visit<Kind: EvidenceKind>(
        _ kind: Kind, at path: WritableKeyPath<RailwayTracker.Parameters, Kind>, _ terms: inout [EvidenceTerm]
    ) {
        terms.append(Kind.term)
    }
}
