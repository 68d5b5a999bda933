import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle
import TrainTrackerCore
import TrainTrackerStorage

/// The live tracking server: phones upload fixes and get the tracker's answer back; operators
/// read sessions, follow them live and look at them in the Session Viewer at `/`.
///
///     let app = buildApplication(settings, host: "127.0.0.1", port: 8080)
///     try await app.runService()
///
/// Every route needs a working token (`Authorization: Bearer <token>`) or the viewer's login
/// cookie, except the public ones `Authentication.publicPaths` names (the viewer's files and
/// its login). Routes (JSON unless said):
/// - public: `GET /`, the viewer's files; `POST /v1/login` (an admin token in the header: sets
///   the viewer's cookie), `POST /v1/logout`, `GET /login?ticket=` (a login ticket).
/// - any token: `GET /v1/config` (the recorder's settings and the limits), `GET /v1/sight`,
///   `POST /v1/sessions` (`201 {"id": ...}`), and on the caller's own sessions (any, for an
///   admin) `POST /v1/sessions/{id}/locations`, `.../motion-activities`, `.../end`.
/// - admin: `GET /v1/sessions` (filters and paging: `SessionQuery`), `GET
///   /v1/sessions/{id}/results`, `.../network`, `.../live` (server-sent events; `?with=fix`
///   adds the fix to each answer), `DELETE /v1/sessions/{id}`, `GET /v1/network` (the whole
///   network, thinned, for the viewer's base map), `GET /v1/viewer-config` (its tile source),
///   `GET /v1/stats`, `POST /v1/login-tickets`.
public func buildApplication(
    _ settings: ServerSettings, host: String = "127.0.0.1", port: Int = 8080,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    buildApplication(state: ServerState(settings: settings), host: host, port: port, onServerRunning: onServerRunning)
}

/// Runs the server until SIGTERM or SIGINT, then stops within moments: live streams get a
/// last `end` event and close, no new connection is taken, uploads in flight finish, and the
/// store's connections close.
public func runServer(
    _ settings: ServerSettings, host: String, port: Int, onServerRunning: @escaping @Sendable (Int) async -> Void
) async throws {
    try await serverGroup(settings, host: host, port: port, stopsOnSignals: true, onServerRunning: onServerRunning)
        .run()
}

/// The server as a service group, stopped by `triggerGracefulShutdown()` and, with
/// `stopsOnSignals`, by SIGTERM or SIGINT.
/// Services stop in the reverse of their order: the live streams end first, so the server
/// has nothing left waiting when it stops (and following other instances' uploads stops
/// before them); then the server finishes the uploads in flight; then the store closes.
public func serverGroup(
    _ settings: ServerSettings, host: String, port: Int, stopsOnSignals: Bool = false,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> ServiceGroup {
    let state = ServerState(settings: settings)
    let app = buildApplication(state: state, host: host, port: port, onServerRunning: onServerRunning)
    return ServiceGroup(
        configuration: .init(
            services: [
                StoreOnShutdown(store: settings.store), app, LiveStreamsOnShutdown(live: state.live),
                OtherInstances(live: state.live, store: settings.store, metrics: state.metrics),
                FeedPoller(board: state.board, logger: state.logger),
            ],
            gracefulShutdownSignals: stopsOnSignals ? [.sigterm, .sigint] : [], logger: state.logger))
}

func buildApplication(
    state: ServerState, host: String, port: Int, onServerRunning: @escaping @Sendable (Int) async -> Void
) -> some ApplicationProtocol {
    let router = Router(context: TrackerRequestContext.self)
    // Order matters: headers go on every answer, errors included; then nothing passes without
    // a grant unless its route is public.
    router.add(middleware: SecurityHeaders(tiles: state.settings.tiles))
    // Refusals are logged and counted, the authentication's included.
    router.add(middleware: Rejections(metrics: state.metrics))
    router.add(middleware: Authentication(state: state))
    ViewerRoutes(state: state).add(to: router)
    SessionRoutes(state: state).add(
        devices: router.group().add(middleware: RequireWriter()), admins: router.group().add(middleware: RequireAdmin()))
    RealtimeRoutes(state: state).add(to: router.group())
    let limits = state.limits
    return Application(
        router: router,
        server: .http1(
            configuration: .init(
                idleTimeout: .milliseconds(Int64(Int(flooring: limits.idleTimeoutSeconds * 1000, within: 1...86_400_000))))),
        configuration: .init(
            address: .hostname(host, port: port), serverName: "traintracker",
            availableConnectionsDelegate: MaximumAvailableConnections(limits.connections)),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
        logger: state.logger)
}

/// Ends every live stream when the server is asked to stop.
struct LiveStreamsOnShutdown: Service {
    let live: LiveSessions

    func run() async throws {
        try? await gracefulShutdown()
        await live.stopAll()
    }
}

/// Closes the store when the server has stopped.
struct StoreOnShutdown: Service {
    let store: any SessionStore

    func run() async throws {
        try? await gracefulShutdown()
        await store.shutdown()
    }
}

/// A JSON response.
func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
    Response(
        status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
}

extension Timestamp {
    /// The current time, by this machine's clock.
    public static var now: Timestamp { Timestamp(secondsSince1970: Date().timeIntervalSince1970) }
}
