/// The phase a station has reached for one direction of travel.
enum StationPhase: Hashable, Sendable {
    case departure
    case approaching
    case visiting
    case visited
    case passed

    /// Phase state machine: only forward transitions are taken; `departure`, `visited`
    /// and `passed` are final.
    func allowsTransition(to next: StationPhase) -> Bool {
        switch (self, next) {
        case (.approaching, .visiting), (.approaching, .visited), (.approaching, .passed),
            (.visiting, .visited), (.visiting, .passed):
            true
        default:
            false
        }
    }
}

/// What one station has seen of the train in one direction: the talk's station
/// history, kept as counts and times instead of lists of fixes, so memory does not grow
/// with the length of a session.
struct StationLog: Hashable, Sendable {
    /// Fixes within the visiting radius.
    var visitingCount = 0
    /// Fixes within the approaching radius, ahead in the travel direction.
    var approachingCount = 0
    var firstVisit: Timestamp?
    var firstStoppedVisit: Timestamp?
    var lastStoppedVisit: Timestamp?
    /// The first fix after the station was left behind (for the last station: its latest visit).
    var departure: Timestamp?
    /// The latest phase in the station's phase history.
    var phase: StationPhase?

    var hasFixes: Bool { visitingCount > 0 || approachingCount > 0 }
    var isEmpty: Bool { !hasFixes && departure == nil }

    /// The phase this history implies now (step 2 of the focus station algorithm).
    func proposedPhase(isTerminal: Bool, parameters: EkiParameters) -> StationPhase? {
        switch (visitingCount > 0, approachingCount > 0, departure) {
        case (false, false, .some): return .departure
        case (false, true, nil): return .approaching
        case (true, _, nil): return .visiting
        case (true, _, .some(let departure)):
            if isTerminal { return .visited }  // the last station of a line is always visited
            if let firstStop = firstStoppedVisit, let lastStop = lastStoppedVisit,
                lastStop.seconds(since: firstStop) > parameters.stoppedDwell
            {
                return .visited  // visited vs passed: stopped > 20 s
            }
            if let firstVisit, departure.seconds(since: firstVisit) > parameters.visitedDwell {
                return .visited  // visited vs passed: within bounds > 70 s
            }
            return .passed
        case (false, true, .some):
            return .passed  // approached a neighbouring line's station but never came within reach
        case (false, false, nil):
            return nil
        }
    }
}

/// The tracker's memory of one railway in one direction.
struct LineState: Sendable {
    var stations: [StationLog]
    /// How many stations have a departure; the start-up rule applies while it is zero.
    var departedStations = 0
    /// Fixes stopped between stations (a local-line hint).
    var strayStops = 0
    /// How many stations' latest phase is `passed` (an express-line hint).
    var passedStations = 0
    /// The focus: station position in line order, and phase.
    var focus: (station: Int, phase: FocusPhase)?

    init(stationCount: Int) {
        stations = Array(repeating: StationLog(), count: stationCount)
    }
}
