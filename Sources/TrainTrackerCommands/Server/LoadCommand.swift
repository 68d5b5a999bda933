import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import TrainTrackerCore
import TrainTrackerLab

/// `traintracker load`: simulated phones streaming to a running server.
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Stream simulated phones at 1 Hz to a running server and measure it.",
        discussion: """
            Each phone has its own session and records one fix a second along a real ride; it uploads \
            every --upload-every seconds what it recorded since the last upload, phones spread evenly \
            over that interval. Prints JSON: fixes acknowledged per second, upload latency p50/p99, \
            errors, whether the server kept up (every fix acknowledged, p99 under a second), and the \
            server's resident memory per active session (from GET /v1/stats).
            """
    )

    @OptionGroup var railways: RailwaysOption

    @Option(help: ArgumentHelp("The server, e.g. http://127.0.0.1:8080.", valueName: "url"))
    var server: String

    @Option(help: ArgumentHelp("A device token (the phones upload with it).", valueName: "token"))
    var deviceToken: String

    @Option(help: ArgumentHelp("An admin token (to read the server's memory).", valueName: "token"))
    var adminToken: String

    @Option(help: "How many phones.")
    var phones = 100

    @Option(help: "How long to stream, in seconds.")
    var seconds = 30

    @Option(help: "Seconds between a phone's uploads (1: every fix as it comes).")
    var uploadEvery = 1

    @Option(help: "Connections to the server, shared by the phones.")
    var connections = 512

    func validate() throws {
        // Bounded, so the schedule's arithmetic (phone × 1000 × upload-every) cannot overflow.
        guard (1...100_000).contains(phones), (1...86_400).contains(seconds), (1...3_600).contains(uploadEvery),
            (1...100_000).contains(connections)
        else {
            throw ValidationError(
                "--phones (1 to 100000), --seconds (1 to 86400), --upload-every (1 to 3600) and --connections (1 to 100000) are out of range"
            )
        }
    }

    func run() async throws {
        let rides = try Self.rides(on: try railways.load())
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let recorder = LoadRecorder()
        let base = server.hasSuffix("/") ? String(server.dropLast()) : server
        let before = try await Self.stats(client: client, server: base, token: adminToken)
        let run = "\(Int(Date().timeIntervalSince1970))"
        // Sessions first, so the measured part is the stream.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for phone in 0..<phones {
                group.addTask {
                    let body = "{\"id\":\"load-\(run)-\(phone)\",\"startDate\":\"\(rides[0][0].timestamp.iso8601)\"}"
                    _ = try await Self.post(client: client, url: "\(base)/v1/sessions", token: deviceToken, body: body)
                }
                if phone % 256 == 255 { try await group.waitForAll() }
            }
            try await group.waitForAll()
        }
        let clock = ContinuousClock()
        let start = clock.now.advanced(by: .milliseconds(200))
        let progress = LoadProgress(total: seconds)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await progress.run(start: start, clock: clock, recorder: recorder) }
            for phone in 0..<phones {
                group.addTask {
                    let ride = rides[phone % rides.count]
                    // Phones are not in step: their uploads spread evenly over the upload interval.
                    let phase = Duration.milliseconds(Int64(phone * 1_000 * uploadEvery / phones))
                    let session = "load-\(run)-\(phone)"
                    var tick = uploadEvery
                    while tick <= seconds {
                        try await Task.sleep(until: start.advanced(by: .seconds(tick)) + phase, clock: clock)
                        let fixes = (tick - uploadEvery..<tick).map { second -> String in
                            let fix = ride[(phone * 7 + second) % ride.count]
                            let time = ride[0].timestamp.adding(Double(second))
                            return
                                "{\"id\":\"\(session)-\(second)\",\"latitude\":\(fix.coordinate.latitude),"
                                + "\"longitude\":\(fix.coordinate.longitude),\"timestamp\":\"\(time.iso8601)\","
                                + "\"horizontalAccuracy\":\(fix.horizontalAccuracy ?? 10),\"speed\":\(fix.speed ?? -1),"
                                + "\"course\":\(fix.course ?? -1)}"
                        }
                        let sent = clock.now
                        let ok =
                            (try? await Self.post(
                                client: client, url: "\(base)/v1/sessions/\(session)/locations", token: deviceToken,
                                body: "{\"locations\":[\(fixes.joined(separator: ","))]}")) == .ok
                        await recorder.record(latency: clock.now - sent, fixes: ok ? fixes.count : 0, ok: ok)
                        tick += uploadEvery
                    }
                }
            }
            try await group.waitForAll()
        }
        let elapsed = clock.now - start
        let after = try await Self.stats(client: client, server: base, token: adminToken)
        try await client.shutdown()
        let summary = await recorder.summary()
        var json = JSONObjectWriter()
        json.integer("phones", phones)
        json.integer("seconds", seconds)
        json.integer("uploadEverySeconds", uploadEvery)
        json.integer("uploads", summary.uploads)
        json.integer("failedUploads", summary.failures)
        json.integer("fixesAcknowledged", summary.fixes)
        json.number("fixesPerSecond", Double(summary.fixes) / elapsed.seconds)
        json.number("expectedFixesPerSecond", Double(phones))
        // Kept up: every fix acknowledged, and no upload waited a second or more.
        let keptUp =
            summary.failures == 0 && summary.fixes == phones * (seconds / uploadEvery) * uploadEvery
            && (summary.percentile(0.99) ?? .infinity) < 1_000
        json.raw("keptUp", keptUp ? "true" : "false")
        json.number("latencyP50Milliseconds", summary.percentile(0.5))
        json.number("latencyP99Milliseconds", summary.percentile(0.99))
        json.number("latencyMaxMilliseconds", summary.percentile(1))
        json.integer("serverActiveSessions", after.active)
        json.number("serverResidentMegabytes", Double(after.resident) / 1_048_576)
        json.number(
            "serverKilobytesPerActiveSession",
            after.active > before.active
                ? Double(after.resident - before.resident) / 1_024 / Double(after.active - before.active) : nil)
        OutputSink.standardOutput().line(json.finish())
    }

    /// Rides on a few busy Tokyo lines (or the first railways of another network), one fix a second.
    static func rides(on network: RailwayNetwork) throws -> [[Location]] {
        let simulator = JourneySimulator(network: network)
        let start = Timestamp(secondsSince1970: 1_758_520_800)
        var rides: [[Location]] = []
        let preferred = [
            "Tokyu.Toyoko", "JR-East.Yamanote", "JR-East.ChuoRapid", "Keio.Keio", "Odakyu.Odawara", "JR-East.Tokaido",
        ]
        let railways = preferred.compactMap { network.railway(id: $0) } + network.railways.prefix(6)
        for railway in railways.prefix(6) where railway.stationIDs.count >= 2 {
            let ride = try? simulator.journey(
                on: railway.id, from: railway.stationIDs[0], to: railway.stationIDs[min(6, railway.stationIDs.count - 1)],
                start: start)
            if let ride, !ride.isEmpty { rides.append(ride) }
        }
        guard !rides.isEmpty else { throw CommandFailure("no railway to simulate rides on") }
        return rides
    }

    static func post(client: HTTPClient, url: String, token: String, body: String) async throws -> HTTPResponseStatus {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await client.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
        return response.status
    }

    static func stats(client: HTTPClient, server: String, token: String) async throws -> (active: Int, resident: Int) {
        var request = HTTPClientRequest(url: "\(server)/v1/stats")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 16)
        guard response.status == .ok,
            let object = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any]
        else { throw CommandFailure("\(server)/v1/stats: \(response.status) (is the admin token right?)") }
        return (object["activeSessions"] as? Int ?? 0, object["residentBytes"] as? Int ?? 0)
    }
}

/// Upload outcomes, gathered from every phone.
actor LoadRecorder {
    private var latencies: [Double] = []
    private var failures = 0
    private var fixes = 0

    func record(latency: Duration, fixes: Int, ok: Bool) {
        latencies.append(latency.seconds * 1_000)
        self.fixes += fixes
        if !ok { failures += 1 }
    }

    var acknowledged: Int { fixes }

    func summary() -> LoadSummary {
        LoadSummary(latencies: latencies.sorted(), failures: failures, fixes: fixes)
    }
}

struct LoadSummary: Sendable {
    var latencies: [Double]
    var failures: Int
    var fixes: Int
    var uploads: Int { latencies.count }

    func percentile(_ share: Double) -> Double? {
        guard !latencies.isEmpty else { return nil }
        return latencies[min(latencies.count - 1, Int((Double(latencies.count) * share).rounded(.down)))]
    }
}

/// A progress bar on stderr (when it is a terminal) while the phones stream.
struct LoadProgress: Sendable {
    let total: Int

    func run(start: ContinuousClock.Instant, clock: ContinuousClock, recorder: LoadRecorder) async {
        var bar = ProgressBar(label: "load", total: total)
        for second in 1...total {
            try? await Task.sleep(until: start.advanced(by: .seconds(second)), clock: clock)
            bar.update(second, detail: "\(await recorder.acknowledged) fixes acknowledged")
        }
        bar.finish()
    }
}
