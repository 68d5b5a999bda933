import Foundation
import Testing
import TrainTrackerCore
import TrainTrackerStorage
import TrainTrackerTestSupport

@Suite(.serialized, .tags(.sharedData)) struct ReplayCommandTests {
    static let network = Result { try RailwayDatabase.load(path: SharedPaths.tokyoRailways) }

    /// Sessions replayed side by side (`--jobs`) give the same output, in the same order, as
    /// one after another: JSONL, the text timeline and its explanations alike.
    @Test func jobsReplaySessionsSideBySideWithTheSameOutput() async throws {
        let directory = try TemporaryDirectory()
        let sessions = directory.path("sessions.sqlite")
        let journey = ["journey", "--railways", SharedPaths.tokyoRailways, "--noise", "8", "--out", sessions]
        let rides = [
            ["--railway", "Tokyu.Toyoko", "--from", "Tokyu.Toyoko.Hiyoshi", "--to", "Tokyu.Toyoko.Kikuna", "--seed", "1"],
            ["--railway", "Tokyu.Meguro", "--from", "Tokyu.Meguro.Meguro", "--to", "Tokyu.Meguro.Okusawa", "--seed", "2"],
            [
                "--railway", "JR-East.Yamanote", "--from", "JR-East.Yamanote.Osaki", "--to", "JR-East.Yamanote.Shibuya", "--seed",
                "3",
            ],
            ["--railway", "Tokyu.Toyoko", "--from", "Tokyu.Toyoko.Kikuna", "--to", "Tokyu.Toyoko.Hiyoshi", "--seed", "4"],
            [
                "--railway", "TokyoMetro.Ginza", "--from", "TokyoMetro.Ginza.Shibuya", "--to", "TokyoMetro.Ginza.AkasakaMitsuke",
                "--seed", "5",
            ],
        ]
        for (index, ride) in rides.enumerated() {
            #expect(try await ToolRunner.run(journey + ride + (index > 0 ? ["--append"] : [])).status == 0)
        }
        let replay = ["replay", "--railways", SharedPaths.tokyoRailways, "--sessions", sessions]
        for format in [["--format", "jsonl"], ["--format", "text", "--explain"]] {
            let alone = try await ToolRunner.run(replay + format)
            let together = try await ToolRunner.run(replay + format + ["--jobs", "3"])
            #expect(alone.status == 0 && together.status == 0)
            #expect(alone.standardOutput.split(separator: "\n").count > 5)
            #expect(together.standardOutput == alone.standardOutput)
        }
        let refused = try await ToolRunner.run(replay + ["--jobs", "0"])
        #expect(refused.status != 0)
        #expect(refused.standardError.contains("--jobs must be 1 to 64"))
    }

    @Test func jsonlHasOneObjectPerFixWithExactlyTheContractKeys() async throws {
        let network = try Self.network.get()
        let directory = try TemporaryDirectory()
        let sessions = directory.path("sessions.sqlite")
        let count = try writeToyokoSession(to: sessions, network: network)

        // The published algorithm says nothing until it knows the direction: the nulls show.
        let outcome = try await ToolRunner.run([
            "replay", "--railways", SharedPaths.tokyoRailways, "--sessions", sessions, "--algorithm", "eki",
        ])
        #expect(outcome.status == 0)
        #expect(outcome.standardError.isEmpty)
        let lines = outcome.standardOutput.split(separator: "\n")
        #expect(lines.count == count)
        let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let keys: Set<String> = [
            "sessionID", "locationID", "timestamp", "railway", "direction", "station", "phase", "trainType", "nextStop", "eta",
            "confidence", "train", "delaySeconds", "arrivals", "undecided", "estimated", "candidates",
        ]
        #expect(objects.allSatisfy { Set($0.keys) == keys })
        #expect(
            objects.allSatisfy { $0["estimated"] as? Bool == false && $0["nextStop"] is NSNull && $0["confidence"] is NSNull })
        // No answer at first: every answer key is null.
        let first = try #require(objects.first)
        #expect(["railway", "direction", "station", "phase"].allSatisfy { first[$0] is NSNull })
        #expect((first["candidates"] as? [Any])?.isEmpty == true)
        #expect(first["sessionID"] as? String == "TOYOKO-1")
        #expect(first["locationID"] as? String == "TOYOKO-1-0")
        #expect(first["timestamp"] as? String == "2025-09-20T08:00:00.000Z")
        // Later: Toyoko, Outbound, with ranked candidates of five keys each.
        let last = try #require(objects.last)
        #expect(last["railway"] as? String == "Tokyu.Toyoko")
        #expect(last["direction"] as? String == "Outbound")
        #expect(last["station"] as? String == "Tokyu.Toyoko.Kikuna")
        #expect(last["phase"] as? String == "now")
        let candidates = try #require(last["candidates"] as? [[String: Any]])
        #expect(!candidates.isEmpty && candidates.count <= 8)
        #expect(candidates.allSatisfy { Set($0.keys) == ["railway", "direction", "station", "phase", "score"] })
        let scores = candidates.compactMap { $0["score"] as? Double }
        #expect(scores == scores.sorted(by: >))
        let phases = Set(objects.compactMap { $0["phase"] as? String })
        #expect(phases == ["next", "soon", "now"])
    }

    @Test func theDefaultAlgorithmAddsNextStopArrivalConfidenceAndTrainType() async throws {
        let directory = try TemporaryDirectory()
        let cases = directory.path("cases")
        let simulated = try await ToolRunner.run([
            "simulate", "--railways", SharedPaths.caltrain, "--out", cases, "--count", "1", "--seed", "4", "--scenario",
            "caltrain",
        ])
        #expect(simulated.status == 0)
        let outcome = try await ToolRunner.run([
            "replay", "--railways", SharedPaths.caltrain, "--sessions", cases + "/sessions.sqlite",
        ])
        #expect(outcome.status == 0)
        let objects = try outcome.standardOutput.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let answered = objects.filter { $0["railway"] is String }
        #expect(answered.count > objects.count * 9 / 10)
        let last = try #require(answered.last)
        #expect((last["confidence"] as? Double).map { $0 > 0 && $0 <= 1 } == true)
        #expect(last["nextStop"] is String)
        #expect(last["eta"] is String)
        #expect(last["estimated"] as? Bool == false)
        #expect(answered.contains { $0["trainType"] is String }, "the stops tell the train type")
    }

    /// The text timeline of the Toyoko session with times at `offset`.
    func replayText(utcOffset offset: String) async throws -> ToolOutcome {
        let network = try Self.network.get()
        let directory = try TemporaryDirectory()
        let sessions = directory.path("sessions.sqlite")
        _ = try writeToyokoSession(to: sessions, network: network)
        return try await ToolRunner.run([
            "replay", "--railways", SharedPaths.tokyoRailways, "--sessions", sessions, "--format", "text", "--utc-offset", offset,
        ])
    }

    @Test func textIsATimelineOfChanges() async throws {
        let outcome = try await replayText(utcOffset: "+09:00")
        #expect(outcome.status == 0)
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        // The clock the times are on, said once at the top.
        #expect(lines.first?.hasPrefix("Session TOYOKO-1  2025-09-20 17:00:00 UTC+09:00  ") == true)
        #expect(lines.contains { $0.hasSuffix("Toyoko Line → Yokohama  Soon: Tsunashima") })
        #expect(lines.contains { $0.hasSuffix("Toyoko Line → Yokohama  Now: Tsunashima") })
        #expect(lines.last?.hasSuffix("Toyoko Line → Yokohama  Now: Kikuna") == true)
        #expect(lines.count < 40, "one line per change, not per fix")
    }

    @Test func explainSaysWhyTermByTerm() async throws {
        let network = try Self.network.get()
        let directory = try TemporaryDirectory()
        let sessions = directory.path("sessions.sqlite")
        let count = try writeToyokoSession(to: sessions, network: network)
        let base = ["replay", "--railways", SharedPaths.tokyoRailways, "--sessions", sessions, "--explain"]
        let text = try await ToolRunner.run(base + ["--format", "text", "--utc-offset", "+09:00"])
        #expect(text.status == 0)
        let lines = text.standardOutput.split(separator: "\n").map(String.init)
        let explained = lines.filter { $0.hasPrefix("      ") }
        #expect(!explained.isEmpty)
        #expect(explained.contains { $0.contains("Toyoko Line → ") })
        #expect(explained.contains { $0.contains("stops +") || $0.contains("stops -") })
        let jsonl = try await ToolRunner.run(base)
        let objects = try jsonl.standardOutput.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.count == count)
        let evidence = try #require(objects.last?["evidence"] as? [[String: Any]])
        #expect(evidence.first?["railway"] as? String == "Tokyu.Toyoko")
        #expect(evidence.first?["score"] as? Double == 0)
        #expect((evidence.first?["terms"] as? [String: Double]).map { !$0.isEmpty } == true)
    }

    @Test func aWesternOffsetIsTakenAsAValueNotAnOption() async throws {
        let outcome = try await replayText(utcOffset: "-07:00")
        #expect(outcome.status == 0, "\(outcome.standardError)")
        // 17:00 in Tokyo is 01:00 the same day at UTC−7.
        #expect(outcome.standardOutput.hasPrefix("Session TOYOKO-1  2025-09-20 01:00:00 UTC-07:00  "))
    }

    @Test func namedSessionsAreReplayedAloneAndUnknownOnesRejected() async throws {
        let network = try Self.network.get()
        let directory = try TemporaryDirectory()
        let sessions = directory.path("sessions.sqlite")
        _ = try writeToyokoSession(to: sessions, network: network)
        let unknown = try await ToolRunner.run([
            "replay", "--railways", SharedPaths.tokyoRailways, "--sessions", sessions, "--session", "NOPE",
        ])
        #expect(unknown.status == 2)
        #expect(unknown.standardOutput.isEmpty)
        #expect(unknown.standardError == "traintracker: error: \(sessions): no session with id 'NOPE'\n")
    }

    @Test func malformedFixesAreCountedInAWarningAndTheRestReplayed() async throws {
        let directory = try TemporaryDirectory()
        let sessions = directory.path("sessions.sqlite")
        let database = try SessionDatabase.create(path: sessions)
        let base = Timestamp(secondsSince1970: 1_758_355_200)
        func fix(_ id: String, _ latitude: Double, _ second: Double) -> RecordedFix {
            RecordedFix(
                id: id,
                location: Location(coordinate: Coordinate(latitude: latitude, longitude: 139.6), timestamp: base.adding(second)))
        }
        let fixes = [fix("a", 35.5, 0), fix("b", 95, 1), fix("c", 35.5, 2), fix("d", 35.5, 2), fix("e", 35.5, 1.5)]
        try database.insert(Session(id: "MESSY", startDate: base), fixes: fixes)
        let outcome = try await ToolRunner.run(["replay", "--railways", SharedPaths.tokyoRailways, "--sessions", sessions])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.split(separator: "\n").count == 3)
        #expect(
            outcome.standardError == """
                warning: \(sessions): session MESSY: skipped 2 fixes (1 invalid coordinate, 1 duplicate timestamp); \
                reordered 1 out-of-order fix

                """)
    }
}
