import Foundation
import Testing
import TrainTrackerCore
import TrainTrackerTestSupport

/// `traintracker fit` and the trip model in `evaluate`, as a researcher runs them on Caltrain's
/// recorded trains: several recordings scored per day, a fit written and read back, bad
/// parameter files refused in one line.
///
/// Serialized, as `RecordingEvaluationTests`: each test waits on the tool's process.
@Suite(.tags(.sharedData), .serialized) struct TripModelCommandTests {
    /// Fitting the October days raises their likelihood, and the file it writes is read back.
    @Test func aFitRaisesTheLikelihoodAndItsFileIsReadBack() throws {
        let directory = try TemporaryDirectory()
        let file = directory.path("model.json")
        let fit = try ToolRunner.run([
            "fit", "--railways", SharedPaths.caltrain2024, "--recording", SharedPaths.caltrainRecordingOctober,
            "--rounds", "1", "--out", file,
        ])
        #expect(fit.status == 0, "\(fit.standardError)")
        let summary = try #require(fit.standardOutput.split(separator: "\n").first.map(String.init))
        // "208 rides, 6958 fixes: log-likelihood -81234.5 → -79012.3 (0.319 per fix)"
        let numbers = summary.split(separator: " ").compactMap { Double($0) }
        #expect(numbers.count >= 2 && numbers[1] > numbers[0], "\(summary)")
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let json = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["format"] as? String == "traintracker-trip-model")
        #expect((json["constants"] as? [String: Double])?["tripPositionScale"] != nil)
        let scored = try ToolRunner.run([
            "evaluate", "--railways", SharedPaths.caltrain2024, "--recording", SharedPaths.caltrainRecordingOctober,
            "--algorithm", "trips", "--parameters", file,
        ])
        #expect(scored.status == 0, "\(scored.standardError)")
        #expect(scored.standardOutput.contains("day 2024-10-16"))
    }

    /// Two recordings are scored together, per service day, with the Transit benchmark beside
    /// the minute measure; the trip model names the railway at least as often as the plain
    /// schedule matcher on each day.
    @Test func twoRecordingsAreScoredPerDay() throws {
        let outcome = try ToolRunner.run([
            "evaluate", "--railways", SharedPaths.caltrain2024, "--recording", SharedPaths.caltrainRecordingOctober,
            "--recording", SharedPaths.caltrainRecording, "--algorithm", "trips", "--algorithm", "schedule", "--format",
            "json",
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let reports = try #require(JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [[String: Any]])
        #expect(reports.compactMap { $0["algorithm"] as? String } == ["trips", "schedule"])
        let days = reports.map { ($0["days"] as? [String: [String: Any]]) ?? [:] }
        #expect(days.allSatisfy { $0.keys.sorted() == ["2024-10-15", "2024-10-16", "2024-11-29", "2024-11-30", "2024-12-01", "2024-12-02"] })
        let benchmark = try #require(reports[0]["benchmark"] as? [String: Any])
        #expect((benchmark["buckets"] as? [[String: Any]])?.count == 4)
        let railway = { (report: [String: [String: Any]], day: String) -> Double in
            ((report[day]?["score"] as? [String: Any])?["railwayAccuracy"] as? Double) ?? -1
        }
        // The matcher has no arrival times to score; the trip model has.
        #expect(((reports[0]["all"] as? [String: Any])?["score"] as? [String: Any])?["etaWithinMinuteShare"] is Double)
        for day in days[0].keys { #expect(railway(days[0], day) >= railway(days[1], day) - 0.01, "\(day)") }
    }

    @Test(arguments: [
        (#"{"format": "traintracker-trip-model", "constants": {"tripNoSuchThing": 1}}"#, "unknown constant tripNoSuchThing"),
        (#"{"format": "traintracker-trip-model", "constants": {"tripGridStep": 0}}"#, "tripGridStep = 0.0 is outside"),
        (#"{"format": "traintracker-trip-model", "constants": {"tripPositionScale": -5}}"#, "tripPositionScale = -5.0 is outside"),
        (#"{"format": "something else", "constants": {}}"#, "not a trip model file"),
        ("not json at all", "not a trip model file"),
        (#"{"format": "traintracker-trip-model", "version": 99, "constants": {}}"#, "version 99 is newer"),
    ])
    func aBadParameterFileIsOneLineAndExitStatus2(contents: String, problem: String) throws {
        let directory = try TemporaryDirectory()
        let file = directory.path("model.json")
        try Data(contents.utf8).write(to: URL(fileURLWithPath: file))
        let outcome = try ToolRunner.run([
            "evaluate", "--railways", SharedPaths.caltrain2024, "--recording", SharedPaths.caltrainRecordingOctober,
            "--algorithm", "trips", "--parameters", file,
        ])
        #expect(outcome.status == 2)
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardError.hasPrefix("traintracker: error: \(file): "), "\(outcome.standardError)")
        #expect(outcome.standardError.contains(problem), "\(outcome.standardError)")
        #expect(outcome.standardError.split(separator: "\n").count == 1)
    }

    @Test func holdingOutNeedsARecording() throws {
        let outcome = try ToolRunner.run(["evaluate", "--railways", SharedPaths.caltrain2024, "--hold-out", "day"])
        #expect(outcome.status != 0)
        #expect(outcome.standardError.contains("--hold-out goes with --recording"))
    }
}
