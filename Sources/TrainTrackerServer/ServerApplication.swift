import AsyncAlgorithms
import Foundation
import Hummingbird
import TrainTrackerCore
import TrainTrackerStorage

/// The live tracking server: phones upload fixes and get the tracker's answer back; operators
/// read sessions, follow them live and look at them in the Session Viewer at `/`.
///
///     let app = buildApplication(settings, host: "127.0.0.1", port: 8080)
///     try await app.runService()
///
/// Routes (JSON unless said; `Authorization: Bearer <token>` on every `/v1` route):
/// - `GET /v1/config` (any token): the recorder's settings and the upload limits.
/// - `POST /v1/sessions` (device or admin): creates a session, `201 {"id": ...}`.
/// - `POST /v1/sessions/{id}/locations`, `.../motion-activities` (its device, or admin):
///   a batch; answers what was stored and the tracker's latest answer.
/// - `POST /v1/sessions/{id}/end` (its device, or admin): ends the session and its streams.
/// - `GET /v1/sessions` (admin): the sessions with duration, fixes and detected railway.
/// - `GET /v1/sessions/{id}/results` (admin): fixes and the answer at each.
/// - `GET /v1/sessions/{id}/network` (admin): the railways near the session, for the map.
/// - `GET /v1/sessions/{id}/live` (admin): server-sent events, one JSONL answer per fix.
/// - `GET /v1/stats` (admin): sessions with a tracker in memory, and the resident memory.
/// - `GET /v1/sight?lat=&lon=&heading=&pitch=...` (any token): the point a camera looks at.
public func buildApplication(
    _ settings: ServerSettings, host: String = "127.0.0.1", port: Int = 8080,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let state = ServerState(settings: settings)
    let router = Router()
    ServerRoutes(state: state).add(to: router)
    ViewerRoutes(state: state).add(to: router)
    return Application(
        router: router, configuration: .init(address: .hostname(host, port: port), serverName: "traintracker"),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) })
}

/// The `/v1` routes.
struct ServerRoutes: Sendable {
    let state: ServerState

    func add(to router: Router<BasicRequestContext>) {
        router.get("/v1/config") { request, _ in
            _ = try authorise(request)
            return json(state.settings.configuration.json)
        }
        router.post("/v1/sessions") { request, _ in try await createSession(request) }
        router.post("/v1/sessions/{id}/locations") { request, context in
            try await uploadLocations(request, id: try sessionID(context))
        }
        router.post("/v1/sessions/{id}/motion-activities") { request, context in
            try await uploadMotionActivities(request, id: try sessionID(context))
        }
        router.post("/v1/sessions/{id}/end") { request, context in
            let id = try sessionID(context)
            _ = try writable(request, id: id)
            try state.store.endSession(id, at: .now)
            await state.live.end(id)
            return json(#"{"ended":true}"#)
        }
        router.get("/v1/sessions") { request, _ in
            try admin(request)
            return json(try SessionListing(state: state).json())
        }
        router.get("/v1/sight") { request, _ in
            _ = try authorise(request)
            return json(try sight(request))
        }
        router.get("/v1/stats") { request, _ in
            try admin(request)
            let active = await state.live.activeCount
            return json("{\"activeSessions\":\(active),\"residentBytes\":\(ProcessMemory.residentBytes)}")
        }
        router.get("/v1/sessions/{id}/results") { request, context in
            try admin(request)
            return json(try SessionListing(state: state).results(of: try existing(sessionID(context))))
        }
        router.get("/v1/sessions/{id}/network") { request, context in
            try admin(request)
            return json(try SessionListing(state: state).network(near: try existing(sessionID(context))))
        }
        router.get("/v1/sessions/{id}/live") { request, context in
            try admin(request)
            let stream = try await state.live.listen(to: try existing(sessionID(context)))
            // A comment first, so a client knows it is listening before any answer comes.
            let greeting = [ByteBuffer(string: ": listening to \(try sessionID(context))\n\n")].async
            let events = chain(greeting, stream.map { line in ByteBuffer(string: "data: \(line)\n\n") })
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                body: ResponseBody(asyncSequence: events))
        }
    }

    /// The session id in the path, percent-decoded.
    private func sessionID(_ context: BasicRequestContext) throws -> String {
        let raw = try context.parameters.require("id")
        return raw.removingPercentEncoding ?? raw
    }

    // MARK: Handlers

    private func createSession(_ request: Request) async throws -> Response {
        let grant = try authorise(request)
        var request = request
        let body = try await collect(&request)
        let creation = body.readableBytes == 0 ? SessionCreation() : try decode(SessionCreation.self, from: body)
        let id = creation.id ?? UUID().uuidString
        guard !id.isEmpty, id.count <= 128 else {
            throw HTTPError(.badRequest, message: "session id must be 1 to 128 characters")
        }
        var start = Timestamp.now
        if let text = creation.startDate {
            guard let parsed = Timestamp(parsing: text) else {
                throw HTTPError(.badRequest, message: "startDate '\(text)' is not an ISO 8601 time")
            }
            start = parsed
        }
        let owner = grant.role == .admin ? "admin:\(grant.name)" : grant.name
        switch try state.store.createSession(Session(id: id, startDate: start, notes: creation.notes), owner: owner) {
        case .created: await state.live.started(id)
        case .alreadyYours: break
        case .taken: throw HTTPError(.conflict, message: "session \(id) exists and is not yours")
        }
        return json("{\"id\":\(id.jsonQuoted)}", status: .created)
    }

    private func uploadLocations(_ request: Request, id: String) async throws -> Response {
        _ = try writable(request, id: id)
        var request = request
        let batch = try decode(LocationBatch.self, from: try await collect(&request))
        try checkSize(batch.locations.count, of: "locations")
        let raw = batch.locations.compactMap(\.raw)
        let (fixes, report) = FixSanitizer.clean(raw)
        let skipped = report.skipped + batch.locations.count - raw.count
        let outcome = try await state.writer.append(fixes, toSession: id)
        // Committed: from here on the batch is acknowledged, whatever happens to the tracker.
        let latest = try await state.live.accept(fixes, session: id)
        return json(
            "{\"accepted\":\(outcome.inserted),\"duplicates\":\(outcome.duplicates),\"skipped\":\(skipped),"
                + "\"result\":\(latest ?? "null")}")
    }

    private func uploadMotionActivities(_ request: Request, id: String) async throws -> Response {
        _ = try writable(request, id: id)
        var request = request
        let batch = try decode(MotionActivityBatch.self, from: try await collect(&request))
        try checkSize(batch.motionActivities.count, of: "motionActivities")
        let activities = batch.motionActivities.compactMap { $0.activity(sessionID: id) }
        let skipped = batch.motionActivities.count - activities.count
        let outcome = try await state.store.appending(motionActivities: activities)
        return json("{\"accepted\":\(outcome.inserted),\"duplicates\":\(outcome.duplicates),\"skipped\":\(skipped)}")
    }

    /// `GET /v1/sight?lat=&lon=&heading=&pitch=[&alt=&tapX=&tapY=&fov=&aspect=]`: the point
    /// looked at, as `traintracker sight --format json` prints it.
    private func sight(_ request: Request) throws -> String {
        guard let terrain = state.settings.terrain else {
            throw HTTPError(.notFound, message: "this server has no elevation data (serve --dem DIR)")
        }
        let query = request.uri.queryParameters
        func number(_ name: String) throws -> Double? {
            guard let text = query[name[...]] else { return nil }
            guard let value = Double(String(text)), value.isFinite else {
                throw HTTPError(.badRequest, message: "\(name) must be a number, got '\(text)'")
            }
            return value
        }
        func required(_ name: String) throws -> Double {
            guard let value = try number(name) else { throw HTTPError(.badRequest, message: "missing \(name)") }
            return value
        }
        var sight = SightQuery(
            observer: Coordinate(latitude: try required("lat"), longitude: try required("lon")), altitude: try number("alt"),
            heading: try required("heading"), pitch: try required("pitch"))
        if let x = try number("tapX"), let y = try number("tapY") { sight.tap = SightQuery.Tap(x: x, y: y) }
        if let fov = try number("fov") { sight.fieldOfView = fov }
        if let aspect = try number("aspect") { sight.aspectRatio = aspect }
        do {
            return try SightLine.resolve(sight, terrain: terrain, peaks: state.settings.peaks).json
        } catch let error as TerrainError {
            throw HTTPError(.badRequest, message: error.description)
        }
    }

    // MARK: Access

    /// The grant of the request's bearer token; 401 without a known one.
    private func authorise(_ request: Request) throws -> AccessGrant {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
            throw HTTPError(.unauthorized, message: "missing bearer token")
        }
        guard let grant = try state.grant(token: String(header.dropFirst(7))) else {
            throw HTTPError(.unauthorized, message: "unknown token")
        }
        return grant
    }

    /// 403 unless the token is an admin's.
    private func admin(_ request: Request) throws {
        guard try authorise(request).role == .admin else {
            throw HTTPError(.forbidden, message: "a device token can only write its own sessions")
        }
    }

    /// The grant, if it may write to session `id`: the device that created it, or an admin.
    private func writable(_ request: Request, id: String) throws -> AccessGrant {
        let grant = try authorise(request)
        let owner = try state.owner(ofSession: id)
        if grant.role == .admin {
            let exists = try owner != nil || state.store.sessionExists(id)
            guard exists else {
                throw HTTPError(.notFound, message: "no session \(id)")
            }
            return grant
        }
        guard let owner else { throw HTTPError(.notFound, message: "no session \(id)") }
        guard owner == grant.name else { throw HTTPError(.forbidden, message: "session \(id) belongs to another device") }
        return grant
    }

    private func existing(_ id: String) throws -> String {
        guard try state.store.sessionExists(id) else { throw HTTPError(.notFound, message: "no session \(id)") }
        return id
    }

    // MARK: Bodies

    private func collect(_ request: inout Request) async throws -> ByteBuffer {
        do {
            return try await request.collectBody(upTo: state.limits.maximumBodyBytes)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw HTTPError(
                .contentTooLarge, message: "request body exceeds the limit of \(state.limits.maximumBodyBytes) bytes")
        }
    }

    private func checkSize(_ count: Int, of what: String) throws {
        guard count <= state.limits.maximumBatch else {
            throw HTTPError(
                .contentTooLarge, message: "batch of \(count) \(what) exceeds the limit of \(state.limits.maximumBatch)")
        }
    }

    private func decode<T: Decodable>(_ type: T.Type, from body: ByteBuffer) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer: body))
        } catch let DecodingError.keyNotFound(key, context) {
            throw HTTPError(.badRequest, message: "missing field '\(Self.path(context.codingPath + [key]))'")
        } catch let DecodingError.typeMismatch(_, context) {
            throw HTTPError(.badRequest, message: "wrong type at '\(Self.path(context.codingPath))'")
        } catch let DecodingError.valueNotFound(_, context) {
            throw HTTPError(.badRequest, message: "null at '\(Self.path(context.codingPath))'")
        } catch {
            throw HTTPError(.badRequest, message: "body is not JSON")
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingPrefix(".").description
    }
}

/// A JSON response.
func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
    Response(
        status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
}

extension Timestamp {
    /// The current time.
    static var now: Timestamp { Timestamp(secondsSince1970: Date().timeIntervalSince1970) }
}
