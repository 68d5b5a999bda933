import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TrainTrackerCore
import TrainTrackerServer
import TrainTrackerStorage
import TrainTrackerTestSupport

@testable import TrainTrackerLab

/// What the Session Viewer's list and base map read, in process: sessions a page at a time
/// with search and filters, every query value checked, a delete only an admin (or the viewer,
/// with its header) may make, the whole network thinned, and tile templates that cannot
/// break the page's policy.
@Suite struct SessionListRoutesTests {
    typealias Fixture = ServerRoutesTests.Fixture

    static func headers(_ token: String) -> HTTPFields { ServerRoutesTests.headers(token) }

    /// 130 sessions recorded elsewhere, a day apart from 2025-01-01, every tenth with notes.
    static func fill(_ store: SessionDatabase) throws {
        let writer = try SessionDatabase.openForWriting(path: store.path)
        let start = Timestamp(secondsSince1970: 1_735_689_600)
        try writer.insert(
            (0..<130).map { index in
                (
                    session: Session(
                        id: "S-\(String(index).leftPadded(3))", startDate: start.adding(Double(index) * 86_400),
                        endDate: start.adding(Double(index) * 86_400 + 600), notes: index % 10 == 0 ? "Hakone trip \(index)" : nil
                    ),
                    fixes: []
                )
            })
    }

    static func list(_ client: some TestClientProtocol, _ query: String, token: String) async throws -> [String: Any] {
        try await client.execute(uri: "/v1/sessions?" + query, method: .get, headers: headers(token)) { response in
            #expect(response.status == .ok, "\(query): \(String(buffer: response.body))")
            return try ServerRoutesTests.object(response.body)
        }
    }

    static func ids(_ page: [String: Any]) -> [String] {
        (page["sessions"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    @Test func sessionsComeAPageAtATimeNewestFirstAndFilterBySearchDateDeviceLiveAndLine() async throws {
        let fixture = try Fixture()
        try Self.fill(fixture.store)
        let ride = Array(try ServerRoutesTests.ride().prefix(120))
        try await buildApplication(fixture.settings).test(.router) { client in
            _ = try await client.execute(
                uri: "/v1/sessions", method: .post, headers: Self.headers(fixture.phone),
                body: ByteBuffer(string: #"{"id":"PHONE-1","startDate":"2025-09-20T08:00:00Z","notes":"commute"}"#))
            _ = try await client.execute(
                uri: "/v1/sessions/PHONE-1/locations", method: .post, headers: Self.headers(fixture.phone),
                body: ServerRoutesTests.body(ride))
            let admin = fixture.admin
            // The first page: 50 of 131, the newest first, with device, notes and whether it is live.
            let first = try await Self.list(client, "", token: admin)
            #expect(first["total"] as? Int == 131)
            #expect(Self.ids(first).count == 50)
            #expect(Self.ids(first).first == "PHONE-1" && Self.ids(first)[1] == "S-129")
            let phone = try #require((first["sessions"] as? [[String: Any]])?.first)
            #expect(phone["device"] as? String == "phone-1" && phone["notes"] as? String == "commute")
            #expect(phone["railway"] as? String == DemoNetwork.localID)
            #expect(first["devices"] as? [String] == ["phone-1"])
            // The last page, and a page past the end.
            #expect(Self.ids(try await Self.list(client, "offset=100&limit=50", token: admin)).count == 31)
            #expect(Self.ids(try await Self.list(client, "offset=500", token: admin)).isEmpty)
            // Search in notes (any case), by date, by device, live or not, by line.
            let hakone = try await Self.list(client, "q=HAKONE", token: admin)
            #expect(hakone["total"] as? Int == 13 && Self.ids(hakone).allSatisfy { $0.hasPrefix("S-") })
            let january = try await Self.list(client, "from=2025-01-05&to=2025-01-07", token: admin)
            #expect(Self.ids(january) == ["S-006", "S-005", "S-004"])
            #expect(Self.ids(try await Self.list(client, "device=phone-1", token: admin)) == ["PHONE-1"])
            #expect(
                Self.ids(try await Self.list(client, "live=true", token: admin)) == ["PHONE-1"], "uploaded just now, not ended")
            #expect((try await Self.list(client, "live=false", token: admin))["total"] as? Int == 130)
            #expect(Self.ids(try await Self.list(client, "line=\(DemoNetwork.localID)", token: admin)) == ["PHONE-1"])
            _ = try await client.execute(uri: "/v1/sessions/PHONE-1/end", method: .post, headers: Self.headers(fixture.phone))
            #expect(Self.ids(try await Self.list(client, "live=true", token: admin)).isEmpty, "ended")
        }
    }

    @Test(arguments: [
        ("limit=0", "limit must be a whole number from 1 to 200"), ("limit=1000", "limit must be"),
        ("offset=-1", "offset must be"), ("offset=1e3", "offset must be"), ("live=maybe", "live must be true or false"),
        ("from=2025-13-45", "from must be a date YYYY-MM-DD"), ("to=yesterday", "to must be a date"),
        ("q=" + String(repeating: "x", count: 201), "q must be at most 200 bytes"),
    ])
    func aQueryValueOutOfRangeIsRefusedNamingIt(query: String, message: String) async throws {
        let fixture = try Fixture()
        try await buildApplication(fixture.settings).test(.router) { client in
            try await client.execute(uri: "/v1/sessions?" + query, method: .get, headers: Self.headers(fixture.admin)) {
                response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains(message), "\(String(buffer: response.body))")
            }
        }
    }

    @Test func onlyAnAdminOrTheViewerWithItsHeaderDeletesASessionAndItIsGone() async throws {
        let fixture = try Fixture()
        let ride = Array(try ServerRoutesTests.ride().prefix(30))
        try await buildApplication(fixture.settings).test(.router) { client in
            for id in ["GONE-1", "GONE-2"] {
                _ = try await client.execute(
                    uri: "/v1/sessions", method: .post, headers: Self.headers(fixture.phone),
                    body: ByteBuffer(string: "{\"id\":\"\(id)\"}"))
                _ = try await client.execute(
                    uri: "/v1/sessions/\(id)/locations", method: .post, headers: Self.headers(fixture.phone),
                    body: ServerRoutesTests.body(ride, prefix: id))
            }
            // Its own device may not delete it, nor another device.
            for token in [fixture.phone, fixture.otherPhone] {
                try await client.execute(uri: "/v1/sessions/GONE-1", method: .delete, headers: Self.headers(token)) { response in
                    #expect(response.status == .forbidden)
                }
            }
            // The viewer's cookie deletes only with the viewer's header.
            let cookie = try await client.execute(uri: "/v1/login", method: .post, headers: Self.headers(fixture.admin)) {
                response in String(try #require(response.headers[.setCookie]?.split(separator: ";").first))
            }
            try await client.execute(uri: "/v1/sessions/GONE-2", method: .delete, headers: [.cookie: cookie]) { response in
                #expect(response.status == .unauthorized)
            }
            let viewer: HTTPFields = [
                .cookie: cookie, HTTPField.Name("X-TrainTracker-Viewer")!: "1", HTTPField.Name("Sec-Fetch-Site")!: "same-origin",
            ]
            try await client.execute(uri: "/v1/sessions/GONE-2", method: .delete, headers: viewer) { response in
                #expect(response.status == .ok)
            }
            let crossSite: HTTPFields = [
                .cookie: cookie, HTTPField.Name("X-TrainTracker-Viewer")!: "1", HTTPField.Name("Sec-Fetch-Site")!: "cross-site",
            ]
            try await client.execute(uri: "/v1/sessions/GONE-1", method: .delete, headers: crossSite) { response in
                #expect(response.status == .unauthorized)
            }
            // An admin's token deletes; a second delete finds nothing.
            try await client.execute(uri: "/v1/sessions/GONE-1", method: .delete, headers: Self.headers(fixture.admin)) {
                response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == #"{"deleted":"GONE-1"}"#)
            }
            try await client.execute(uri: "/v1/sessions/GONE-1", method: .delete, headers: Self.headers(fixture.admin)) {
                response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/v1/sessions/GONE-1/results", method: .get, headers: Self.headers(fixture.admin)) {
                response in
                #expect(response.status == .notFound)
            }
            // The device cannot upload to it any more: it is no longer there.
            try await client.execute(
                uri: "/v1/sessions/GONE-1/locations", method: .post, headers: Self.headers(fixture.phone),
                body: ServerRoutesTests.body(ride, prefix: "again")
            ) { response in
                #expect(response.status == .notFound)
            }
            // Another device may take the id afresh: nothing of the old session is seen, and
            // the old device has no say over it.
            try await client.execute(
                uri: "/v1/sessions", method: .post, headers: Self.headers(fixture.otherPhone),
                body: ByteBuffer(string: #"{"id":"GONE-1"}"#)
            ) { response in
                #expect(response.status == .created)
            }
            try await client.execute(
                uri: "/v1/sessions/GONE-1/locations", method: .post, headers: Self.headers(fixture.otherPhone),
                body: ServerRoutesTests.body(ride, prefix: "GONE-1")
            ) { response in
                let outcome = try ServerRoutesTests.object(response.body)
                #expect(outcome["accepted"] as? Int == ride.count && outcome["duplicates"] as? Int == 0)
            }
            try await client.execute(
                uri: "/v1/sessions/GONE-1/locations", method: .post, headers: Self.headers(fixture.phone),
                body: ServerRoutesTests.body(ride, prefix: "old")
            ) { response in
                #expect(response.status == .forbidden)
            }
            _ = try await client.execute(uri: "/v1/sessions/GONE-1", method: .delete, headers: Self.headers(fixture.admin))
            // Ids a URL would read as path steps are refused.
            for id in [".", ".."] {
                try await client.execute(
                    uri: "/v1/sessions", method: .post, headers: Self.headers(fixture.phone),
                    body: ByteBuffer(string: "{\"id\":\"\(id)\"}")
                ) { response in
                    #expect(response.status == .badRequest)
                }
            }
        }
        #expect(try fixture.store.sessions().isEmpty)
        #expect(try fixture.store.rawFixes(sessionID: "GONE-1").isEmpty && fixture.store.rawFixes(sessionID: "GONE-2").isEmpty)
    }

    @Test func theWholeNetworkIsThinnedForTheBaseMapAndOnlyForAdmins() async throws {
        let fixture = try Fixture()
        let network = DemoNetwork.make()
        try await buildApplication(fixture.settings).test(.router) { client in
            try await client.execute(uri: "/v1/network", method: .get, headers: Self.headers(fixture.phone)) { response in
                #expect(response.status == .forbidden)
            }
            try await client.execute(uri: "/v1/network", method: .get, headers: Self.headers(fixture.admin)) { response in
                let railways = try #require(try ServerRoutesTests.object(response.body)["railways"] as? [[String: Any]])
                #expect(railways.compactMap { $0["id"] as? String } == network.railways.map(\.id))
                for (item, railway) in zip(railways, network.railways) {
                    let track = try #require(item["track"] as? [[Double]])
                    let coordinates = railway.track.polyline.coordinates
                    #expect(track.count >= 2 && track.count <= coordinates.count)
                    let end = coordinates[coordinates.count - 1]
                    let rounded: [Double] = [end.latitude, end.longitude].map { ($0 * 100_000).rounded() / 100_000 }
                    #expect(track.last == rounded, "the track keeps its end")
                    #expect((item["stations"] as? [Any])?.count == railway.stationIDs.count)
                }
            }
        }
    }

    @Test(arguments: [
        ("https://tile.openstreetmap.org/{z}/{x}/{y}.png", ["https://tile.openstreetmap.org"]),
        (
            "http://{s}.tiles.example:8080/map/{z}/{x}/{y}.png",
            ["http://a.tiles.example:8080", "http://b.tiles.example:8080", "http://c.tiles.example:8080"]
        ),
    ])
    func aTileTemplateNamesTheOriginsThePolicyAllows(template: String, origins: [String]) throws {
        let source = try TileSource(template: template, attribution: "© OpenStreetMap contributors")
        #expect(source.origins == origins)
    }

    @Test(arguments: [
        ("javascript:alert(1)//{z}/{x}/{y}", "http:// or https://"), ("https://a.example/{z}/{x}.png", "{z}, {x} and {y}"),
        ("https://a.example/{z}/{x}/{y}.png; script-src *", "a space, a quote, a semicolon"),
        ("https://a.example/{z}/{x}/{y}.png'", "a quote"), ("https://user@a.example/{z}/{x}/{y}", "plain name"),
        ("https://a.example:99999/{z}/{x}/{y}", "port must be"), ("https://a.example:+80/{z}/{x}/{y}", "port must be"),
        ("https:///{z}/{x}/{y}", "plain name"), ("https://a.example/{z}/{x}/{y}.png?key={key}", "only placeholders"),
    ])
    func aTileTemplateThatCouldBreakThePolicyIsRefused(template: String, problem: String) {
        #expect {
            try TileSource(template: template, attribution: "")
        } throws: { error in
            "\(error)".contains(problem) && "\(error)".hasPrefix("--tiles ")
        }
    }
}
