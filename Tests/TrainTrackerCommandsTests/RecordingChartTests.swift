import Foundation
import Testing
import TrainTrackerLab

@testable import TrainTrackerCommands

/// `evaluate --recording --svg`: the routes' names under their bars must be readable.
@Suite struct RecordingChartTests {
    @Test func routeNamesNeverOverlap() throws {
        let names = ["Local Weekday", "Local Weekend", "Limited", "Express", "South County"]
        let summary = RecordingEvaluation.Summary(algorithm: "default", scores: [])
        let report = RecordingEvaluation.Report(
            algorithm: "default", all: summary, routes: Dictionary(uniqueKeysWithValues: names.map { ($0, summary) }),
            days: [:], hours: [:], benchmark: ArrivalBenchmark(), arrivals: [], railwayWithoutTrain: 0)
        let svg = RecordingChart.svg(title: "Caltrain", reports: [report])
        // Each route's name, centred at its x.
        var centres: [(name: String, x: Double)] = []
        for name in ["all"] + names.sorted() {
            let pattern = #"<text x="([0-9.]+)" y="[0-9.]+" text-anchor="middle">"# + name + "</text>"
            let match = try #require(svg.range(of: pattern, options: .regularExpression), "\(name) is drawn")
            let x = try #require(Double(svg[match].split(separator: "\"")[1]))
            centres.append((name, x))
        }
        for (left, right) in zip(centres, centres.dropFirst()) {
            let needed = Double(left.name.count + right.name.count) / 2 * RecordingChart.characterWidth
            #expect(right.x - left.x >= needed, "\(left.name) and \(right.name) overlap")
        }
        let width = try #require(svg.range(of: #"width="([0-9]+)""#, options: .regularExpression))
        let drawn = try #require(Double(svg[width].dropFirst(7).dropLast()))
        #expect((centres.last?.x ?? 0) + Double(centres.last?.name.count ?? 0) * RecordingChart.characterWidth / 2 <= drawn)
    }
}
