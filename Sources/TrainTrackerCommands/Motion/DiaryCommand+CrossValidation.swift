import Foundation
import TrainTrackerCore
import TrainTrackerLab

extension DiaryCommand {
    /// Device numbers such as "1,2,5", or nil if that is not what `text` is.
    static func devices(in text: String) -> [Int]? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let numbers = parts.compactMap { Int($0) }
        guard !parts.isEmpty, numbers.count == parts.count, numbers.allSatisfy({ $0 >= 0 }) else { return nil }
        return numbers
    }

    /// The thresholds chosen on each half of the phones, and their scores on both halves.
    static func crossValidation(
        days: [DiaryDay], log: [LoggedLeg], railStations: [Coordinate], railLines: [RailLine], fold: String?
    ) throws -> String {
        let devices = Set(days.map(\.device)).sorted()
        let scoredLog = log.filter { devices.contains($0.device) }
        var halves = DiaryTuning.halves(of: devices, log: scoredLog)
        if let fold, let chosen = Self.devices(in: fold) {
            let unknown = chosen.filter { !devices.contains($0) }
            guard unknown.isEmpty else {
                throw CommandFailure("--fold names device \(unknown[0]), which no session records (devices: \(devices))")
            }
            halves = (chosen.sorted(), devices.filter { !chosen.contains($0) })
            guard !halves.0.isEmpty, !halves.1.isEmpty else { throw CommandFailure("--fold must leave phones on both sides") }
        }
        let folds = DiaryTuning.crossValidated(
            days: days, log: scoredLog, railStations: railStations, railLines: railLines, halves: halves)
        let everyPhone = DiaryTuning.tuned(on: days, log: scoredLog, railStations: railStations, railLines: railLines)
        let names = folds.map { "chosen on " + $0.chosenOn.map(String.init).joined(separator: ",") }
        var thresholds = [["threshold", "search starts at"] + names + ["chosen on all", "default"]]
        for threshold in DiaryTuning.thresholds {
            let values = [DiarySettings.untuned] + folds.map(\.settings) + [everyPhone, .standard]
            thresholds.append([threshold.name] + values.map { String(format: "%g", threshold.get($0)) })
        }
        var scores = [["thresholds", "scored on", "logged legs", "found", "found %", "right kind", "right kind %", "spurious"]]
        func row(_ name: String, _ phones: [Int], _ score: DiaryScore) -> [String] {
            [name, phones.map(String.init).joined(separator: ",")] + Array(scoreRow("", score).dropFirst())
        }
        for (fold, name) in zip(folds, names) {
            scores.append(row(name, fold.chosenOn, fold.chosenScore))
            scores.append(row(name, fold.scoredOn, fold.heldOutScore))
        }
        let heldOut = folds.map(\.heldOutScore).reduce(DiaryScore(logged: 0, found: 0, rightKind: 0), +)
        scores.append(row("held out, both ways", devices, heldOut))
        let standard = DiaryTuning.score(.standard, days: days, log: scoredLog, railStations: railStations, railLines: railLines)
        scores.append(row("default (not held out)", devices, standard))
        let chosenOnAll = DiaryTuning.score(
            everyPhone, days: days, log: scoredLog, railStations: railStations, railLines: railLines)
        if everyPhone != .standard { scores.append(row("chosen on all (not held out)", devices, chosenOnAll)) }
        return alignedTable(thresholds) + "\n\n" + alignedTable(scores)
    }
}
