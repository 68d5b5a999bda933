import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TrainTrackerCore
import TrainTrackerServer
import TrainTrackerTestSupport

/// The published feed, read by real consumers: Google's Python `gtfs-realtime-bindings`
/// parses it, and `gtfs-rt-validator` checks it against Caltrain's GTFS and finds no error.
/// Both live in a Python virtual environment `.ci/run` makes (`TRAINTRACKER_PYTHON` names its
/// interpreter); without it these tests are skipped, unless `TRAINTRACKER_REQUIRE_GTFS_RT=1`.
@Suite(.serialized, .tags(.sharedData, .slow), .timeLimit(.minutes(10))) struct RealtimeConsumerTests {
    static let python: String? = {
        let environment = ProcessInfo.processInfo.environment
        let path = environment["TRAINTRACKER_PYTHON"] ?? ".build/gtfs-rt-venv/bin/python"
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()
    static let required = ProcessInfo.processInfo.environment["TRAINTRACKER_REQUIRE_GTFS_RT"] == "1"

    /// Runs `arguments` with the environment's Python; its exit status and output.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let python = try #require(Self.python, "no Python with gtfs-realtime-bindings: run .ci/run's set-up")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test(.enabled(if: python != nil || required)) func googlesBindingsParseItAndTheValidatorFindsNoError() async throws {
        let fixture = try RealtimeRoutesTests.Fixture()
        let (fixes, truth, _) = try RealtimeRoutesTests.ride.get()
        let directory = try TemporaryDirectory()
        try await buildApplication(fixture.settings).test(.router) { client in
            _ = try await RealtimeRoutesTests.ride(
                Array(fixes.prefix(30)), riders: [(fixture.phones[0], "C1", 0), (fixture.phones[1], "C2", 1)],
                clock: fixture.clock, client: client, batch: 1)
            for path in ["trip-updates", "vehicle-positions"] {
                let response = try await client.execute(
                    uri: "/v1/realtime/\(path)", method: .get, headers: ServerRoutesTests.headers(fixture.reader))
                try Data(response.body.readableBytesView).write(to: URL(fileURLWithPath: directory.path("\(path).pb")))
            }
        }
        let parse = try Self.run([
            "-c",
            """
            import sys
            from google.transit import gtfs_realtime_pb2
            for name in sys.argv[1:]:
                feed = gtfs_realtime_pb2.FeedMessage()
                feed.ParseFromString(open(name, 'rb').read())
                for entity in feed.entity:
                    trip = entity.trip_update.trip if entity.HasField('trip_update') else entity.vehicle.trip
                    stops = len(entity.trip_update.stop_time_update)
                    print(trip.trip_id, trip.start_date, stops, entity.vehicle.position.latitude)
            """,
            directory.path("trip-updates.pb"), directory.path("vehicle-positions.pb"),
        ])
        #expect(parse.status == 0, "\(parse.output)")
        let lines = parse.output.split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.hasPrefix(truth.trainID + " 2024") }, "\(parse.output)")
        // The validator reads GTFS as a zip.
        let zip = directory.path("caltrain.zip")
        let zipped = try Self.run([
            "-c",
            "import os, sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w') as z:\n"
                + "    [z.write(os.path.join(sys.argv[2], f), f) for f in sorted(os.listdir(sys.argv[2]))]",
            zip, SharedPaths.caltrain2024,
        ])
        #expect(zipped.status == 0, "\(zipped.output)")
        let at = try #require(fixes.prefix(30).last).location.timestamp.adding(5).iso8601
        let validator = URL(fileURLWithPath: try #require(Self.python)).deletingLastPathComponent().appendingPathComponent(
            "gtfs-rt-validator"
        ).path
        let validated = try Self.run([
            validator, "-gtfs", zip, "-tu", directory.path("trip-updates.pb"), "-vp", directory.path("vehicle-positions.pb"),
            "--at", at, "--out", directory.path("report"), "--fail-on-error",
        ])
        let reports = (try? FileManager.default.contentsOfDirectory(atPath: directory.path("report"))) ?? []
        let findings = reports.filter { $0.hasSuffix(".json") }.compactMap {
            try? String(contentsOfFile: directory.path("report/\($0)"), encoding: .utf8)
        }
        #expect(
            validated.status == 0, "gtfs-rt-validator: \(validated.output)\n\(findings.joined(separator: "\n").prefix(4_000))")
    }
}
