import TrainTrackerCore

/// A recording session of the Eki session schema.
public struct Session: Hashable, Sendable {
    /// A UUID string.
    public var id: String
    /// When recording started.
    public var startDate: Timestamp
    /// When recording ended, if it did.
    public var endDate: Timestamp?
    /// Free text.
    public var notes: String?
    /// Whether the app was launched from cold for this session.
    public var isFromColdLaunch: Bool
    /// Whether the rider marked the session as on a train.
    public var isOnTrain: Bool

    /// Creates a session.
    public init(
        id: String, startDate: Timestamp, endDate: Timestamp? = nil, notes: String? = nil,
        isFromColdLaunch: Bool = false, isOnTrain: Bool = false
    ) {
        self.id = id
        self.startDate = startDate
        self.endDate = endDate
        self.notes = notes
        self.isFromColdLaunch = isFromColdLaunch
        self.isOnTrain = isOnTrain
    }
}

/// A session with the extent of its fixes, as `traintracker sessions` lists it.
public struct SessionSummary: Hashable, Sendable {
    /// The session.
    public var session: Session
    /// How many fixes are stored for it.
    public var locationCount: Int
    /// Seconds from the start date to the end date, or to the last fix when it has no end date.
    public var duration: Seconds?
    /// Seconds from the first fix to the last, by the phone's clock alone; `nil` without fixes.
    public var fixSpan: Seconds?

    /// A summary of `session`; `first` and `last` are its first and last fix times.
    public init(session: Session, locationCount: Int, first: Timestamp?, last: Timestamp?) {
        self.session = session
        self.locationCount = locationCount
        duration = (session.endDate ?? last).map { $0.seconds(since: session.startDate) }
        fixSpan = last.flatMap { last in first.map { last.seconds(since: $0) } }
    }
}

/// How confident Core Motion was of an activity.
public enum MotionConfidence: String, Hashable, Sendable, CaseIterable {
    /// Core Motion's `low`, `medium` and `high`.
    case low, medium, high
}

/// A motion activity sample of the Eki session schema (`motionActivities`).
public struct MotionActivity: Hashable, Sendable {
    /// A UUID string.
    public var id: String
    /// When the activity started.
    public var startDate: Timestamp
    /// Core Motion's confidence.
    public var confidence: MotionConfidence
    /// The device was not moving.
    public var stationary: Bool
    /// The user was walking.
    public var walking: Bool
    /// The user was running.
    public var running: Bool
    /// The user was in a vehicle (trains count here).
    public var automotive: Bool
    /// The user was cycling.
    public var cycling: Bool
    /// Core Motion could not tell.
    public var unknown: Bool
    /// The session it belongs to, if any.
    public var sessionID: String?

    /// Creates a motion activity sample.
    public init(
        id: String, startDate: Timestamp, confidence: MotionConfidence, stationary: Bool = false, walking: Bool = false,
        running: Bool = false, automotive: Bool = false, cycling: Bool = false, unknown: Bool = false, sessionID: String?
    ) {
        self.id = id
        self.startDate = startDate
        self.confidence = confidence
        self.stationary = stationary
        self.walking = walking
        self.running = running
        self.automotive = automotive
        self.cycling = cycling
        self.unknown = unknown
        self.sessionID = sessionID
    }
}
