import Foundation
import Hummingbird

/// The Session Viewer: one page and its script, Leaflet from the local disk (no CDN), and the
/// viewer's login. Every route here is public (`Authentication.publicPaths`); the page reads
/// sessions with the login cookie, which only an admin token (or its ticket) can get.
struct ViewerRoutes: Sendable {
    typealias Context = TrackerRequestContext
    let state: ServerState

    func add(to router: Router<Context>) {
        for (path, file, type) in [
            ("/", "index.html", "text/html; charset=utf-8"), ("/viewer.css", "viewer.css", "text/css"),
        ] {
            router.get(RouterPath(path)) { _, _ in try Self.resource(file, type: type) }
        }
        // The viewer's script modules: a name of lower-case letters and hyphens, ending .js.
        router.get("/viewer/{file}") { _, context in
            let file = try context.parameters.require("file")
            let stem = file.hasSuffix(".js") ? file.dropLast(3) : ""
            guard !stem.isEmpty, stem.allSatisfy({ ("a"..."z").contains($0) || $0 == "-" }) else {
                throw HTTPError(.notFound, message: "no such viewer file")
            }
            return try Self.resource(file, type: "text/javascript", missing: .notFound)
        }
        let leaflet = state.settings.leafletDirectory
        router.get("/vendor/leaflet/{file}") { _, context in
            let file = try context.parameters.require("file")
            guard [ServerSettings.leafletScript, ServerSettings.leafletStyle].contains(file),
                let data = FileManager.default.contents(atPath: leaflet + "/" + file)
            else {
                throw HTTPError(.notFound, message: "\(file): not found (install libjs-leaflet)")
            }
            let type = file.hasSuffix(".js") ? "text/javascript" : "text/css"
            return Response(status: .ok, headers: [.contentType: type], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        }
        // An admin token, sent once in the header, or a login ticket in the body, becomes the
        // login cookie.
        router.post("/v1/login") { request, _ in
            var request = request
            let hash: String
            if let header = request.headers[.authorization] {
                hash = AccessTokens.hash(try Authentication.bearerToken(header))
            } else {
                let body = try await request.collectBody(upTo: 4_096)
                let login = try UploadBody.decode(TicketLogin.self, from: body)
                guard let redeemed = state.viewerLogins.redeem(ticket: login.ticket) else {
                    throw HTTPError(.unauthorized, message: "the login link is used up or has expired")
                }
                hash = redeemed
            }
            let grant = try await Authentication.grant(tokenHash: hash, in: state.store)
            guard grant.role == .admin else { throw HTTPError(.forbidden, message: "only an admin token opens the viewer") }
            var response = json("{\"name\":\(grant.name.jsonQuoted)}")
            response.setCookie(
                state.viewerLogins.cookie(state.viewerLogins.logIn(tokenHash: hash), secure: state.settings.secureCookies))
            return response
        }
        router.post("/v1/logout") { request, _ in
            if let cookie = request.cookies[ViewerLogins.cookieName] { state.viewerLogins.logOut(cookie.value) }
            var response = json(#"{"loggedOut":true}"#)
            response.setCookie(state.viewerLogins.cookie(nil, secure: state.settings.secureCookies))
            return response
        }
        // A login link (a ticket from POST /v1/login-tickets) opens the page, whose script
        // redeems the ticket with a POST: a link previewer that fetches the link uses nothing up.
        router.get("/login") { _, _ in try Self.resource("index.html", type: "text/html; charset=utf-8") }
    }

    /// `POST /v1/login` with a ticket.
    private struct TicketLogin: Decodable {
        var ticket: String
    }

    private static func resource(
        _ name: String, type: String, missing: HTTPResponse.Status = .internalServerError
    ) throws -> Response {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Viewer"),
            let data = try? Data(contentsOf: url)
        else { throw HTTPError(missing, message: "viewer file \(name) missing from the build") }
        return Response(status: .ok, headers: [.contentType: type], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
