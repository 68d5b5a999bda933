import Foundation
import Testing
import TrainTrackerPostgres
import TrainTrackerTestSupport

/// The server on PostgreSQL as an operator runs it: tokens made with the command-line tool in
/// the database, `serve --db postgres://…`, a phone uploading a ride; the answers are those of
/// the same ride on the SQLite store, byte for byte.
@Suite(
    .serialized, .enabled(if: TestPostgres.isAvailable, "no PostgreSQL could be started here"),
    .tags(.sharedData, .postgres, .slow), .timeLimit(.minutes(10)))
struct PostgresServerTests {
    /// A fresh database in the test cluster, its address.
    static func freshDatabase() async throws -> String {
        let name = "tt_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await PostgresSessionStore.createDatabase(named: name, at: try TestPostgres.address.get())
        return try TestPostgres.database(name)
    }

    /// Uploads the Toyoko ride as session `id` to a server on `db` and returns its results.
    static func ride(on db: String, session id: String) async throws -> String {
        let admin = try LiveServerTests.token(["--admin"], db: db)
        let phone = try LiveServerTests.token(["--device", "phone-1"], db: db)
        let server = try ServerProcess(railways: SharedPaths.tokyoRailways, db: db)
        defer { server.stop() }
        let client = APIClient(server: server, token: phone)
        #expect(
            try await client.request(.POST, "/v1/sessions", body: "{\"id\":\"\(id)\",\"startDate\":\"2025-09-20T08:00:00Z\"}")
                .status == .created)
        for body in try LiveServerTests.rideBatches(prefix: id, batch: 50) {
            #expect(try await client.request(.POST, "/v1/sessions/\(id)/locations", body: body).status == .ok)
        }
        // A retried batch stores nothing twice.
        let retry = try await client.request(
            .POST, "/v1/sessions/\(id)/locations", body: try LiveServerTests.rideBatches(prefix: id, batch: 50)[0])
        #expect(retry.json?["accepted"] as? Int == 0 && retry.json?["duplicates"] as? Int == 50)
        #expect(try await client.request(.POST, "/v1/sessions/\(id)/end").status == .ok)
        let results = try await APIClient(server: server, token: admin).request(.GET, "/v1/sessions/\(id)/results")
        #expect(results.status == .ok)
        return results.body
    }

    @Test func aRideOnPostgreSQLIsAnsweredAsOnSQLite() async throws {
        let postgres = try await Self.ride(on: try await Self.freshDatabase(), session: "PG-1")
        let directory = try TemporaryDirectory()
        let sqlite = try await Self.ride(on: directory.path("sessions.sqlite"), session: "PG-1")
        #expect(postgres.count > 100_000)
        #expect(postgres == sqlite)
    }

    @Test func tokensAreListedAndRevokedInTheDatabase() async throws {
        let db = try await Self.freshDatabase()
        _ = try LiveServerTests.token(["--device", "phone-9"], db: db)
        let listed = await try ToolRunner.run(["token", "list", "--db", db])
        #expect(listed.status == 0 && listed.standardOutput.contains("device\tphone-9"), "\(listed.standardError)")
        let revoked = await try ToolRunner.run(["token", "revoke", "--db", db, "--device", "phone-9"])
        #expect(revoked.status == 0 && revoked.standardOutput.contains("revoked"))
        // A wrong password is named without it, and nothing else is said.
        let wrong = db.replacingOccurrences(of: "traintracker@", with: "nobody:hunter2@")
        let refused = await try ToolRunner.run(["token", "list", "--db", wrong])
        #expect(
            refused.status != 0 && !refused.standardError.contains("hunter2") && refused.standardError.contains("nobody:***@"))
    }
}

/// Two instances on one PostgreSQL: uploads alternate between them (a load balancer without
/// affinity), then one is killed and the other carries on; every answer is the one an
/// uninterrupted replay of the stored fixes gives.
@Suite(
    .serialized, .enabled(if: TestPostgres.isAvailable, "no PostgreSQL could be started here"),
    .tags(.sharedData, .postgres, .slow), .timeLimit(.minutes(10)))
struct TwoInstancesTests {
    @Test func uploadsToEitherInstanceAreAnsweredAsOneReplayEvenAfterOneIsKilled() async throws {
        let db = try await PostgresServerTests.freshDatabase()
        let admin = try LiveServerTests.token(["--admin"], db: db)
        let phone = try LiveServerTests.token(["--device", "phone-1"], db: db)
        let (first, second) = (
            try ServerProcess(railways: SharedPaths.tokyoRailways, db: db),
            try ServerProcess(railways: SharedPaths.tokyoRailways, db: db)
        )
        defer { second.stop() }
        let clients = [APIClient(server: first, token: phone), APIClient(server: second, token: phone)]
        #expect(
            try await clients[0].request(.POST, "/v1/sessions", body: #"{"id":"TWO-1","startDate":"2025-09-20T08:00:00Z"}"#)
                .status == .created)
        let batches = try LiveServerTests.rideBatches(prefix: "TWO-1", batch: 20)
        var answers: [(locationID: String, result: [String: Any])] = []
        for (index, body) in batches.enumerated() {
            // Round robin, until the first instance is killed a third of the way through.
            if index == batches.count / 3 { first.kill() }
            let client = index < batches.count / 3 ? clients[index % 2] : clients[1]
            let reply = try await client.request(.POST, "/v1/sessions/TWO-1/locations", body: body)
            #expect(reply.status == .ok, "\(reply.body)")
            let result = try #require(reply.json?["result"] as? [String: Any])
            answers.append((try #require(result["locationID"] as? String), result))
        }
        // The uninterrupted replay, from the store.
        let replayed = try await APIClient(server: second, token: admin).request(.GET, "/v1/sessions/TWO-1/results")
        let results = try #require(replayed.json?["results"] as? [[String: Any]])
        let byFix = Dictionary(
            results.compactMap { item in (item["locationID"] as? String).map { ($0, item) } }, uniquingKeysWith: { a, _ in a })
        #expect(answers.count == batches.count)
        for (locationID, answer) in answers {
            let expected = try #require(byFix[locationID])
            for key in ["railway", "direction", "station", "phase", "nextStop", "eta", "confidence"] {
                #expect("\(answer[key] ?? "nil")" == "\(expected[key] ?? "nil")", "\(key) at \(locationID)")
            }
        }
        let stats = try await APIClient(server: second, token: admin).request(.GET, "/v1/stats")
        #expect((stats.json?["trackerRebuilds"] as? Int ?? 0) > 0, "the second instance caught up from the store")
    }
}

/// `export-sessions`: the server's PostgreSQL sessions as an Eki file every tool reads.
@Suite(
    .enabled(if: TestPostgres.isAvailable, "no PostgreSQL could be started here"), .tags(.sharedData, .postgres, .slow),
    .timeLimit(.minutes(10)))
struct ExportSessionsTests {
    @Test func sessionsOnPostgreSQLAreExportedForReplay() async throws {
        let db = try await PostgresServerTests.freshDatabase()
        let directory = try TemporaryDirectory()
        let results = try await PostgresServerTests.ride(on: db, session: "EXP-1")
        let out = directory.path("rides.sqlite")
        let exported = await try ToolRunner.run(["export-sessions", "--db", db, "--out", out])
        #expect(exported.status == 0, "\(exported.standardError)")
        #expect(exported.standardError.contains("exported 1 sessions, 408 fixes"), "\(exported.standardError)")
        // Every tool reads it: replay answers as the server did.
        let replay = await try ToolRunner.run(["replay", "--railways", SharedPaths.tokyoRailways, "--sessions", out])
        #expect(replay.status == 0)
        let lines = replay.standardOutput.split(separator: "\n")
        #expect(lines.count == 408)
        let served = try #require(
            (try JSONSerialization.jsonObject(with: Data(results.utf8)) as? [String: Any])?["results"] as? [[String: Any]])
        let last = try #require(try JSONSerialization.jsonObject(with: Data(lines[lines.count - 1].utf8)) as? [String: Any])
        for key in ["locationID", "railway", "direction", "station", "phase", "nextStop", "eta"] {
            #expect("\(last[key] ?? "nil")" == "\(served[served.count - 1][key] ?? "nil")", "\(key)")
        }
        // Again without --force: refused, the file left as it was; --since after the ride: none.
        let again = await try ToolRunner.run(["export-sessions", "--db", db, "--out", out])
        #expect(again.status != 0 && again.standardError.contains("--force"))
        let later = await try ToolRunner.run(["export-sessions", "--db", db, "--out", out, "--force", "--since", "2030-01-01"])
        #expect(later.status == 0 && later.standardError.contains("exported 0 sessions"))
    }
}

/// Live streams across instances: an operator follows a session on one instance while the
/// phone uploads to the other; the stream carries every answer, the replay's byte for byte,
/// and ends when the session ends there.
@Suite(
    .enabled(if: TestPostgres.isAvailable, "no PostgreSQL could be started here"), .tags(.sharedData, .postgres, .slow),
    .timeLimit(.minutes(10)))
struct LiveAcrossInstancesTests {
    @Test func aStreamOnOneInstanceFollowsUploadsToTheOther() async throws {
        let db = try await PostgresServerTests.freshDatabase()
        let admin = try LiveServerTests.token(["--admin"], db: db)
        let phoneToken = try LiveServerTests.token(["--device", "phone-1"], db: db)
        let (uploads, watched) = (
            try ServerProcess(railways: SharedPaths.tokyoRailways, db: db),
            try ServerProcess(railways: SharedPaths.tokyoRailways, db: db)
        )
        defer {
            uploads.stop()
            watched.stop()
        }
        let phone = APIClient(server: uploads, token: phoneToken)
        #expect(
            try await phone.request(.POST, "/v1/sessions", body: #"{"id":"FAR-1","startDate":"2025-09-20T08:00:00Z"}"#).status
                == .created)
        let (opened, open) = AsyncStream<Void>.makeStream()
        let listening = Task {
            try await APIClient(server: watched, token: admin).events("/v1/sessions/FAR-1/live", within: 90) { open.yield() }
        }
        for await _ in opened { break }
        for body in try LiveServerTests.rideBatches(prefix: "FAR-1") {
            #expect(try await phone.request(.POST, "/v1/sessions/FAR-1/locations", body: body).status == .ok)
        }
        #expect(try await phone.request(.POST, "/v1/sessions/FAR-1/end").status == .ok)
        // The stream ends by itself when the other instance sees the session ended (or the
        // request's deadline fails the test).
        let (status, streamed, text) = try await listening.value
        #expect(status == .ok)
        #expect(text.contains("event: end"))
        let directory = try TemporaryDirectory()
        let out = directory.path("rides.sqlite")
        await #expect(try ToolRunner.run(["export-sessions", "--db", db, "--out", out]).status == 0)
        let replay = await try ToolRunner.run([
            "replay", "--railways", SharedPaths.tokyoRailways, "--sessions", out, "--session", "FAR-1",
        ])
        let replayed = replay.standardOutput.split(separator: "\n").map(String.init)
        #expect(replayed.count > 300)
        #expect(streamed == replayed)
    }
}
