/// What the rider is shown about the focus station: "Next: S", "Soon: S" or "Now: S".
public enum FocusPhase: String, Hashable, Sendable, Codable, CaseIterable {
    /// The train is on its way to the station.
    case next
    /// The train is approaching the station.
    case soon
    /// The train is at the station.
    case now

    /// The label shown to a rider, `Next`, `Soon` or `Now`.
    public var label: String {
        switch self {
        case .next: "Next"
        case .soon: "Soon"
        case .now: "Now"
        }
    }
}

/// One railway and direction the rider may be on, with the station to show.
public struct TrackingCandidate: Hashable, Sendable {
    /// The railway's id.
    public var railwayID: String
    /// The direction of travel.
    public var direction: TravelDirection
    /// The direction's name, e.g. `Outbound`.
    public var directionName: String
    /// The last station in the direction of travel; `nil` on a loop line.
    public var destinationStationID: String?
    /// The station the rider should see.
    public var focusStationID: String
    /// Whether the focus station is next, soon or now.
    public var phase: FocusPhase
    /// Up to two stations after the focus station, in travel order.
    public var laterStationIDs: [String]
    /// The next station the train stops at, for algorithms that know the stopping pattern;
    /// `nil` otherwise (the published algorithm knows stations, not stops).
    public var nextStopID: String?
    /// The ranking score, higher is more likely.
    public var score: Double

    /// Creates a candidate.
    public init(
        railwayID: String, direction: TravelDirection, directionName: String, destinationStationID: String?,
        focusStationID: String, phase: FocusPhase, laterStationIDs: [String], score: Double, nextStopID: String? = nil
    ) {
        self.railwayID = railwayID
        self.direction = direction
        self.directionName = directionName
        self.destinationStationID = destinationStationID
        self.focusStationID = focusStationID
        self.phase = phase
        self.laterStationIDs = laterStationIDs
        self.score = score
        self.nextStopID = nextStopID
    }
}

/// The tracker's answer for one fix: candidates ranked best first, empty while it has no answer.
public struct TrackingResult: Hashable, Sendable {
    /// Ranked candidates, best first.
    public var candidates: [TrackingCandidate]

    /// Creates a result.
    public init(candidates: [TrackingCandidate]) {
        self.candidates = candidates
    }

    /// The best candidate, if any.
    public var best: TrackingCandidate? { candidates.first }
}

/// A tracking algorithm: a value fed fixes one at a time, in timestamp order.
public protocol TrackingAlgorithm: Sendable {
    /// Takes the next fix and returns the answer after it.
    mutating func process(_ location: Location) -> TrackingResult
}

/// The tracking algorithms a user can choose by name.
public enum TrackingAlgorithmName: String, Hashable, Sendable, CaseIterable, Codable {
    /// The published Eki Live algorithm, as a baseline.
    case eki

    /// A fresh tracker of this kind over `network`.
    public func makeTracker(network: RailwayNetwork) -> any TrackingAlgorithm {
        switch self {
        case .eki: EkiTracker(network: network)
        }
    }
}
