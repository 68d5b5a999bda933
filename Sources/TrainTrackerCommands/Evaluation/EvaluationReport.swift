import ArgumentParser
import Foundation
import TrainTrackerCore
import TrainTrackerLab

/// One algorithm's scores on the cases of one condition.
struct EvaluationReport {
    /// The condition's name, e.g. `sparse · shifted map`.
    var condition: String
    /// The algorithm's name, e.g. `default`.
    var algorithm: String
    /// A score per case.
    var scores: [CaseScore]

    /// The scenarios of the cases, "all" first.
    var groups: [String] { ["all"] + Set(scores.compactMap(\.scenario)).sorted() }

    /// The summary of `group` ("all" or a scenario).
    func summary(of group: String) -> AlgorithmScore {
        AlgorithmScore(algorithm: algorithm, scores: group == "all" ? scores : scores.filter { $0.scenario == group })
    }
}

/// A measure `evaluate --matrix` shows.
enum EvaluationMeasure: String, ExpressibleByArgument, CaseIterable {
    case railway
    case railwayAlike = "railway-alike"
    case direction, focus
    case nextStop = "next-stop"
    case eta, locked
    case lockTime = "lock-time"
    case lockStations = "lock-stations"
    case decided
    case shownStop = "shown-stop"
    case undecided
    case undecidedTime = "undecided-time"

    /// The measure's heading.
    var title: String {
        switch self {
        case .railway: "railway"
        case .railwayAlike: "railway, or one not yet told apart"
        case .direction: "direction"
        case .focus: "focus"
        case .nextStop: "next stop"
        case .eta: "eta ±1 min"
        case .locked: "locked"
        case .lockTime: "median lock (s)"
        case .lockStations: "median lock (stations stopped at before it)"
        case .decided: "decided within one station after the first that tells"
        case .shownStop: "next stop shown, right for the true service"
        case .undecided: "answered as undecided"
        case .undecidedTime: "median undecided after departure (s)"
        }
    }

    /// The value of `score`, a share (0 ... 1) or, for the lock, seconds or stations.
    func value(_ score: AlgorithmScore) -> Double? {
        switch self {
        case .railway: score.railwayAccuracy
        case .railwayAlike: score.railwayAlikeAccuracy
        case .direction: score.directionAccuracy
        case .focus: score.focusAccuracy
        case .nextStop: score.nextStopAccuracy
        case .eta: score.etaWithinMinuteShare
        case .locked: score.lockedShare
        case .lockTime: score.medianLockTime
        case .lockStations: score.medianLockStations
        case .decided: score.decidedShare
        case .shownStop: score.shownStopRightShare
        case .undecided: score.undecidedShare
        case .undecidedTime: score.medianUndecidedFor
        }
    }

    /// The value as text: `97.3 %`, or `12 s`.
    func text(_ score: AlgorithmScore) -> String {
        guard let value = value(score) else { return "-" }
        switch self {
        case .lockTime, .undecidedTime: return "\(Int(displaying: value)) s"
        case .lockStations: return value == value.rounded() ? "\(Int(displaying: value))" : String(format: "%.1f", value)
        default: return percent(value)
        }
    }
}

extension EvaluationReport {
    /// The report as aligned text: per condition and algorithm, all cases then each scenario
    /// (and each session with `perSession`). The condition column appears when there are several.
    static func table(_ reports: [EvaluationReport], perSession: Bool) -> String {
        let conditions = Set(reports.map(\.condition)).count > 1
        var rows = [
            (conditions ? ["condition"] : [])
                + [
                    "algorithm", "cases", "sessions", "fixes", "railway", "direction", "focus", "next stop",
                    "stop shown right", "undecided", "eta ±1 min", "locked", "median lock", "µs/fix",
                ]
        ]
        func row(_ report: EvaluationReport, _ group: String, _ score: AlgorithmScore) -> [String] {
            (conditions ? [report.condition] : [])
                + [
                    report.algorithm, group, "\(score.sessions)", "\(score.fixes)", percent(score.railwayAccuracy),
                    percent(score.directionAccuracy), percent(score.focusAccuracy), percent(score.nextStopAccuracy),
                    percent(score.shownStopRightShare), percent(score.undecidedShare),
                    score.etaWithinMinuteShare.map(percent) ?? "-", percent(score.lockedShare),
                    score.medianLockTime.map { "\(Int(displaying: $0)) s" } ?? "-",
                    String(format: "%.1f", score.microsecondsPerFix),
                ]
        }
        for report in reports {
            for group in report.groups { rows.append(row(report, group, report.summary(of: group))) }
            if perSession {
                for score in report.scores {
                    rows.append(row(report, score.sessionID, AlgorithmScore(algorithm: report.algorithm, scores: [score])))
                }
            }
        }
        return alignedTable(rows)
    }

    /// One measure as a matrix: a row per algorithm and scenario, a column per condition.
    static func matrix(_ reports: [EvaluationReport], measure: EvaluationMeasure) -> String {
        let conditions = reports.map(\.condition).uniqued()
        let algorithms = reports.map(\.algorithm).uniqued()
        let groups = ["all"] + Set(reports.flatMap { $0.scores.compactMap(\.scenario) }).sorted()
        var rows = [["\(measure.title)", "scenario"] + conditions]
        for algorithm in algorithms {
            for group in groups {
                var row = [algorithm, group]
                for condition in conditions {
                    let report = reports.first { $0.algorithm == algorithm && $0.condition == condition }
                    let score = report?.summary(of: group)
                    row.append(score.map { $0.sessions == 0 ? "" : measure.text($0) } ?? "")
                }
                rows.append(row)
            }
        }
        return alignedTable(rows)
    }

    /// The report as JSON: per condition and algorithm the summary, per scenario summaries,
    /// and optionally each session.
    static func json(_ reports: [EvaluationReport], perSession: Bool) throws -> String {
        struct Report: Encodable {
            var condition: String
            var summary: AlgorithmScore
            var scenarios: [String: AlgorithmScore]
            var sessions: [CaseScore]?
        }
        let body = reports.map { report in
            Report(
                condition: report.condition, summary: report.summary(of: "all"),
                scenarios: Dictionary(
                    report.groups.dropFirst().map { ($0, report.summary(of: $0)) }, uniquingKeysWith: { first, _ in first }),
                sessions: perSession ? report.scores : nil)
        }
        return try reportJSON(body)
    }
}

extension Array where Element: Hashable {
    /// The elements in order, each once.
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}

/// `value` as sorted, indented JSON: the form of every report of `evaluate`.
func reportJSON(_ value: some Encodable) throws(CommandFailure) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    do {
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    } catch {
        throw CommandFailure("cannot encode the report: \(error)")
    }
}
