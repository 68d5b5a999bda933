import TrainTrackerCore

/// The tracker's answer after one fix.
public struct TimedAnswer: Sendable {
    /// The fix's time.
    public var time: Timestamp
    /// Where the fix put the phone.
    public var coordinate: Coordinate
    /// The answer.
    public var result: TrackingResult

    /// The answer `result` to `fix`.
    public init(fix: Location, result: TrackingResult) {
        self.time = fix.timestamp
        self.coordinate = fix.coordinate
        self.result = result
    }
}

/// One recorded session replayed through a tracker: its answers in time order.
public struct AnsweredSession: Sendable {
    /// The session's id.
    public var id: String
    /// The answers, one per fix, in time order.
    public var answers: [TimedAnswer]

    /// A session's answers (sorted by time here).
    public init(id: String, answers: [TimedAnswer]) {
        self.id = id
        self.answers = answers.sorted { $0.time < $1.time }
    }
}

/// How the tracker did at one logged departure or arrival.
public struct LoggedEventScore: Hashable, Sendable, Codable {
    /// When the rider logged it.
    public var time: Timestamp
    /// Departure or arrival.
    public var kind: RiderLogEvent.Kind
    /// The place as logged.
    public var place: String
    /// Where the event is in its file (`line 4`).
    public var source: String
    /// The session whose fixes cover it, if any.
    public var sessionID: String?
    /// What the log says: `Toyoko Line Outbound` for a departure, `Kikuna` for an arrival.
    public var expected: String
    /// What the tracker said most often in the window: a line and direction, or a next stop.
    public var said: String
    /// Answers in the window, and those that agree with the log.
    public var answers: Int
    public var agreeing: Int
    /// Whether more than half the answers agree; `nil` when the event is not scored.
    public var right: Bool?
    /// Arrivals: seconds from the logged arrival to the first "Now" at its station (negative:
    /// said before); `nil` when it never said so, or for a departure.
    public var nowOffset: Seconds?
    /// Why the event is not scored.
    public var unscoredReason: String?
}

/// The scores of a log summed up for one tracker.
public struct RiderLogSummary: Hashable, Sendable, Codable {
    /// Departures scored, and those where the tracker named the logged line and direction.
    public var departures = 0
    public var departuresRight = 0
    /// Arrivals scored, and those whose station was the tracker's next stop.
    public var arrivals = 0
    public var arrivalsRight = 0
    /// Arrivals at which the tracker said "Now" at the station.
    public var saidNow = 0
    /// The median and the worst (largest in size, with its sign) "Now" offset.
    public var medianNowOffset: Seconds?
    public var worstNowOffset: Seconds?
    /// Departures and arrivals that could not be scored.
    public var unscored = 0

    /// Sums `scores`.
    public init(scores: [LoggedEventScore]) {
        for score in scores {
            guard let right = score.right else {
                unscored += 1
                continue
            }
            if score.kind == .departure {
                departures += 1
                if right { departuresRight += 1 }
            } else {
                arrivals += 1
                if right { arrivalsRight += 1 }
            }
        }
        let offsets = scores.compactMap(\.nowOffset)
        saidNow = offsets.count
        medianNowOffset = offsets.median
        worstNowOffset = offsets.max { abs($0) < abs($1) }
    }
}

/// Scores a tracker's answers against a rider's log of departures and arrivals.
///
/// A departure is right when most answers from 30 to 120 s after it (or until the next
/// logged arrival, if sooner) name the logged line and direction. A departure without a line
/// takes the previous departure's line when that serves it and the next arrival, else any
/// line that serves both; without a direction, the way to the next arrival.
///
/// An arrival is right when most answers in the leg before it, from 30 s after the previous
/// logged departure (or from 120 s before the arrival when the log has no departure just
/// before it) to the arrival, give its station as the next stop (the focus station for
/// algorithms that know no stops). Its "Now" offset is the time from the logged arrival to
/// the first answer "Now: <that station>" from the leg's start to 120 s after the arrival.
public struct RiderLogScorer: Sendable {
    /// Answers scored after a departure, in seconds from it.
    public var departureWindow: ClosedRange<Seconds> = 30...120
    /// The leg before an arrival starts this long after the previous departure.
    public var legStartAfterDeparture: Seconds = 30
    /// ... or, without a logged departure, this long before the arrival.
    public var approach: Seconds = 120
    /// "Now" is looked for until this long after the arrival.
    public var nowSearchAfterArrival: Seconds = 120
    /// A session covers an event within this long of its first or last fix.
    public var sessionMargin: Seconds = 60

    /// The reason given for an event no session covers.
    public static let uncovered = "no session's fixes cover this time"

    /// Finds the logged places in the network.
    public let resolver: LoggedPlaceResolver

    /// A scorer over `network`, with the windows above.
    public init(network: RailwayNetwork) {
        resolver = LoggedPlaceResolver(network: network)
    }

    /// Scores every departure and arrival of `events` (in any order; other events are left
    /// out) against the answers of the session whose fixes cover it.
    ///
    /// - Complexity: O(e · (log a + w)) for e events, a answers per session and w answers
    ///   per window, plus name look-ups.
    public func score(events: [RiderLogEvent], sessions: [AnsweredSession]) -> [LoggedEventScore] {
        let train = events.enumerated().filter(\.element.kind.isTrainEvent)
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        let places = train.map(place)
        var expectations: [Expectation] = []
        var lastDeparture: Expectation?
        for index in train.indices {
            let next = index + 1 < train.count && train[index + 1].kind == .arrival ? places[index + 1] : nil
            let previous = index > 0 ? expectations[index - 1] : nil
            let expected = expectation(
                train[index], places[index], nextArrival: next, previous: previous, previousDeparture: lastDeparture)
            if train[index].kind == .departure { lastDeparture = expected }
            expectations.append(expected)
        }
        return train.indices.map { index in
            let event = train[index]
            let expected = expectations[index]
            var score = LoggedEventScore(
                time: event.time, kind: event.kind, place: event.placeText, source: event.source, sessionID: nil,
                expected: expected.label, said: "-", answers: 0, agreeing: 0, right: nil, nowOffset: nil,
                unscoredReason: expected.problem)
            guard expected.problem == nil else { return score }
            guard let session = session(at: event.time, near: expected.stations, in: sessions) else {
                score.unscoredReason = Self.uncovered
                return score
            }
            score.sessionID = session.id
            let previous = index > 0 ? train[index - 1] : nil
            let next = index + 1 < train.count ? train[index + 1] : nil
            switch event.kind {
            case .departure: scoreDeparture(&score, expected, session, nextArrival: next?.kind == .arrival ? next : nil)
            default: scoreArrival(&score, expected, session, previousDeparture: previous?.kind == .departure ? previous : nil)
            }
            return score
        }
    }

    // MARK: Scoring

    private func scoreDeparture(
        _ score: inout LoggedEventScore, _ expected: Expectation, _ session: AnsweredSession, nextArrival: RiderLogEvent?
    ) {
        let start = score.time.adding(departureWindow.lowerBound)
        var end = score.time.adding(departureWindow.upperBound)
        if let nextArrival, nextArrival.time < end { end = nextArrival.time }
        let window = answers(of: session, from: start, to: end)
        guard !window.isEmpty else {
            score.unscoredReason =
                "no fixes \(wholeNumber(departureWindow.lowerBound))–\(wholeNumber(departureWindow.upperBound)) s after the departure"
            return
        }
        let lines = Set(
            expected.lines.map { LineKey(railwayID: $0.railway.id, directionName: $0.railway.name(of: $0.direction)) })
        var said: [String: Int] = [:]
        for answer in window {
            guard let best = answer.result.best else {
                said["no answer", default: 0] += 1
                continue
            }
            if lines.contains(LineKey(railwayID: best.railwayID, directionName: best.directionName)) { score.agreeing += 1 }
            let name = resolver.network.railway(id: best.railwayID)?.name ?? best.railwayID
            said["\(name) \(best.directionName)", default: 0] += 1
        }
        score.answers = window.count
        score.said = Self.mostFrequent(said)
        score.right = score.agreeing * 2 > score.answers
    }

    private func scoreArrival(
        _ score: inout LoggedEventScore, _ expected: Expectation, _ session: AnsweredSession, previousDeparture: RiderLogEvent?
    ) {
        var legStart = score.time.adding(-approach)
        if let previousDeparture {
            legStart = min(previousDeparture.time.adding(legStartAfterDeparture), score.time)
            if legStart == score.time { legStart = previousDeparture.time }
        }
        let leg = answers(of: session, from: legStart, to: score.time)
        guard !leg.isEmpty else {
            score.unscoredReason = "no fixes in the leg before the arrival"
            return
        }
        var said: [String: Int] = [:]
        for answer in leg {
            guard let best = answer.result.best else {
                said["no answer", default: 0] += 1
                continue
            }
            let nextStop = best.nextStopID ?? best.focusStationID
            if expected.stationIDs.contains(nextStop) { score.agreeing += 1 }
            said[resolver.network.station(id: nextStop)?.name ?? nextStop, default: 0] += 1
        }
        score.answers = leg.count
        score.said = Self.mostFrequent(said)
        score.right = score.agreeing * 2 > score.answers
        let now = answers(of: session, from: legStart, to: score.time.adding(nowSearchAfterArrival)).first { answer in
            guard let best = answer.result.best else { return false }
            return best.phase == .now && expected.stationIDs.contains(best.focusStationID)
        }
        score.nowOffset = now.map { $0.time.seconds(since: score.time) }
    }

    /// The session whose fixes cover `time`; of several (rides recorded on two phones, or
    /// simulated at once), the one whose fix nearest in time is nearest to one of `stations`.
    private func session(at time: Timestamp, near stations: [Station], in sessions: [AnsweredSession]) -> AnsweredSession? {
        let covering = sessions.filter { covers($0, time) }
        guard covering.count > 1, !stations.isEmpty else { return covering.first }
        func distance(_ session: AnsweredSession) -> Meters {
            let nearby = answers(of: session, from: time.adding(-sessionMargin), to: time.adding(sessionMargin))
            guard let fix = nearby.min(by: { abs($0.time.seconds(since: time)) < abs($1.time.seconds(since: time)) }) else {
                return .infinity
            }
            return stations.map { $0.coordinate.distance(to: fix.coordinate) }.min() ?? .infinity
        }
        return covering.min { distance($0) < distance($1) }
    }

    /// Whether `session`'s fixes (with the margin) cover `time`.
    private func covers(_ session: AnsweredSession, _ time: Timestamp) -> Bool {
        guard let first = session.answers.first, let last = session.answers.last else { return false }
        return first.time.adding(-sessionMargin) <= time && time <= last.time.adding(sessionMargin)
    }

    /// The answers of `session` from `start` to `end`, both included.
    private func answers(of session: AnsweredSession, from start: Timestamp, to end: Timestamp) -> ArraySlice<TimedAnswer> {
        let answers = session.answers
        var low = 0
        var high = answers.count
        while low < high {
            let middle = (low + high) / 2
            if answers[middle].time < start { low = middle + 1 } else { high = middle }
        }
        var stop = low
        while stop < answers.count, answers[stop].time <= end { stop += 1 }
        return answers[low..<stop]
    }

    /// The most frequent key, the first in alphabetical order on a tie.
    private static func mostFrequent(_ counts: [String: Int]) -> String {
        counts.min { ($1.value, $0.key) < ($0.value, $1.key) }?.key ?? "-"
    }

    // MARK: What the log says

    /// A railway and the name of a direction on it.
    private struct LineKey: Hashable {
        var railwayID: String
        var directionName: String
    }

    /// The station, railway and direction texts of an event, from its fields or its notes.
    private struct LoggedPlace {
        var station: String?
        var railway: String?
        var direction: String?
        /// The stations the station text names (on the railway, when one is given).
        var stations: [Station] = []
        /// The railways the railway text names (serving the station, when one is given).
        var railways: [Railway] = []
        /// Why the place cannot be found.
        var problem: String?
    }

    /// What the tracker should have said at an event.
    private struct Expectation {
        /// Departures: the lines and directions that count as right.
        var lines: [(railway: Railway, direction: TravelDirection)] = []
        /// Arrivals: the station ids that count as right.
        var stationIDs: Set<String> = []
        /// The stations the event names, for finding its session.
        var stations: [Station] = []
        /// For the report.
        var label = "-"
        /// Why the event cannot be scored.
        var problem: String?
    }

    /// " (closest: 'A', 'B')" for a problem's suggestions, or nothing.
    static func closest(_ names: [String]) -> String {
        names.isEmpty ? "" : " (closest: " + names.map { "'\($0)'" }.joined(separator: ", ") + ")"
    }

    private func place(_ event: RiderLogEvent) -> LoggedPlace {
        var place = LoggedPlace(station: event.station, railway: event.railway, direction: event.direction)
        if let notes = event.notes, place.station == nil || place.railway == nil || place.direction == nil {
            let named = resolver.place(notes: notes)
            place.station = place.station ?? named.station
            place.railway = place.railway ?? named.railway
            place.direction = place.direction ?? named.direction
        }
        if let railway = place.railway {
            place.railways = resolver.railways(named: railway)
            if place.railways.isEmpty {
                place.problem = "unknown railway '\(railway)'" + Self.closest(resolver.network.railwaySuggestions(for: railway))
            }
        }
        if let station = place.station, place.problem == nil {
            var stations = resolver.stations(named: station)
            if stations.isEmpty {
                let names = closestNames(to: station, among: resolver.network.stations.map(\.name))
                place.problem = "unknown station '\(station)'" + Self.closest(names)
            } else if !place.railways.isEmpty {
                let railwayIDs = Set(place.railways.map(\.id))
                stations = stations.filter { railwayIDs.contains($0.railwayID) }
                if stations.isEmpty { place.problem = "station '\(station)' is not on '\(place.railway ?? "")'" }
                let served = Set(stations.map(\.railwayID))
                place.railways = place.railways.filter { served.contains($0.id) }
            }
            place.stations = stations
        }
        return place
    }

    private func expectation(
        _ event: RiderLogEvent, _ place: LoggedPlace, nextArrival: LoggedPlace?, previous: Expectation?,
        previousDeparture: Expectation?
    ) -> Expectation {
        var expected = Expectation(stations: place.stations)
        if let problem = place.problem {
            expected.problem = problem
            return expected
        }
        if event.kind == .arrival {
            guard !place.stations.isEmpty else {
                expected.problem = "no station logged"
                return expected
            }
            // "Kawasaki" after a departure on the Tokaido Line is the Tokaido Line's Kawasaki.
            let previousRailways = Set(previous?.lines.map(\.railway.id) ?? [])
            let onPreviousLine = place.stations.filter { previousRailways.contains($0.railwayID) }
            let stations = onPreviousLine.isEmpty ? place.stations : onPreviousLine
            expected.stationIDs = Set(stations.map(\.id))
            expected.label = stations[0].name
            return expected
        }
        var railways = place.railways
        if place.railway == nil {
            // No line logged: the lines that serve both this station and the next arrival's.
            let here = Set(place.stations.map(\.railwayID))
            let there = Set(nextArrival?.stations.map(\.railwayID) ?? [])
            railways = resolver.network.railways.filter { here.contains($0.id) && there.contains($0.id) }
            // Still on the same train: the line of the previous departure, when it serves both.
            let sameLine = Set(previousDeparture?.lines.map(\.railway.id) ?? [])
            if railways.contains(where: { sameLine.contains($0.id) }) { railways = railways.filter { sameLine.contains($0.id) } }
            guard !railways.isEmpty else {
                expected.problem =
                    place.station == nil
                    ? "no station or line logged"
                    : nextArrival?.stations.isEmpty == false
                        ? "no line logged, and none serves both '\(place.station ?? "")' and '\(nextArrival?.station ?? "")'"
                        : "no line logged and no arrival after it"
                return expected
            }
        }
        for railway in railways {
            let origin = place.stations.first { $0.railwayID == railway.id }?.id
            let direction: TravelDirection?
            if let text = place.direction {
                direction = resolver.direction(text, on: railway, from: origin)
            } else if let origin, let destination = nextArrival?.stations.first(where: { $0.railwayID == railway.id }) {
                direction = resolver.direction(on: railway, from: origin, to: destination.id)
            } else {
                direction = nil
            }
            if let direction { expected.lines.append((railway, direction)) }
        }
        guard !expected.lines.isEmpty else {
            let names = Set(railways.map(\.name)).sorted().joined(separator: ", ")
            expected.problem =
                place.direction.map { "unknown direction '\($0)' on \(names)" }
                ?? "no direction logged, and no arrival after it on \(names)"
            return expected
        }
        expected.label = expected.lines.map { "\($0.railway.name) \($0.railway.name(of: $0.direction))" }
            .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }.joined(separator: " or ")
        return expected
    }
}
