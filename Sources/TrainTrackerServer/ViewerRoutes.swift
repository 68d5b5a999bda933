import Foundation
import Hummingbird

/// The Session Viewer: one page and its script, Leaflet from the local disk (no CDN), and the
/// viewer's login. Every route here is public (`Authentication.publicPaths`); the page reads
/// sessions with the login cookie, which only an admin token can get.
struct ViewerRoutes: Sendable {
    typealias Context = TrackerRequestContext
    let state: ServerState

    func add(to router: Router<Context>) {
        for (path, file, type) in [
            ("/", "index.html", "text/html; charset=utf-8"), ("/viewer.js", "viewer.js", "text/javascript"),
            ("/viewer.css", "viewer.css", "text/css"),
        ] {
            router.get(RouterPath(path)) { _, _ in try Self.resource(file, type: type) }
        }
        let leaflet = state.settings.leafletDirectory
        router.get("/vendor/leaflet/{file}") { _, context in
            let file = try context.parameters.require("file")
            guard ["leaflet.js", "leaflet.css"].contains(file),
                let data = FileManager.default.contents(atPath: leaflet + "/" + file)
            else {
                throw HTTPError(.notFound, message: "\(file): not found (install libjs-leaflet)")
            }
            let type = file.hasSuffix(".js") ? "text/javascript" : "text/css"
            return Response(status: .ok, headers: [.contentType: type], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        }
        // An admin token, sent once in the header, becomes the login cookie.
        router.post("/v1/login") { request, _ in
            let token = try Authentication.bearerToken(request.headers[.authorization] ?? "")
            let hash = AccessTokens.hash(token)
            guard let grant = try state.store.grant(tokenHash: hash, at: .now) else {
                throw HTTPError(.unauthorized, message: "unknown, revoked or expired token")
            }
            guard grant.role == .admin else { throw HTTPError(.forbidden, message: "only an admin token opens the viewer") }
            var response = json("{\"name\":\(grant.name.jsonQuoted)}")
            response.setCookie(state.viewerLogins.cookie(state.viewerLogins.logIn(tokenHash: hash), secure: state.settings.secureCookies))
            return response
        }
        router.post("/v1/logout") { request, _ in
            if let cookie = request.cookies[ViewerLogins.cookieName] { state.viewerLogins.logOut(cookie.value) }
            var response = json(#"{"loggedOut":true}"#)
            response.setCookie(state.viewerLogins.cookie(nil, secure: state.settings.secureCookies))
            return response
        }
        // A login ticket (POST /v1/login-tickets) in a link: used up at once, then the page.
        router.get("/login") { request, _ in
            guard let ticket = request.uri.queryParameters["ticket"],
                let hash = state.viewerLogins.redeem(ticket: String(ticket))
            else { throw HTTPError(.unauthorized, message: "the login link is used up or has expired") }
            var location = "/"
            if let session = request.uri.queryParameters["session"],
                let encoded = String(session).addingPercentEncoding(withAllowedCharacters: Self.asciiAlphanumerics)
            {
                location += "?session=" + encoded
            }
            var response = Response(status: .seeOther, headers: [.location: location])
            response.setCookie(state.viewerLogins.cookie(state.viewerLogins.logIn(tokenHash: hash), secure: state.settings.secureCookies))
            return response
        }
    }

    private static let asciiAlphanumerics = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

    private static func resource(_ name: String, type: String) throws -> Response {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Viewer"),
            let data = try? Data(contentsOf: url)
        else { throw HTTPError(.internalServerError, message: "viewer file \(name) missing from the build") }
        return Response(status: .ok, headers: [.contentType: type], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
