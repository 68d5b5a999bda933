import Foundation
import HTTPTypes
import Hummingbird
import Synchronization
import TrainTrackerCore
import TrainTrackerStorage

/// Deny by default: every request needs a working token (`Authorization: Bearer tt_…`, the
/// scheme in any case) or, for a GET, a viewer cookie, except on the routes `publicPaths` and
/// `publicPrefixes` name, the only public ones. Revoked and expired tokens stop working on
/// their next request (the grant is read from the store every time), and so do the viewer
/// cookies made from them. A token may have `ServerLimits.requestsPerToken` requests in
/// flight at once; one more gets 429.
struct Authentication: RouterMiddleware {
    typealias Context = TrackerRequestContext

    let state: ServerState

    /// The public routes: the viewer's page and files, and the viewer's login.
    static let publicPaths: Set<String> = ["/", "/viewer.css", "/login", "/v1/login", "/v1/logout"]
    /// Public path prefixes: Leaflet's files and the viewer's scripts.
    static let publicPrefixes = ["/vendor/leaflet/", "/viewer/"]

    static func isPublic(_ path: String) -> Bool {
        publicPaths.contains(path) || publicPrefixes.contains { path.hasPrefix($0) }
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        let credential: (grant: AccessGrant, hash: String)?
        if Self.isPublic(request.uri.path) || (state.settings.realtime.isPublic && RealtimeRoutes.isFeed(request.uri.path)) {
            // A stale cookie or a bad token does not keep anyone from the login page.
            credential = try? await self.credential(of: request)
        } else {
            credential = try await self.credential(of: request)
            guard credential != nil else { throw HTTPError(.unauthorized, message: "missing bearer token") }
        }
        guard let credential else { return try await next(request, context) }
        context.grant = credential.grant
        context.tokenHash = credential.hash
        guard state.requestsInFlight.enter(credential.hash, limit: state.limits.requestsPerToken) else {
            throw HTTPError(
                .tooManyRequests,
                message: "this token has \(state.limits.requestsPerToken) requests in flight, the most it may have")
        }
        defer { state.requestsInFlight.leave(credential.hash) }
        return try await next(request, context)
    }

    /// The grant and token hash of the request's bearer token or viewer cookie; nil when it
    /// has neither.
    ///
    /// - Throws: 401 for a malformed, unknown, revoked or expired token, or a viewer cookie
    ///   that is no longer valid.
    private func credential(of request: Request) async throws -> (grant: AccessGrant, hash: String)? {
        if let header = request.headers[.authorization] {
            let hash = AccessTokens.hash(try Self.bearerToken(header))
            return (try await Self.grant(tokenHash: hash, in: state.store), hash)
        }
        // The viewer mostly reads: its cookie opens GET routes, and a DELETE only with the
        // viewer's own header, which no other site's page can send (a cross-origin request
        // with it needs a preflight this server never grants); never a POST (a same-site page
        // could otherwise post with it).
        if request.method == .get
            || (request.method == .delete && request.uri.path.hasPrefix("/v1/sessions/") && Self.isFromViewer(request)),
            let cookie = request.cookies[ViewerLogins.cookieName]
        {
            guard let hash = state.viewerLogins.tokenHash(of: cookie.value),
                let grant = try await state.store.grant(tokenHash: hash, at: .now)
            else { throw HTTPError(.unauthorized, message: "the viewer login has ended; log in again") }
            return (grant, hash)
        }
        return nil
    }

    /// The header the viewer's script sends with a change (`X-TrainTracker-Viewer: 1`).
    // swift-format-ignore: NeverForceUnwrap
    static let viewerHeader = HTTPField.Name("X-TrainTracker-Viewer")!  // a constant, valid name: never nil
    /// The browser's word on where a request comes from.
    // swift-format-ignore: NeverForceUnwrap
    static let fetchSiteHeader = HTTPField.Name("Sec-Fetch-Site")!  // a constant, valid name: never nil

    /// Whether `request` carries the viewer's header and, when the browser says, comes from
    /// this server's own page.
    static func isFromViewer(_ request: Request) -> Bool {
        guard request.headers[viewerHeader] == "1" else { return false }
        let site = request.headers[fetchSiteHeader]
        return site == nil || site == "same-origin"
    }

    /// The grant of the token with hash `tokenHash`, read from the store now.
    ///
    /// - Throws: 401 for an unknown, revoked or expired token.
    static func grant(tokenHash: String, in store: any SessionStore) async throws -> AccessGrant {
        guard let grant = try await store.grant(tokenHash: tokenHash, at: .now) else {
            throw HTTPError(.unauthorized, message: "unknown, revoked or expired token")
        }
        return grant
    }

    /// The token of an `Authorization` header: `Bearer` in any case, then the token.
    ///
    /// - Throws: 401 for another scheme or a token that is not `tt_` and 64 hex digits.
    static func bearerToken(_ header: String) throws -> String {
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw HTTPError(.unauthorized, message: "the Authorization header must be 'Bearer <token>'")
        }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        guard AccessTokens.isWellFormed(token) else {
            throw HTTPError(.unauthorized, message: "malformed token (tt_ and 64 hex digits)")
        }
        return token
    }
}

/// 403 unless the request's grant is an admin's: the routes that read sessions.
struct RequireAdmin: RouterMiddleware {
    typealias Context = TrackerRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let role = try context.requireGrant().role
        guard role == .admin else {
            throw HTTPError(
                .forbidden,
                message: role == .reader
                    ? "a reader token reads only the published feed (/v1/realtime/...)"
                    : "a device token can only write its own sessions")
        }
        return try await next(request, context)
    }
}

/// 403 for a reader's token: the routes that write (and the phone's settings), for devices and admins.
struct RequireWriter: RouterMiddleware {
    typealias Context = TrackerRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard try context.requireGrant().role != .reader else {
            throw HTTPError(.forbidden, message: "a reader token can only read the published feed (/v1/realtime/...)")
        }
        return try await next(request, context)
    }
}

/// How many requests each token has in flight.
final class RequestsInFlight: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    /// Counts one more request of `hash`; false, counting nothing, when it has `limit` already.
    func enter(_ hash: String, limit: Int) -> Bool {
        counts.withLock { counts in
            guard counts[hash, default: 0] < limit else { return false }
            counts[hash, default: 0] += 1
            return true
        }
    }

    /// One request of `hash` is done.
    func leave(_ hash: String) {
        counts.withLock { counts in
            let left = counts[hash, default: 1] - 1
            counts[hash] = left > 0 ? left : nil
        }
    }
}
