import Foundation
import Testing
import TrainTrackerTestSupport

/// `traintracker platforms` and `--platforms`, as a researcher uses them: learn where trains
/// stand from one seed's rides on a platforms map, track another seed's rides on the same map
/// with the file; a file that is wrong refused in one line naming it.
@Suite(.tags(.sharedData)) struct PlatformsCommandTests {
    func simulate(_ out: String, seed: Int, count: Int) throws -> ToolOutcome {
        try ToolRunner.run([
            "simulate", "--railways", SharedPaths.caltrain, "--out", out, "--count", "\(count)", "--seed", "\(seed)",
            "--scenario", "caltrain", "--map", "platforms", "--map-seed", "4242",
        ])
    }

    @Test func platformsLearntFromOneSeedAreReadWhenTrackingAnother() throws {
        let directory = try TemporaryDirectory()
        let (learning, tracked) = (directory.path("learning"), directory.path("tracked"))
        #expect(try simulate(learning, seed: 5, count: 6).status == 0)
        #expect(try simulate(tracked, seed: 6, count: 1).status == 0)
        let file = directory.path("platforms.json")
        let learnt = try ToolRunner.run(["platforms", "--railways", SharedPaths.caltrain, "--cases", learning, "--out", file])
        #expect(learnt.status == 0, "\(learnt.standardError)")
        #expect(learnt.standardOutput.contains("platforms learnt"), "\(learnt.standardOutput)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        #expect(json["format"] as? String == "traintracker-platforms")
        let platforms = try #require(json["platforms"] as? [[String: Any]])
        #expect(platforms.count >= 5, "\(platforms.count) platforms")
        // Trains on this map stop 20-250 m from the points: every span lies there, a few metres wide.
        for platform in platforms {
            let offsets = try #require(platform["offsets"] as? [Double])
            #expect(offsets.count == 2 && offsets[0] <= offsets[1] && offsets[1] - offsets[0] < 60, "\(offsets)")
            #expect(offsets.allSatisfy { abs($0) <= 280 }, "\(offsets)")
        }
        let evaluate = { (extra: [String]) in
            try ToolRunner.run(
                ["evaluate", "--railways", SharedPaths.caltrain, "--cases", tracked, "--untimed", "--format", "json"] + extra)
        }
        let plain = try evaluate([])
        let withFile = try evaluate(["--platforms", file])
        #expect(plain.status == 0 && withFile.status == 0, "\(withFile.standardError)")
        #expect(withFile.standardError.isEmpty, "every platform is of this network: \(withFile.standardError)")
        // Trains on this map stand within the points' reach: the learnt platforms cost nothing.
        let railway = { (outcome: ToolOutcome) throws -> Double in
            let reports = try #require(
                try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [[String: Any]])
            let summary = try #require(reports.first?["summary"] as? [String: Any])
            return try #require(summary["railwayAccuracy"] as? Double)
        }
        let (before, after) = (try railway(plain), try railway(withFile))
        #expect(after >= before - 0.02, "\(before) -> \(after)")
    }

    /// A file with one platform of Caltrain 2017's local, `offsets` and `stands` as given.
    static func file(offsets: String, stands: String = "2") -> String {
        #"{"format": "traintracker-platforms", "platforms": [{"railwayID": "Lo-129", "stationID": "x", "#
            + #""offsets": \#(offsets), "stands": \#(stands)}]}"#
    }

    @Test(arguments: [
        (file(offsets: "[9, 1]"), "not a platforms file (platforms[0].offsets is malformed)"),
        (file(offsets: "[0, 5000]"), "the platform of x on Lo-129 is out of range"),
        (file(offsets: "[0, 5]", stands: "-1"), "out of range"),
        (#"{"format": "traintracker-platforms", "version": 99, "platforms": []}"#, "version 99 is newer"),
        (#"{"format": "traintracker-trip-model", "constants": {}}"#, "not a platforms file"),
        ("[1, 2", "not a platforms file"),
    ])
    func aBadPlatformsFileIsOneLineAndExitStatus2(contents: String, problem: String) throws {
        let directory = try TemporaryDirectory()
        let file = directory.path("platforms.json")
        try Data(contents.utf8).write(to: URL(fileURLWithPath: file))
        let outcome = try ToolRunner.run(["network", "--railways", SharedPaths.caltrain, "--platforms", file])
        #expect(outcome.status == 2)
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardError.hasPrefix("traintracker: error: \(file): "), "\(outcome.standardError)")
        #expect(outcome.standardError.contains(problem), "\(outcome.standardError)")
        #expect(outcome.standardError.split(separator: "\n").count == 1)
    }

    @Test func platformsOfAnotherNetworkAreLeftOutWithAWarning() throws {
        let directory = try TemporaryDirectory()
        let file = directory.path("platforms.json")
        let contents =
            #"{"format": "traintracker-platforms", "platforms": [{"railwayID": "Tokyu.Toyoko", "#
            + #""stationID": "Tokyu.Toyoko.Shibuya", "offsets": [0, 5], "stands": 2}]}"#
        try Data(contents.utf8).write(to: URL(fileURLWithPath: file))
        let outcome = try ToolRunner.run(["network", "--railways", SharedPaths.caltrain, "--platforms", file])
        #expect(outcome.status == 0)
        #expect(
            outcome.standardError.contains(
                "\(file): 1 platforms cannot be placed on this network (a railway or station it lacks, a span too wide) (first: Tokyu.Toyoko.Shibuya"
            ),
            "\(outcome.standardError)")
    }

    @Test func anIdWithControlCharactersIsShownOnOneLine() throws {
        let directory = try TemporaryDirectory()
        let file = directory.path("platforms.json")
        let contents =
            #"{"format": "traintracker-platforms", "platforms": [{"railwayID": "a\nb", "#
            + #""stationID": "c\u001b[2Jd", "offsets": [0, 5000], "stands": 2}]}"#
        try Data(contents.utf8).write(to: URL(fileURLWithPath: file))
        let outcome = try ToolRunner.run(["network", "--railways", SharedPaths.caltrain, "--platforms", file])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.split(separator: "\n").count == 1, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("the platform of c?[2Jd on a?b is out of range"), "\(outcome.standardError)")
    }

    @Test func simulateRefusesPlatformsAndAMapSeedWithoutAMap() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("platforms.json")
        try Data(Self.file(offsets: "[0, 5]").utf8).write(to: URL(fileURLWithPath: path))
        for extra in [["--platforms", path], ["--map-seed", "3"]] {
            let outcome = try ToolRunner.run(
                ["simulate", "--railways", SharedPaths.caltrain, "--out", directory.path("out"), "--count", "1"] + extra)
            #expect(outcome.status != 0, "\(extra)")
            #expect(outcome.standardError.contains(extra[0]), "\(outcome.standardError)")
            #expect(!FileManager.default.fileExists(atPath: directory.path("out")))
        }
    }
}
