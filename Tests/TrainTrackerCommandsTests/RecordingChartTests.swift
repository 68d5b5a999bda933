import Foundation
import Testing
import TrainTrackerLab

@testable import TrainTrackerCommands

/// `evaluate --recording --svg`: the routes' and days' names under their bars must be
/// readable, each service day gets its bars, and the arrival times are drawn.
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

    @Test func eachDayAndEachArrivalRowIsDrawn() throws {
        let summary = RecordingEvaluation.Summary(algorithm: "default", scores: [])
        let days = ["2024-10-15", "2024-10-16", "2024-11-29"]
        var benchmark = ArrivalBenchmark()
        benchmark.buckets[0].predictions = 10
        benchmark.buckets[0].right = 8
        let tally = RecordingEvaluation.ArrivalTally(errors: [5, -20, 90])
        let arrivals = [0, 1, 5].compactMap { RecordingEvaluation.ArrivalRow(row: $0, tally: tally) }
        let report = RecordingEvaluation.Report(
            algorithm: "default", all: summary, routes: ["South Santa Clara County Connector": summary],
            days: Dictionary(uniqueKeysWithValues: days.map { ($0, summary) }), hours: [:], benchmark: benchmark,
            arrivals: arrivals, railwayWithoutTrain: 0)
        let svg = RecordingChart.svg(title: "Caltrain", reports: [report])
        for day in days {
            #expect(svg.contains(">day \(day)</text>"), "day \(day) is named")
            #expect(svg.contains("default · day \(day) · railway"), "day \(day) has its bars")
        }
        // A long route name is wrapped, never one line wider than its group.
        #expect(
            RecordingChart.wrapped("South Santa Clara County Connector").allSatisfy { $0.count <= RecordingChart.labelCharacters }
        )
        #expect(svg.contains(">South Santa Clara</text>") && svg.contains(">County Connector</text>"))
        for row in arrivals {
            #expect(svg.contains("default · \(row.minutesAhead) min: 66.7 % of 3</title>"), "\(row.minutesAhead) min")
        }
        #expect(svg.contains("default · \(benchmark.buckets[0].label): 80.0 % of 10</title>"))
        #expect(!svg.contains(benchmark.buckets[1].label + ":"), "a bucket without predictions has no bar")
    }

    /// Three algorithms' legend (nine entries) fits the picture's width.
    @Test func theLegendFitsThePicture() throws {
        let summary = RecordingEvaluation.Summary(algorithm: "default", scores: [])
        let reports = ["default", "railway", "schedule"].map {
            RecordingEvaluation.Report(
                algorithm: $0, all: summary, routes: [:], days: [:], hours: [:], benchmark: ArrivalBenchmark(),
                arrivals: [], railwayWithoutTrain: 0)
        }
        let svg = RecordingChart.svg(title: "Caltrain", reports: reports)
        let width = try #require(svg.range(of: #"width="([0-9]+)""#, options: .regularExpression))
        let drawn = try #require(Double(svg[width].dropFirst(7).dropLast()))
        let last = try #require(svg.range(of: #"<text x="([0-9.]+)" y="39">schedule train</text>"#, options: .regularExpression))
        let x = try #require(Double(svg[last].split(separator: "\"")[1]))
        #expect(x + Double("schedule train".count) * RecordingChart.characterWidth <= drawn)
    }
}
