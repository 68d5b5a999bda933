import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TrainTrackerCore
import TrainTrackerServer
import TrainTrackerStorage
import TrainTrackerTestSupport

/// Tokens that expire and are revoked, and the viewer's login cookie.
@Suite struct AccessTests {
    typealias Fixture = ServerRoutesTests.Fixture
    static let headers = ServerRoutesTests.headers
    static let now = Timestamp(secondsSince1970: Date().timeIntervalSince1970)

    @Test func aRevokedTokenIsRefusedOnItsNextRequest() async throws {
        let fixture = try Fixture()
        try await buildApplication(fixture.settings).test(.router) { client in
            try await client.execute(uri: "/v1/config", method: .get, headers: Self.headers(fixture.phone)) { response in
                #expect(response.status == .ok)
            }
            // Revoked by another process (the command line), between two requests.
            let revoked = try fixture.store.revokeTokens(device: "phone-1", at: Self.now)
            #expect(revoked.map(\.grant.name) == ["phone-1"])
            try await client.execute(uri: "/v1/config", method: .get, headers: Self.headers(fixture.phone)) { response in
                #expect(response.status == .unauthorized)
                #expect(String(buffer: response.body).contains("unknown, revoked or expired token"))
            }
            // The other device carries on.
            try await client.execute(uri: "/v1/config", method: .get, headers: Self.headers(fixture.otherPhone)) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test func anExpiredTokenIsRefused() async throws {
        let fixture = try Fixture()
        let expired = try AccessTokens.create(
            AccessGrant(role: .device, name: "old"), in: fixture.store, at: Self.now.adding(-7_200),
            expiresAt: Self.now.adding(-3_600))
        let lasting = try AccessTokens.create(
            AccessGrant(role: .device, name: "new"), in: fixture.store, at: Self.now, expiresAt: Self.now.adding(3_600))
        try await buildApplication(fixture.settings).test(.router) { client in
            try await client.execute(uri: "/v1/config", method: .get, headers: Self.headers(expired)) { response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/v1/config", method: .get, headers: Self.headers(lasting)) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test func revokingNeedsAnUnambiguousID() throws {
        let fixture = try Fixture()
        let tokens = try fixture.store.tokens()
        #expect(tokens.count == 3 && tokens.allSatisfy { $0.id.count == 12 && $0.revokedAt == nil })
        #expect(throws: StorageError.self) { try fixture.store.revokeTokens(idPrefix: "abc", at: Self.now) }
        #expect(throws: StorageError.self) { try fixture.store.revokeTokens(idPrefix: "zzzzzz", at: Self.now) }
        let admin = try #require(tokens.first { $0.grant.role == .admin })
        #expect(try fixture.store.revokeTokens(idPrefix: admin.id, at: Self.now).map(\.id) == [admin.id])
        #expect(try fixture.store.grant(tokenHash: AccessTokens.hash(fixture.admin), at: Self.now) == nil)
        #expect(try fixture.store.revokeTokens(idPrefix: admin.id, at: Self.now).isEmpty, "revoked once")
    }

    @Test func theViewerLogsInWithAnHttpOnlyStrictCookieThatEndsWithItsToken() async throws {
        let fixture = try Fixture()
        try await buildApplication(fixture.settings).test(.router) { client in
            // A device token does not open the viewer.
            try await client.execute(uri: "/v1/login", method: .post, headers: Self.headers(fixture.phone)) { response in
                #expect(response.status == .forbidden)
                #expect(response.headers[.setCookie] == nil)
            }
            let cookie = try await client.execute(uri: "/v1/login", method: .post, headers: Self.headers(fixture.admin)) {
                response in
                #expect(response.status == .ok)
                let header = try #require(response.headers[.setCookie])
                #expect(header.contains("HttpOnly") && header.contains("SameSite=Strict") && header.contains("Path=/"))
                #expect(!header.contains(fixture.admin), "the cookie is not the token")
                return String(try #require(header.split(separator: ";").first))
            }
            // The cookie alone reads sessions, and nothing is left in the page's URL or storage to steal.
            try await client.execute(uri: "/v1/sessions", method: .get, headers: [.cookie: cookie]) { response in
                #expect(response.status == .ok)
            }
            // Logged out, the cookie is worthless.
            _ = try await client.execute(uri: "/v1/logout", method: .post, headers: [.cookie: cookie])
            try await client.execute(uri: "/v1/sessions", method: .get, headers: [.cookie: cookie]) { response in
                #expect(response.status == .unauthorized)
            }
            // A new login, then the token is revoked: the cookie stops working too.
            let second = try await client.execute(uri: "/v1/login", method: .post, headers: Self.headers(fixture.admin)) {
                response in String(response.headers[.setCookie]?.split(separator: ";").first ?? "")
            }
            _ = try fixture.store.revokeTokens(
                idPrefix: String(AccessTokens.hash(fixture.admin).prefix(12)), at: Self.now)
            try await client.execute(uri: "/v1/sessions", method: .get, headers: [.cookie: second]) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }

    @Test func aLoginTicketWorksOnceAndCarriesNoToken() async throws {
        let fixture = try Fixture()
        try await buildApplication(fixture.settings).test(.router) { client in
            let ticket = try await client.execute(
                uri: "/v1/login-tickets", method: .post, headers: Self.headers(fixture.admin)
            ) { response in
                #expect(response.status == .created)
                return try #require(try ServerRoutesTests.object(response.body)["ticket"] as? String)
            }
            // Fetching the link (as a link previewer would) uses nothing up: the page's script redeems it.
            try await client.execute(uri: "/login?ticket=\(ticket)&session=S1", method: .get) { response in
                #expect(response.status == .ok && response.headers[.setCookie] == nil)
                #expect(String(buffer: response.body).contains("TrainTracker Session Viewer"))
            }
            let body = ByteBuffer(string: "{\"ticket\":\"\(ticket)\"}")
            try await client.execute(uri: "/v1/login", method: .post, body: body) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.setCookie]?.contains("HttpOnly") == true)
            }
            try await client.execute(uri: "/v1/login", method: .post, body: body) { response in
                #expect(response.status == .unauthorized, "a ticket works once")
            }
            try await client.execute(uri: "/v1/login-tickets", method: .post, headers: Self.headers(fixture.phone)) {
                response in #expect(response.status == .forbidden)
            }
        }
    }
}

/// The operator's side of tokens: `token list` and `token revoke`.
@Suite struct TokenCommandTests {
    @Test func tokensAreListedWithoutThemselvesAndRevokedByIDOrDevice() throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("sessions.sqlite")
        let admin = try LiveServerTests.token(["--admin", "--expires-in", "90d"], db: db)
        let phone = try LiveServerTests.token(["--device", "phone-1"], db: db)
        var list = try ToolRunner.run(["token", "list", "--db", db])
        #expect(list.status == 0)
        let rows = list.standardOutput.split(separator: "\n").dropFirst().map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.map { $0[1] } == ["admin", "device"] && rows.allSatisfy { $0.last == "valid" })
        #expect(rows[0][4] != "never" && rows[1][4] == "never")
        #expect(!list.standardOutput.contains(admin) && !list.standardOutput.contains(phone))
        let revoked = try ToolRunner.run(["token", "revoke", "--db", db, "--device", "phone-1"])
        #expect(revoked.status == 0 && revoked.standardOutput.contains("revoked \(rows[1][0]) device phone-1"))
        list = try ToolRunner.run(["token", "list", "--db", db])
        #expect(
            list.standardOutput.contains("phone-1\t")
                && list.standardOutput.split(separator: "\n").last?.hasSuffix("revoked") == true)
        let ambiguous = try ToolRunner.run(["token", "revoke", "--db", db, "abc"])
        #expect(ambiguous.status == 2 && ambiguous.standardError.contains("at least 6 hex digits"))
        let byID = try ToolRunner.run(["token", "revoke", "--db", db, String(rows[0][0].prefix(8))])
        #expect(byID.status == 0 && byID.standardOutput.contains("admin"))
        let none = try ToolRunner.run(["token", "revoke", "--db", db, String(rows[0][0].prefix(8))])
        #expect(none.status == 2 && none.standardError.contains("no valid token matches"))
        let badExpiry = try ToolRunner.run(["token", "create", "--db", db, "--admin", "--expires-in", "1e300d"])
        #expect(badExpiry.status != 0 && badExpiry.standardError.contains("--expires-in"))
    }

    /// A reader's token is named "reader" unless named otherwise (it was "admin").
    @Test func readersAreNamedReaders() throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("sessions.sqlite")
        _ = try LiveServerTests.token(["--reader"], db: db)
        _ = try LiveServerTests.token(["--reader", "--name", "transit-app"], db: db)
        _ = try LiveServerTests.token(["--admin"], db: db)
        let rows = try ToolRunner.run(["token", "list", "--db", db]).standardOutput.split(separator: "\n").dropFirst()
            .map { $0.split(separator: "\t").map(String.init) }
        #expect(Set(rows.map { "\($0[1]) \($0[2])" }) == ["reader reader", "reader transit-app", "admin admin"])
    }
}
