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
    /// Up to two stations after the focus station, in travel order (the default algorithm
    /// gives them for its best candidate only).
    public var laterStationIDs: [String]
    /// The next station the train stops at, for algorithms that know the stopping pattern;
    /// `nil` otherwise (the published algorithm knows stations, not stops), and while the
    /// services still possible (`TrackingResult.undecided`) do not all stop next at one station.
    public var nextStopID: String?
    /// The expected arrival at `nextStopID`.
    public var eta: Timestamp?
    /// The train type (`TrainType.id`) the stops so far point to, if the timetable tells.
    public var trainTypeID: String?
    /// How sure the algorithm is of this candidate, 0 ... 1.
    public var confidence: Double?
    /// The scheduled train the tracker believes the rider is on (the timetable's id: a GTFS
    /// `trip_id`, a mini-tokyo-3d train id), for the best candidate with timetables.
    public var trainID: String?
    /// The same train as riders know it: its number (GTFS `trip_short_name`), else its id.
    public var train: String?
    /// How late that train runs, in seconds (negative: early), as its times here have shown.
    public var delaySeconds: Seconds?
    /// The ranking score, higher is more likely.
    public var score: Double
    /// The predicted arrivals at the stops ahead, next first, to the end of the believed
    /// trip (the default tracker's first candidate, when it follows a trip; else empty).
    public var arrivals: [PredictedArrival] = []
    /// How late the believed train runs now, as percentiles of the trip model's belief (the
    /// default tracker's first candidate, when it follows a trip).
    public var delayPercentiles: DelayPercentiles?

    /// Creates a candidate.
    public init(
        railwayID: String, direction: TravelDirection, directionName: String, destinationStationID: String?,
        focusStationID: String, phase: FocusPhase, laterStationIDs: [String], score: Double, nextStopID: String? = nil,
        eta: Timestamp? = nil, trainTypeID: String? = nil, confidence: Double? = nil, trainID: String? = nil,
        train: String? = nil, delaySeconds: Seconds? = nil
    ) {
        self.trainID = trainID
        self.train = train
        self.delaySeconds = delaySeconds
        self.railwayID = railwayID
        self.direction = direction
        self.directionName = directionName
        self.destinationStationID = destinationStationID
        self.focusStationID = focusStationID
        self.phase = phase
        self.laterStationIDs = laterStationIDs
        self.score = score
        self.nextStopID = nextStopID
        self.eta = eta
        self.trainTypeID = trainTypeID
        self.confidence = confidence
    }
}

/// The tracker's answer for one fix: candidates ranked best first, empty while it has no answer.
public struct TrackingResult: Hashable, Sendable {
    /// Ranked candidates, best first.
    public var candidates: [TrackingCandidate]
    /// Whether the answer is dead-reckoned (no recent fix) rather than measured.
    public var estimated: Bool
    /// The services the train may still be, most likely first, while more than one is
    /// possible (the stops so far have not told them apart); empty once one is left. While it
    /// is not empty, the best candidate's `nextStopID` is a stop every one of them makes next,
    /// or `nil` when they disagree: show its `focusStationID` as the next *station* then, not
    /// as a stop. (The default and the railway tracker; other algorithms leave it empty.)
    public var undecided: [PossibleService] = []

    /// Creates a result.
    public init(candidates: [TrackingCandidate], estimated: Bool = false, undecided: [PossibleService] = []) {
        self.candidates = candidates
        self.estimated = estimated
        self.undecided = undecided
    }

    /// The best candidate, if any.
    public var best: TrackingCandidate? { candidates.first }
}

/// A tracking algorithm: a value fed fixes one at a time, in timestamp order.
public protocol TrackingAlgorithm: Sendable {
    /// Takes the next fix and returns the answer after it.
    mutating func process(_ location: Location) -> TrackingResult
}

/// A tracker that can say why it answers: the railway tracker's hypotheses and what each
/// kind of evidence added to them (`RailwayTracker`, and `TripTracker` over it).
public protocol ExplainingTracker: TrackingAlgorithm {
    /// Whether the tracker keeps its evidence for `explanation(limit:)`.
    var explains: Bool { get set }
    /// The leading hypotheses and why, the leader first.
    func explanation(limit: Int) -> [EvidenceExplanation]
}

extension RailwayTracker: ExplainingTracker {}
extension TripTracker: ExplainingTracker {}

/// The tracking algorithms a user can choose by name: TrainTracker's tracker, and the
/// baselines it is measured against.
public enum TrackingAlgorithmName: String, Hashable, Sendable, CaseIterable, Codable {
    /// TrainTracker's tracker (`TripTracker`): where the day's timetable is known, the rider
    /// is on one scheduled trip whose delay drifts, weighed by its timing, its place and what
    /// the railway tracker reads of its line (stops, passes, course); without a timetable, or
    /// on a train the timetable lacks, the railway tracker's answer.
    case `default`
    /// The railway tracker alone (`RailwayTracker`), a baseline: an online Viterbi over railway
    /// and direction with stop pattern evidence, timetables, dead reckoning and a confidence.
    case railway
    /// The published Eki Live algorithm, as a baseline.
    case eki
    /// The plain schedule matcher (`ScheduleMatcher`): the trip whose timetable fits the fixes'
    /// times best, a baseline that knows nothing else.
    case schedule

    /// The algorithm named `name`: a case's raw value, or `trips`, the default's name before
    /// it became the default (0.16.0).
    public init?(named name: String) {
        if name == "trips" {
            self = .default
        } else {
            self.init(rawValue: name)
        }
    }

    /// A fresh tracker of this kind over `model`; the default with the trip model's constants
    /// `trips` (the defaults: the fit on Caltrain's shared days).
    public func makeTracker(model: TrackerModel, trips: TripModelParameters = .init()) -> any TrackingAlgorithm {
        switch self {
        case .default: TripTracker(model: model, trips: trips)
        case .railway: RailwayTracker(model: model)
        case .eki: EkiTracker(network: model.network)
        case .schedule: ScheduleMatcher(model: model)
        }
    }

    /// A fresh tracker of this kind over `model`, told the latest of `feeds` at each fix (the
    /// default and the railway tracker; the baselines ignore feeds).
    public func makeTracker(model: TrackerModel, feeds: LiveFeeds?, trips: TripModelParameters = .init())
        -> any TrackingAlgorithm
    {
        guard let feeds else { return makeTracker(model: model, trips: trips) }
        switch self {
        case .default: return LiveTracker(TripTracker(model: model, trips: trips), feeds: feeds)
        case .railway: return LiveTracker(RailwayTracker(model: model), feeds: feeds)
        case .eki, .schedule: return makeTracker(model: model, trips: trips)
        }
    }

    /// Whether the algorithm uses timetables when they are available.
    public var usesTimetables: Bool { self != .eki }

    /// A fresh tracker of this kind over `network`, without timetables.
    public func makeTracker(network: RailwayNetwork) -> any TrackingAlgorithm {
        makeTracker(model: TrackerModel(dataset: TransitDataset(network: network)))
    }
}
