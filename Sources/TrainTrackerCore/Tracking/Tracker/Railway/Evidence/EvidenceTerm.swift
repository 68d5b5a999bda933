/// The kinds of evidence the railway tracker weighs, each in nats of a hypothesis's score.
///
/// `RailwayTracker.explains` makes the tracker keep, per hypothesis, what each kind added at
/// the latest fix: `replay --explain` prints it, so anyone can see why the answer is what it is.
public enum EvidenceTerm: String, CaseIterable, Hashable, Sendable, Codable {
    /// Taking over from the leader at the switch cost (a Viterbi step); `max(score, leader − cost)`.
    case switching
    /// The fix's distance from where the line's trains run (drawn track plus its map offset),
    /// or the line out of reach.
    case position
    /// A fix under the sky where the line runs deep in a tunnel.
    case tunnel
    /// The reported course against the track's.
    case course
    /// Backward progress between fixes at least a span apart.
    case progress
    /// A silence the line's train would have spent above ground.
    case silence
    /// How many of the line's trains run the stretch the train is on.
    case traffic
    /// Stops and passes against the line's service patterns, and stops away from its stations.
    case stops
    /// Departure times against the day's scheduled trains.
    case departures
    /// Where the train is at a time, against where the day's scheduled trains are then.
    case passages
    /// The rider walked away from a train: every line starts afresh, less the one left.
    case leaving

    /// The terms in order, kept.
    private static let order = allCases

    /// Which share of the trip tracker's line evidence (`LineEvidence`) the term counts in,
    /// if any: what a line's stops and passes, course, and place (the fix's distance from its
    /// track, tunnels, silences) say. When trains pass (progress, traffic, departures,
    /// passages) the trip model weighs on its own, per trip and delay.
    var lineEvidence: WritableKeyPath<LineEvidence, Nats>? {
        switch self {
        case .stops: \.stops
        case .course: \.course
        case .position, .tunnel, .silence: \.place
        case .switching, .progress, .traffic, .departures, .passages, .leaving: nil
        }
    }

    /// The position of the term in `allCases`.
    public var index: Int { Self.order.firstIndex(of: self) ?? 0 }
}

/// Why a hypothesis stands where it does after a fix: its score and what each kind of
/// evidence added at that fix.
public struct EvidenceExplanation: Hashable, Sendable {
    /// The railway's id.
    public var railwayID: String
    /// The direction's name.
    public var directionName: String
    /// The score after the fix, relative to the leader (0 is the leader).
    public var score: Double
    /// Nats each term added at this fix (before the scores were set relative to the leader),
    /// in `EvidenceTerm.allCases` order, terms that added nothing left out.
    public var terms: [(term: EvidenceTerm, nats: Double)]

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.railwayID == rhs.railwayID && lhs.directionName == rhs.directionName && lhs.score == rhs.score
            && lhs.terms.map(\.term) == rhs.terms.map(\.term) && lhs.terms.map(\.nats) == rhs.terms.map(\.nats)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(railwayID)
        hasher.combine(directionName)
        hasher.combine(score)
    }
}

/// What a line's evidence said since the trip tracker last took it
/// (`RailwayTracker.takeLineEvidence()`), in nats, by kind: each trip of the line weighs it by
/// the trip model's weight for that kind (`TripModelParameters.lineStopsWeight`, ...).
struct LineEvidence: Sendable, Codable, Equatable {
    /// Stops and passes against the line's service patterns, stops away from its stations.
    var stops: Nats = 0
    /// The reported course against the track's.
    var course: Nats = 0
    /// The fix's distance from where the line's trains run, tunnels, silences.
    var place: Nats = 0
}
