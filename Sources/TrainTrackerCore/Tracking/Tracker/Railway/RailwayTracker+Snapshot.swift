extension RailwayTracker {
    /// Everything a tracker has learnt from its fixes, to save when the system suspends the
    /// app and to restore when it is woken: a tracker restored from it answers exactly as the
    /// one it was taken from (`RailwayTracker(model:parameters:restoring:)`). It holds no
    /// network: it is restored onto the same `TrackerModel`. A few kilobytes per rider.
    ///
    ///     let saved = try JSONEncoder().encode(tracker.snapshot())
    ///     // ... later, in a new process:
    ///     let snapshot = try JSONDecoder().decode(RailwayTracker.Snapshot.self, from: saved)
    ///     var tracker = try RailwayTracker(model: model, restoring: snapshot)
    ///
    /// Scores may be infinite: encode with a strategy for non-finite numbers (JSON has none;
    /// `JSONEncoder.nonConformingFloatEncodingStrategy`), or with a property-list encoder.
    public struct Snapshot: Codable, Sendable {
        /// The form's version; a snapshot of another is refused. (8: the motion state keeps where
        /// a phone that measures speed stands; 7: a hypothesis keeps the
        /// evidence the trip tracker has not yet taken; 6: the motion state keeps the
        /// last fix that saw the train stand; 5: the motion state keeps the last fix that held a
        /// stop, a hypothesis's stops how long before the fix the train moved off; 4: the motion
        /// state keeps where a stop seen without speeds stands; 3: each kind of evidence keeps its state in
        /// a struct of its own on the hypothesis; 2: a followed train's service day origin is in
        /// UTC, by the zone's rules; version 1 held local midnight.)
        static let currentVersion = 8
        var version = Self.currentVersion
        /// Railways and stations of the network it was taken on: a snapshot from another is refused.
        var stationCounts: [Int]
        var hypotheses: [Hypothesis]
        var near: [Reach]
        var nearestEdges: [Int32]
        var motion: MotionState
        var lastFix: Location?
        var lastSpeed: MetersPerSecond
        var cadence: PhoneCadence
        var leaderLine: LineDirection?
        var shownLine: LineDirection?
        var explains: Bool
        /// Wild fixes left out, awaiting confirmation (absent in snapshots of earlier builds).
        var wildFixes: [Location]?
    }
}

extension RailwayTracker.Snapshot {

    /// The snapshot saved in `decoder`, its version read first: a snapshot of another
    /// version is refused with a `SnapshotError` naming both versions, before the decoder
    /// meets a field of the old form it does not know.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .version)
        guard version == Self.currentVersion else {
            throw RailwayTracker.SnapshotError(problem: "version \(version), this build restores \(Self.currentVersion)")
        }
        self.init(
            stationCounts: try container.decode([Int].self, forKey: .stationCounts),
            hypotheses: try container.decode([Hypothesis].self, forKey: .hypotheses),
            near: try container.decode([RailwayTracker.Reach].self, forKey: .near),
            nearestEdges: try container.decode([Int32].self, forKey: .nearestEdges),
            motion: try container.decode(MotionState.self, forKey: .motion),
            lastFix: try container.decodeIfPresent(Location.self, forKey: .lastFix),
            lastSpeed: try container.decode(MetersPerSecond.self, forKey: .lastSpeed),
            cadence: try container.decode(PhoneCadence.self, forKey: .cadence),
            leaderLine: try container.decodeIfPresent(LineDirection.self, forKey: .leaderLine),
            shownLine: try container.decodeIfPresent(LineDirection.self, forKey: .shownLine),
            explains: try container.decode(Bool.self, forKey: .explains),
            wildFixes: try container.decodeIfPresent([Location].self, forKey: .wildFixes))
    }
}

extension RailwayTracker {
    /// Why a snapshot cannot be restored onto a model: it describes another network or
    /// another version, or it was damaged (a snapshot read from disk is outside input).
    public struct SnapshotError: Error, Equatable, CustomStringConvertible {
        /// What is wrong, e.g. `hypothesis 3: station 40 of a railway with 12`.
        public var problem: String
        /// `problem`.
        public var description: String { problem }
    }

    /// The tracker's state now.
    public func snapshot() -> Snapshot {
        Snapshot(
            stationCounts: model.network.railways.map(\.stationIDs.count), hypotheses: hypotheses, near: near,
            nearestEdges: nearestEdges, motion: motion, lastFix: lastFix, lastSpeed: lastSpeed, cadence: cadence,
            leaderLine: leaderLine, shownLine: shownLine, explains: explains, wildFixes: wildFixes)
    }

    /// The tracker `snapshot` was taken of, on `model` (which must be the network it was
    /// taken on) with `parameters`.
    ///
    /// - Throws: `SnapshotError` when the snapshot is of another version or network, or
    ///   refers to a railway, station, track edge or trip the model does not have.
    public init(model: TrackerModel, parameters: Parameters = Parameters(), restoring snapshot: Snapshot)
        throws(SnapshotError)
    {
        self.init(model: model, parameters: parameters)
        try Self.check(snapshot, model: model)
        hypotheses = snapshot.hypotheses
        for (index, hypothesis) in hypotheses.enumerated() { slots[line: hypothesis.line] = Int32(index) }
        near = snapshot.near
        for (index, item) in near.enumerated() { nearSlot[item.railway] = Int32(index) }
        nearestEdges = snapshot.nearestEdges
        motion = snapshot.motion
        lastFix = snapshot.lastFix
        lastSpeed = snapshot.lastSpeed
        cadence = snapshot.cadence
        leaderLine = snapshot.leaderLine
        shownLine = snapshot.shownLine
        explains = snapshot.explains
        wildFixes = snapshot.wildFixes ?? []
    }

    /// Every index the snapshot holds, against the model.
    private static func check(_ snapshot: Snapshot, model: TrackerModel) throws(SnapshotError) {
        let railways = model.network.railways
        guard snapshot.version == Snapshot.currentVersion else {
            throw SnapshotError(problem: "version \(snapshot.version), this build restores \(Snapshot.currentVersion)")
        }
        guard snapshot.stationCounts == railways.map(\.stationIDs.count) else {
            throw SnapshotError(problem: "taken on another network")
        }
        guard (snapshot.wildFixes?.count ?? 0) < jumpConfirmations else {
            throw SnapshotError(problem: "\(snapshot.wildFixes?.count ?? 0) wild fixes held, at most \(jumpConfirmations - 1)")
        }
        let lines = 0..<(railways.count * 2)
        var seen = Set<Int>()
        for line in [snapshot.leaderLine, snapshot.shownLine].compactMap(\.self) where !lines.contains(line.index) {
            throw SnapshotError(problem: "line \(line.index) of \(lines.count)")
        }
        for (index, hypothesis) in snapshot.hypotheses.enumerated() {
            let line = hypothesis.line
            guard lines.contains(line.index), seen.insert(line.index).inserted else {
                throw SnapshotError(problem: "hypothesis \(index): line \(line.index) of \(lines.count), or twice")
            }
            try check(hypothesis, model: model, index: index)
        }
        guard snapshot.nearestEdges.count == railways.count else {
            throw SnapshotError(problem: "\(snapshot.nearestEdges.count) nearest edges for \(railways.count) railways")
        }
        for (railway, edge) in snapshot.nearestEdges.enumerated() {
            let edges = railways[railway].track.polyline.coordinates.count - 1
            guard edge >= -1, edge < edges else { throw SnapshotError(problem: "railway \(railway): edge \(edge) of \(edges)") }
        }
        var nearRailways = Set<Int>()
        for item in snapshot.near {
            guard railways.indices.contains(item.railway), nearRailways.insert(item.railway).inserted else {
                throw SnapshotError(problem: "railway \(item.railway) in reach, of \(railways.count), or twice")
            }
        }
    }

    /// A hypothesis's stations, patterns, trips and walk, against the model.
    private static func check(_ hypothesis: Hypothesis, model: TrackerModel, index: Int) throws(SnapshotError) {
        let line = hypothesis.line
        let railway = model.network.railways[line.railway]
        let stations = railway.stationIDs.count
        let problem: String? =
            if hypothesis.walk != TrackWalk(railway: railway, direction: line.direction) {
                "its walk is not its railway's"
            } else if hypothesis.patterns.weights.count != model.patterns[line: line].count {
                "\(hypothesis.patterns.weights.count) pattern weights for \(model.patterns[line: line].count) patterns"
            } else if hypothesis.patterns.stopChance.count != stations {
                "\(hypothesis.patterns.stopChance.count) stop chances for \(stations) stations"
            } else if let station = hypothesis.stops.pending.map(\.station).first(where: { !(0..<stations).contains($0) }) {
                "station \(station) of a railway with \(stations)"
            } else if let trip = hypothesis.trains.trips.map(\.trip).first(where: {
                !(0..<model.trips[line: line].count).contains(Int($0))
            }) {
                "trip \(trip) of \(model.trips[line: line].count)"
            } else if let evidence = hypothesis.evidence, evidence.count != EvidenceTerm.allCases.count {
                "\(evidence.count) evidence terms for \(EvidenceTerm.allCases.count)"
            } else {
                nil
            }
        if let problem { throw SnapshotError(problem: "hypothesis \(index): \(problem)") }
    }
}
