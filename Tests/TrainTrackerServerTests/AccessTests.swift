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
            try await client.execute(uri: "/login?ticket=\(ticket)&session=S%0D%0A1", method: .get) { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/?session=S%0D%0A1")
                #expect(response.headers[.setCookie]?.contains("HttpOnly") == true)
            }
            try await client.execute(uri: "/login?ticket=\(ticket)", method: .get) { response in
                #expect(response.status == .unauthorized, "a ticket works once")
            }
            try await client.execute(uri: "/v1/login-tickets", method: .post, headers: Self.headers(fixture.phone)) {
                response in #expect(response.status == .forbidden)
            }
        }
    }
}
