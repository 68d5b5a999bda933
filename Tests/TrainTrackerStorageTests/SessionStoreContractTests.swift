import Foundation
import Testing
import TrainTrackerCore
import TrainTrackerPostgres
import TrainTrackerStorage
import TrainTrackerTestSupport

/// The live server's store, the same suite for both: the SQLite file (the embedded default)
/// and PostgreSQL (a real server, a fresh database per test; see `TestPostgres`).
@Suite(.tags(.postgres)) struct SessionStoreContractTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    /// The kinds that run here: PostgreSQL only where one could be had (see the test below).
    static let kinds: [Kind] = TestPostgres.isAvailable ? Kind.allCases : [.sqlite]

    /// A fresh, empty store of `kind` (kept alive by `holder` for the test's length).
    static func store(_ kind: Kind, _ holder: TemporaryDirectory) async throws -> any SessionStore {
        switch kind {
        case .sqlite:
            return try SessionDatabase.openStore(path: holder.path("sessions.sqlite"))
        case .postgres:
            let name = "tt_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            try await PostgresSessionStore.createDatabase(named: name, at: try TestPostgres.address.get())
            return try await PostgresSessionStore.open(url: try TestPostgres.database(name))
        }
    }

    static let start = Timestamp(secondsSince1970: 1_758_355_200)
    static let limit = SessionDatabase.OpenSessionLimit(maximum: 2, idleSeconds: 3_600, perDay: 3)

    static func fixes(_ count: Int, prefix: String = "f", from first: Int = 0) -> [RecordedFix] {
        (first..<(first + count)).map { (index: Int) -> RecordedFix in
            let coordinate = Coordinate(latitude: 35.5 + Double(index) * 0.0001, longitude: 139.6)
            let accuracy: Double? = index % 3 == 0 ? nil : 8
            let speed: Double? = index % 4 == 0 ? nil : 12.5
            let altitude: Double? = index % 2 == 0 ? nil : 14
            let location = Location(
                coordinate: coordinate, timestamp: start.adding(Double(index)), horizontalAccuracy: accuracy, speed: speed,
                course: 90, altitude: altitude)
            return RecordedFix(id: "\(prefix)\(index)", location: location)
        }
    }

    @Test func postgreSQLRunsHereOrSaysWhyNot() throws {
        if case .failure(let unavailable) = TestPostgres.address {
            // Skipped only where no PostgreSQL can be started, and never in CI.
            #expect(!TestPostgres.isRequired, "no PostgreSQL for the store tests: \(unavailable)")
            withKnownIssue("no PostgreSQL here, so its store cases did not run: \(unavailable)") { throw unavailable }
        }
    }

    @Test(arguments: kinds)
    func aDeviceCreatesSessionsWithinItsLimits(kind: Kind) async throws {
        let holder = try TemporaryDirectory()
        let store = try await Self.store(kind, holder)
        let session = { (id: String) in Session(id: id, startDate: Self.start, notes: "n \(id)") }
        #expect(try await store.createSession(session("A"), owner: "phone-1", at: Self.start, limit: Self.limit) == .created)
        #expect(try await store.createSession(session("A"), owner: "phone-1", at: Self.start, limit: Self.limit) == .alreadyYours)
        #expect(try await store.createSession(session("A"), owner: "phone-2", at: Self.start, limit: Self.limit) == .taken)
        #expect(try await store.createSession(session("B"), owner: "phone-1", at: Self.start, limit: Self.limit) == .created)
        #expect(
            try await store.createSession(session("C"), owner: "phone-1", at: Self.start, limit: Self.limit) == .tooManyOpen(2))
        try await store.endSession("A")
        let (endedA, endedB) = (try await store.hasEnded("A"), try await store.hasEnded("B"))
        #expect(endedA && !endedB)
        #expect(try await store.createSession(session("C"), owner: "phone-1", at: Self.start, limit: Self.limit) == .created)
        try await store.endSession("B")
        #expect(
            try await store.createSession(session("D"), owner: "phone-1", at: Self.start, limit: Self.limit) == .tooManyToday(3))
        let (ownerA, ownerZ) = (try await store.owner(ofSession: "A"), try await store.owner(ofSession: "Z"))
        #expect(ownerA == "phone-1" && ownerZ == nil)
        let (existsC, existsZ) = (try await store.sessionExists("C"), try await store.sessionExists("Z"))
        #expect(existsC && !existsZ)
    }

    @Test(arguments: kinds)
    func aSessionStartsAtItsFirstFixNotAtTheServersClock(kind: Kind) async throws {
        let holder = try TemporaryDirectory()
        let store = try await Self.store(kind, holder)
        // Created today (no start given), for a ride recorded a year earlier.
        let today = Self.start.adding(365 * 86_400)
        #expect(
            try await store.createSession(Session(id: "OLD", startDate: today), owner: "phone-1", at: today, limit: Self.limit)
                == .created)
        _ = try await store.appending([SessionDatabase.FixBatch(sessionID: "OLD", fixes: Self.fixes(5, from: 10))], at: today)
        // An earlier batch moves the start back again; a later one leaves it.
        _ = try await store.appending([SessionDatabase.FixBatch(sessionID: "OLD", fixes: Self.fixes(3, from: 2))], at: today)
        _ = try await store.appending([SessionDatabase.FixBatch(sessionID: "OLD", fixes: Self.fixes(3, from: 40))], at: today)
        try await store.endSession("OLD")
        let listed = try #require(try await store.listedSessions().first { $0.summary.session.id == "OLD" })
        #expect(listed.summary.session.startDate == Self.start.adding(2))
        #expect(listed.summary.session.endDate == Self.start.adding(42))
        #expect((listed.summary.duration ?? -1) == 40)
    }

    @Test(arguments: kinds)
    func fixesAreStoredOnceAndReadBackAsTheyWere(kind: Kind) async throws {
        let holder = try TemporaryDirectory()
        let store = try await Self.store(kind, holder)
        for id in ["S1", "S2"] {
            _ = try await store.createSession(
                Session(id: id, startDate: Self.start), owner: "phone-1", at: Self.start, limit: Self.limit)
        }
        let batch = Self.fixes(30)
        // The same ids in two sessions are two fixes; a retried batch stores nothing; a fix
        // twice in one batch is stored once; a batch for a session not there writes nothing.
        let first = try await store.appending(
            [
                .init(sessionID: "S1", fixes: batch), .init(sessionID: "S2", fixes: Array(batch.prefix(5)) + [batch[0]]),
                .init(sessionID: "GONE", fixes: batch),
            ], at: Self.start)
        #expect(first.map(\.inserted) == [30, 5, 0] && first.map(\.duplicates) == [0, 1, 0])
        #expect(first[1].insertedPositions == [0, 1, 2, 3, 4] && first.map(\.sessionMissing) == [false, false, true])
        let retried = try await store.appending([.init(sessionID: "S1", fixes: Self.fixes(40))], at: Self.start)
        #expect(retried[0].inserted == 10 && retried[0].duplicates == 30 && retried[0].insertedPositions == Array(30..<40))
        let (read, report) = try await store.fixes(sessionID: "S1")
        #expect(report.skipped == 0)
        #expect(read.map(\.id) == Self.fixes(40).map(\.id))
        for (stored, sent) in zip(read, Self.fixes(40)) {
            #expect(
                stored.location.timestamp == sent.location.timestamp && stored.location.coordinate == sent.location.coordinate)
            #expect(
                stored.location.horizontalAccuracy == sent.location.horizontalAccuracy
                    && stored.location.altitude == sent.location.altitude)
            #expect(stored.location.speed == sent.location.speed && stored.location.course == sent.location.course)
        }
        // Ended at its last fix, by the phone's clock.
        try await store.endSession("S1")
        let listed = try await store.listedSessions()
        #expect(listed.map(\.summary.session.id) == ["S2", "S1"] || listed.map(\.summary.session.id) == ["S1", "S2"].reversed())
        let s1 = try #require(listed.first { $0.summary.session.id == "S1" })
        #expect(s1.summary.locationCount == 40 && s1.summary.fixSpan == 39 && s1.summary.session.endDate == Self.start.adding(39))
        #expect(s1.device == "phone-1" && s1.lastActivity == Self.start)
    }

    @Test(arguments: kinds)
    func aDeletedSessionIsGoneWithItsFixesAndTakesNoMore(kind: Kind) async throws {
        let holder = try TemporaryDirectory()
        let store = try await Self.store(kind, holder)
        _ = try await store.createSession(
            Session(id: "D1", startDate: Self.start), owner: "phone-1", at: Self.start, limit: Self.limit)
        _ = try await store.appending([.init(sessionID: "D1", fixes: Self.fixes(10))], at: Self.start)
        let activity = MotionActivity(
            id: "m1", startDate: Self.start, confidence: .high, stationary: true, sessionID: "D1")
        #expect(try await store.appending(motionActivities: [activity, activity]).inserted == 1)
        #expect(try await store.deleteSession("D1"))
        let again = try await store.deleteSession("D1")
        #expect(!again)
        let (exists, owner) = (try await store.sessionExists("D1"), try await store.owner(ofSession: "D1"))
        #expect(!exists && owner == nil)
        #expect(try await store.fixes(sessionID: "D1").fixes.isEmpty)
        #expect(try await store.appending([.init(sessionID: "D1", fixes: Self.fixes(3))], at: Self.start)[0].sessionMissing)
        #expect(try await store.appending(motionActivities: [activity]).sessionMissing)
        // Its id may be taken afresh by another device, with nothing of the old one.
        #expect(
            try await store.createSession(
                Session(id: "D1", startDate: Self.start), owner: "phone-2", at: Self.start, limit: Self.limit) == .created)
        #expect(try await store.appending([.init(sessionID: "D1", fixes: Self.fixes(10))], at: Self.start)[0].inserted == 10)
    }

    @Test(arguments: kinds)
    func tokensWorkUntilTheyExpireOrAreRevoked(kind: Kind) async throws {
        let holder = try TemporaryDirectory()
        let store = try await Self.store(kind, holder)
        try await store.storeToken(
            hash: "aaaaaa111111" + String(repeating: "0", count: 52), grant: AccessGrant(role: .admin, name: "ops"),
            at: Self.start, expiresAt: nil)
        try await store.storeToken(
            hash: "aaaaaa222222" + String(repeating: "0", count: 52), grant: AccessGrant(role: .device, name: "p1"),
            at: Self.start, expiresAt: Self.start.adding(60))
        let device = "aaaaaa222222" + String(repeating: "0", count: 52)
        #expect(try await store.grant(tokenHash: device, at: Self.start.adding(59)) == AccessGrant(role: .device, name: "p1"))
        #expect(try await store.grant(tokenHash: device, at: Self.start.adding(60)) == nil, "expired")
        #expect(try await store.grant(tokenHash: "unknown", at: Self.start) == nil)
        #expect(try await store.tokens().map(\.id) == ["aaaaaa111111", "aaaaaa222222"])
        await #expect(throws: StorageError.self) { try await store.revokeTokens(idPrefix: "aaaaaa", device: nil, at: Self.start) }
        let revoked = try await store.revokeTokens(idPrefix: "aaaaaa1", device: nil, at: Self.start.adding(5))
        #expect(revoked.map(\.id) == ["aaaaaa111111"] && revoked[0].revokedAt == Self.start.adding(5))
        #expect(
            try await store.grant(tokenHash: "aaaaaa111111" + String(repeating: "0", count: 52), at: Self.start.adding(6)) == nil)
        #expect(try await store.revokeTokens(idPrefix: nil, device: "p1", at: Self.start).map(\.id) == ["aaaaaa222222"])
    }
}

/// PostgreSQL alone: migrations, addresses.
@Suite(.enabled(if: TestPostgres.isAvailable, "no PostgreSQL could be started here"), .tags(.postgres)) struct PostgresStoreTests
{
    @Test func instancesStartingTogetherApplyTheMigrationsOnce() async throws {
        let name = "tt_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await PostgresSessionStore.createDatabase(named: name, at: try TestPostgres.address.get())
        let url = try TestPostgres.database(name)
        // Four instances at once: one applies, the others wait and find the schema there.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { _ = try await PostgresSessionStore.open(url: url) } }
            try await group.waitForAll()
        }
        let store = try await PostgresSessionStore.open(url: url)
        #expect(try await store.listedSessions().isEmpty)
    }

    @Test(arguments: [
        ("postgres://host/db", "names no user"), ("postgres://u@host/", "names no database"),
        ("postgres://u@host/db?sslmode=maybe", "sslmode must be"), ("mysql://u@host/db", "not a postgres:// address"),
    ])
    func aBadAddressIsNamedWithoutItsPassword(url: String, problem: String) async {
        await #expect {
            _ = try await PostgresSessionStore.open(url: url)
        } throws: { error in
            "\(error)".contains(problem)
        }
    }

    @Test func aPasswordNeverReachesAMessage() async throws {
        let cluster = try TestPostgres.address.get()
        let wrong = cluster.replacingOccurrences(of: "traintracker@", with: "nobody:s3cret@")
        await #expect {
            _ = try await PostgresSessionStore.open(url: wrong, connectTimeout: 2)
        } throws: { error in
            !"\(error)".contains("s3cret") && "\(error)".contains("nobody:***@")
        }
    }
}
