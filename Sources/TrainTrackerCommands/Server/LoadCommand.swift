import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import TrainTrackerCore
import TrainTrackerLab
import TrainTrackerStorage

/// `traintracker load`: simulated phones streaming to a running server.
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Stream phones at 1 Hz (simulated rides, or the rides of a session file) to a running server and measure it.",
        discussion: """
            Each phone has its own session and records one fix a second along a real ride; it uploads \
            every --upload-every seconds what it recorded since the last upload, phones spread evenly \
            over that interval. Prints JSON: fixes acknowledged per second, upload latency p50/p99, \
            errors, whether the server kept up (every fix acknowledged, p99 under a second), and the \
            server's resident memory per active session (from GET /v1/stats).

            With several --server, uploads are spread over them as a load balancer would (--split): \
            a server that refuses or drops a connection is out for the rest of the run and the \
            upload goes to the next one. --verify then reads every session back and checks that no \
            acknowledged fix was lost and that every answer a phone got is the replay's. \
            --timeline writes an SVG of the fixes acknowledged each second, by server.
            """
    )

    @OptionGroup var railways: RailwaysOption

    @Option(help: ArgumentHelp("A server, e.g. http://127.0.0.1:8080; repeat it for several instances.", valueName: "url"))
    var server: [String]

    @Option(help: "How uploads are spread over several servers: affinity (by session) or round-robin.")
    var split = LoadSplit.affinity

    @Flag(help: "Read every session back at the end: no acknowledged fix lost, every answer the replay's.")
    var verify = false

    @Option(help: ArgumentHelp("Write an SVG of the fixes acknowledged each second, by server.", valueName: "file.svg"))
    var timeline: String?

    @Option(
        help: ArgumentHelp(
            "A device token (the phones upload with it); repeat it for several devices, phones taking them in turn.",
            valueName: "token"))
    var deviceToken: [String]

    @Option(
        help: ArgumentHelp(
            "A session file whose rides the phones ride (a fix a second, at the rides' own times); default: simulated rides on a few busy lines.",
            valueName: "path"))
    var sessions: String?

    @Option(help: "Phones riding each train together (at one place along the ride), for riders as sensors.")
    var ridersPerTrain = 1

    @Flag(
        help:
            "The server shares riders' trains (serve --realtime-clock-from, --realtime): --verify checks that no acknowledged fix is lost, and counts answers that differ from a replay (which knows no feed) without failing."
    )
    var shared = false

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
            (1...100_000).contains(connections), (1...64).contains(server.count), (1...1_000).contains(ridersPerTrain),
            (1...100_000).contains(deviceToken.count)
        else {
            throw ValidationError(
                "--phones (1 to 100000), --seconds (1 to 86400), --upload-every (1 to 3600), --connections (1 to 100000), --riders-per-train (1 to 1000), the number of --server (1 to 64) or of --device-token (1 to 100000) is out of range"
            )
        }
        for url in server where !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
            throw ValidationError("--server \(url) is not an http:// or https:// address")
        }
    }

    func run() async throws {
        let rides = try sessions.map(Self.rides(in:)) ?? Self.rides(on: try railways.load())
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let targets = LoadTargets(servers: server, split: split, client: client)
        let before = try await Self.stats(targets: targets, token: adminToken)
        let run = "\(Int(Date().timeIntervalSince1970))"
        try await createSessions(run: run, rides: rides, targets: targets)
        let clock = ContinuousClock()
        let start = clock.now.advanced(by: .milliseconds(200))
        // Said whether or not a terminal shows progress: a script that kills a server mid-run
        // times it from here.
        StandardError.line("load: streaming \(phones) phones for \(seconds) s")
        let recorder = LoadRecorder(start: start, servers: server.count, keepsAnswers: verify)
        let progress = LoadProgress(total: seconds)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await progress.run(start: start, clock: clock, recorder: recorder) }
            for phone in 0..<phones {
                group.addTask {
                    await stream(
                        phone: phone, run: run, ride: rides[phone % rides.count], start: start, targets: targets,
                        recorder: recorder)
                }
            }
        }
        let elapsed = clock.now - start
        let after = try await Self.stats(targets: targets, token: adminToken)
        let summary = await recorder.summary()
        var verification: LoadVerification?
        if verify {
            verification = await LoadVerification.check(
                await recorder.acknowledgedUploads, phoneOf: { Int($0.split(separator: "-").last ?? "") ?? 0 }, targets: targets,
                adminToken: adminToken)
            verification?.answersMayDiffer = shared
        }
        try await client.shutdown()
        if let timeline {
            let picture = LoadTimeline.svg(summary: summary, servers: targets.servers)
            try CommandFailure.wrapping { () throws(StorageError) in try StagedFile.write(Data(picture.utf8), to: timeline) }
        }
        let up = await targets.up
        let down = targets.servers.indices.filter { !up.contains($0) }
        OutputSink.standardOutput().line(
            report(summary, elapsed: elapsed, before: before, after: after, down: down, verification: verification))
    }

    /// Creates every phone's session on its server, so the measured part is the stream.
    private func createSessions(run: String, rides: [[Location]], targets: LoadTargets) async throws {
        for first in stride(from: 0, to: phones, by: 256) {
            let created = await withTaskGroup(of: LoadTargets.Delivery.self) { group in
                for phone in first..<min(phones, first + 256) {
                    group.addTask {
                        let body = "{\"id\":\"load-\(run)-\(phone)\",\"startDate\":\"\(rides[0][0].timestamp.iso8601)\"}"
                        return await targets.deliver(
                            .POST, "/v1/sessions", body: body, token: deviceToken[phone % deviceToken.count], phone: phone)
                    }
                }
                return await group.reduce(into: [LoadTargets.Delivery]()) { $0.append($1) }
            }
            if let refused = created.first(where: { $0.status != .created }) {
                throw CommandFailure(
                    "a session could not be created: \(refused.status.map { "\($0.code)" } ?? "no server answered") \(refused.body.prefix(200))"
                )
            }
        }
    }

    /// Phone `phone` records a fix a second along `ride` and uploads every `uploadEvery`
    /// seconds, in its own phase of the interval, so phones are not in step.
    private func stream(
        phone: Int, run: String, ride: [Location], start: ContinuousClock.Instant, targets: LoadTargets, recorder: LoadRecorder
    ) async {
        let clock = ContinuousClock()
        let phase = Duration.milliseconds(Int64(phone * 1_000 * uploadEvery / phones))
        let session = "load-\(run)-\(phone)"
        var tick = uploadEvery
        while tick <= seconds {
            try? await Task.sleep(until: start.advanced(by: .seconds(tick)) + phase, clock: clock)
            let seconds = tick - uploadEvery..<tick
            let fixes = seconds.map { second -> String in
                let fix = ride[(phone / ridersPerTrain * 7 + second) % ride.count]
                let time = ride[0].timestamp.adding(Double(second))
                return
                    "{\"id\":\"\(session)-\(second)\",\"latitude\":\(fix.coordinate.latitude),"
                    + "\"longitude\":\(fix.coordinate.longitude),\"timestamp\":\"\(time.iso8601)\","
                    + "\"horizontalAccuracy\":\(fix.horizontalAccuracy ?? 10),\"speed\":\(fix.speed ?? -1),"
                    + "\"course\":\(fix.course ?? -1)}"
            }
            let sent = clock.now
            let delivery = await targets.deliver(
                .POST, "/v1/sessions/\(session)/locations", body: "{\"locations\":[\(fixes.joined(separator: ","))]}",
                token: deviceToken[phone % deviceToken.count], phone: phone)
            await recorder.record(
                session: session, fixIDs: seconds.map { "\(session)-\($0)" }, delivery: delivery, latency: clock.now - sent)
            tick += uploadEvery
        }
    }

    private func report(
        _ summary: LoadSummary, elapsed: Duration, before: ServerStats, after: ServerStats, down: [Int],
        verification: LoadVerification?
    ) -> String {
        var json = JSONObjectWriter()
        json.integer("phones", phones)
        json.integer("seconds", seconds)
        json.integer("uploadEverySeconds", uploadEvery)
        json.integer("servers", server.count)
        json.string("split", split.rawValue)
        json.integer("uploads", summary.uploads)
        json.integer("failedUploads", summary.failures)
        json.integer("uploadsSentAgain", summary.sentAgain)
        json.integer("uploadsAnsweredByAnotherServer", summary.moves)
        json.raw("serversDown", JSONObjectWriter.array(down.map { "\($0)" }))
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
        json.raw("acknowledgedPerSecond", JSONObjectWriter.array(summary.perSecond.map { "\($0.reduce(0, +))" }))
        json.integer("serverActiveSessions", after.active)
        json.number("serverResidentMegabytes", Double(after.resident) / 1_048_576)
        // Per session only when the same servers answered before and after.
        json.number(
            "serverKilobytesPerActiveSession",
            after.active > before.active && after.servers == before.servers
                ? Double(after.resident - before.resident) / 1_024 / Double(after.active - before.active) : nil)
        if let verification { json.raw("verification", verification.json) }
        return json.finish()
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

    /// The rides of session file `path`, each a fix a second from its first fix's time (the
    /// last fix at or before each second; at most a day of them).
    static func rides(in path: String) throws -> [[Location]] {
        let rides = try CommandFailure.wrapping { () throws(StorageError) -> [[Location]] in
            let database = try SessionDatabase.open(path: path)
            var rides: [[Location]] = []
            for summary in try database.sessions() {
                rides.append(try database.fixes(sessionID: summary.session.id).fixes.map(\.location))
            }
            return rides
        }.compactMap(Self.oneASecond)
        guard !rides.isEmpty else { throw CommandFailure("\(path): no session with fixes over at least two seconds") }
        return rides
    }

    /// `fixes` (in time order) as a fix a second from the first's time: each second the last fix
    /// at or before it, dated then. Nil for fewer than two seconds' worth.
    static func oneASecond(_ fixes: [Location]) -> [Location]? {
        guard let first = fixes.first?.timestamp, let last = fixes.last?.timestamp else { return nil }
        let span = Int(flooring: last.seconds(since: first), within: 0...86_400)
        guard span >= 1 else { return nil }
        var next = 0
        return (0...span).map { second in
            let time = first.adding(Double(second))
            while next + 1 < fixes.count, fixes[next + 1].timestamp <= time { next += 1 }
            var fix = fixes[next]
            fix.timestamp = time
            return fix
        }
    }

    /// The most sessions or bytes one server's stats may claim (a petabyte): 64 servers'
    /// sums stay far from overflowing.
    static let largestCount = 1 << 50

    /// The servers' sessions and memory, summed over those that answer.
    struct ServerStats {
        var active = 0
        var resident = 0
        var servers = 0
    }

    static func stats(targets: LoadTargets, token: String) async throws -> ServerStats {
        var total = ServerStats()
        for index in await targets.up {
            let url = targets.servers[index] + "/v1/stats"
            guard let (status, body) = try? await LoadTargets.send(.GET, url, body: nil, token: token, client: targets.client)
            else {
                continue
            }
            guard status == .ok, let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else {
                throw CommandFailure("\(url): \(status) (is the admin token right?)")
            }
            // Outside numbers: clamped, so no sum or difference of them can overflow.
            total.active += min(max(object["activeSessions"] as? Int ?? 0, 0), Self.largestCount)
            total.resident += min(max(object["residentBytes"] as? Int ?? 0, 0), Self.largestCount)
            total.servers += 1
        }
        guard total.servers > 0 else { throw CommandFailure("no server answers: \(targets.servers.joined(separator: ", "))") }
        return total
    }
}
