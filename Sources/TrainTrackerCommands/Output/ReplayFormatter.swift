import Foundation
import TrainTrackerCore

/// How `replay` prints its results.
public enum ReplayFormat: String, Sendable, CaseIterable {
    /// One JSON object per fix, the stable machine contract.
    case jsonl
    /// A readable timeline with one line per change of answer.
    case text
}

/// Turns tracking results into JSON lines or timeline text.
public struct ReplayFormatter: Sendable {
    /// The network the results refer to, for names.
    public let network: RailwayNetwork
    /// Seconds added to UTC for the times of the text timeline.
    public let utcOffset: Seconds

    /// A formatter for results over `network`.
    public init(network: RailwayNetwork, utcOffset: Seconds = 0) {
        self.network = network
        self.utcOffset = utcOffset
    }

    /// One JSON object of the replay contract, with exactly the keys `TrackingResult.jsonLine`
    /// lists (docs/data.md).
    public func jsonLine(
        sessionID: String, fix: RecordedFix, result: TrackingResult, evidence: [EvidenceExplanation]? = nil
    ) -> String {
        result.jsonLine(sessionID: sessionID, fix: fix, evidence: evidence)
    }

    /// The readable answer of a candidate, e.g. `Toyoko Line → Yokohama  Soon: Tsunashima`,
    /// with `· stops next at Kikuna 08:14` when the train will pass the station shown, and
    /// `· train 417, 4 min late` when the tracker names the scheduled train.
    public func headline(_ candidate: TrackingCandidate) -> String {
        let railway = network.railway(id: candidate.railwayID)
        let railwayName = railway?.name ?? candidate.railwayID
        let toward = candidate.destinationStationID.flatMap { network.station(id: $0)?.name } ?? candidate.directionName
        let station = network.station(id: candidate.focusStationID)?.name ?? candidate.focusStationID
        var line = "\(railwayName) → \(toward)  \(candidate.phase.label): \(station)"
        // Where the train stops next, when that is not the station shown (an express passing it).
        if let stop = candidate.nextStopID, stop != candidate.focusStationID {
            let name = network.station(id: stop)?.name ?? stop
            line += "  · stops next at \(name)\(candidate.eta.map { " \($0.timeOfDay(utcOffset: utcOffset).prefix(5))" } ?? "")"
        }
        if let train = candidate.train, !train.isEmpty {
            line += "  · train \(Self.printable(train))" + (candidate.delaySeconds.map { ", " + Self.lateness($0) } ?? "")
        }
        return line
    }

    /// `4 min late`, `2 min early`, `on time`: a delay in whole minutes.
    static func lateness(_ delay: Seconds) -> String {
        let minutes = Int(wholeNumber: (delay / 60).rounded()) ?? 0
        return minutes > 0 ? "\(minutes) min late" : minutes < 0 ? "\(-minutes) min early" : "on time"
    }

    /// A name from a feed, its control characters replaced (a timeline is read in a terminal).
    static func printable(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) })
    }

    /// Where `directionName` of railway `railwayID` runs to: its terminus's name, or the
    /// direction's name on a loop (GTFS names directions `0` and `1`).
    func toward(railwayID: String, directionName: String) -> String {
        guard let railway = network.railway(id: railwayID), !railway.isLoop,
            let first = railway.stationIDs.first, let last = railway.stationIDs.last
        else { return directionName }
        let terminus = directionName == railway.ascendingName ? last : first
        return network.station(id: terminus)?.name ?? directionName
    }

    /// The heading line of a session in the text timeline, saying the clock its times are on.
    public func sessionHeading(_ summary: SessionHeading) -> String {
        let start = summary.start.adding(utcOffset)
        let date = String(start.iso8601.prefix(10))
        return "Session \(summary.id)  \(date) \(start.timeOfDay()) \(Self.clockName(utcOffset))  \(summary.fixCount) fixes"
    }

    /// `UTC`, `UTC+09:00`, `UTC-07:00`: the clock `utcOffset` seconds ahead of UTC.
    public static func clockName(_ utcOffset: Seconds) -> String {
        let minutes = Int(wholeNumber: (utcOffset / 60).rounded()) ?? 0
        guard minutes != 0 else { return "UTC" }
        let size = abs(minutes)
        return "UTC" + (minutes < 0 ? "-" : "+") + String(size / 60).leftPadded(2) + ":" + String(size % 60).leftPadded(2)
    }

    /// A timeline line: the fix's time of day and the headline (or "no answer").
    public func timelineLine(at timestamp: Timestamp, best: TrackingCandidate?) -> String {
        "\(timestamp.timeOfDay(utcOffset: utcOffset))  \(best.map(headline) ?? "(no answer)")"
    }
}

/// What the text timeline says about a session before its fixes.
public struct SessionHeading: Sendable {
    /// The session id.
    public var id: String
    /// When it started.
    public var start: Timestamp
    /// How many fixes are replayed.
    public var fixCount: Int

    /// Creates a heading.
    public init(id: String, start: Timestamp, fixCount: Int) {
        self.id = id
        self.start = start
        self.fixCount = fixCount
    }
}

/// Writes the text timeline: a line whenever the best answer changes.
struct TimelineWriter {
    let formatter: ReplayFormatter
    private var shown: (railway: String, direction: TravelDirection, station: String, phase: FocusPhase)?
    private var hasShownAnything = false

    init(formatter: ReplayFormatter) { self.formatter = formatter }

    mutating func line(for fix: RecordedFix, result: TrackingResult) -> String? {
        let best = result.best
        let key = best.map { ($0.railwayID, $0.direction, $0.focusStationID, $0.phase) }
        if let key, let shown, shown == key { return nil }
        if key == nil, shown == nil, hasShownAnything { return nil }
        shown = key
        hasShownAnything = true
        return formatter.timelineLine(at: fix.location.timestamp, best: best)
    }
}

/// What each kind of evidence added to each hypothesis since the last line of the timeline.
struct EvidenceSums {
    private var sums: [String: [Double]] = [:]

    /// Adds one fix's evidence.
    mutating func add(_ explanation: [EvidenceExplanation]) {
        for item in explanation {
            var terms = sums[Self.key(item)] ?? Array(repeating: 0, count: EvidenceTerm.allCases.count)
            for (term, nats) in item.terms { terms[term.index] += nats }
            sums[Self.key(item)] = terms
        }
    }

    /// Indented lines for the first `limit` hypotheses of `explanation` (the latest fix's
    /// ranking): score, line and direction, and the evidence summed since the last line.
    func lines(_ explanation: [EvidenceExplanation], formatter: ReplayFormatter, limit: Int = 4) -> [String] {
        explanation.prefix(limit).map { item in
            let name = formatter.network.railway(id: item.railwayID)?.name ?? item.railwayID
            let terms = zip(EvidenceTerm.allCases, sums[Self.key(item)] ?? []).filter { abs($0.1) >= 0.05 }
                .map { "\($0.0.rawValue) \(String(format: "%+.1f", $0.1))" }.joined(separator: " · ")
            let toward = formatter.toward(railwayID: item.railwayID, directionName: item.directionName)
            return "      \(String(format: "%6.1f", item.score))  \(name) → \(toward)"
                + (terms.isEmpty ? "" : "   \(terms)")
        }
    }

    private static func key(_ item: EvidenceExplanation) -> String { item.railwayID + "\u{1}" + item.directionName }
}
