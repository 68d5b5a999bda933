import Foundation
import Hummingbird
import TrainTrackerCore
import TrainTrackerStorage

/// The `/v1` routes: what devices write and admins read. Who may call them is settled before
/// a handler runs: `devices` needs any working token, `admins` an admin's.
struct SessionRoutes: Sendable {
    typealias Context = TrackerRequestContext
    let state: ServerState

    func add(devices: RouterGroup<Context>, admins: RouterGroup<Context>) {
        devices.get("/v1/config") { _, _ in json(state.settings.configuration.json(state.limits)) }
        devices.get("/v1/sight") { request, _ in json(try SightRoute(state: state).answer(request)) }
        devices.post("/v1/sessions") { request, context in try await createSession(request, context) }
        devices.post("/v1/sessions/{id}/locations") { request, context in try await uploadLocations(request, context) }
        devices.post("/v1/sessions/{id}/motion-activities") { request, context in
            try await uploadMotionActivities(request, context)
        }
        devices.post("/v1/sessions/{id}/end") { _, context in
            let id = try await writable(context)
            try await state.store.endSession(id)
            await state.live.end(id)
            context.logger.info(
                "session ended", metadata: ["session": .string(id), "device": .string(context.grant?.name ?? "")])
            return json(#"{"ended":true}"#)
        }
        admins.get("/v1/sessions") { request, _ in json(try await SessionListing(state: state).json(SessionQuery(request))) }
        admins.get("/v1/stats") { _, _ in
            let (active, streams, rebuilds) = (
                await state.live.activeCount, await state.live.streamCount, await state.live.rebuilds
            )
            return json(
                "{\"activeSessions\":\(active),\"liveStreams\":\(streams),\"trackerRebuilds\":\(rebuilds),"
                    + "\"residentBytes\":\(ProcessMemory.residentBytes)}")
        }
        admins.get("/v1/sessions/{id}/results") { _, context in
            json(try await SessionResults(state: state).results(of: try await existing(context)))
        }
        admins.get("/v1/sessions/{id}/network") { _, context in
            json(try await SessionResults(state: state).network(near: try await existing(context)))
        }
        admins.get("/v1/sessions/{id}/live") { request, context in
            let with = request.uri.queryParameters["with"]
            guard with == nil || with == "fix" else { throw HTTPError(.badRequest, message: "with must be fix") }
            return try await LiveStreamRoute(state: state).stream(
                session: try await existing(context), withFixes: with == "fix", context: context)
        }
        admins.delete("/v1/sessions/{id}") { _, context in
            let id = try await existing(context)
            guard try await state.store.deleteSession(id) else { throw HTTPError(.notFound, message: "no session \(id)") }
            state.forget(session: id)
            await state.live.end(id, reason: "session deleted")
            context.logger.notice(
                "session deleted", metadata: ["session": .string(id), "by": .string(context.grant?.name ?? "")])
            return json("{\"deleted\":\(id.jsonQuoted)}")
        }
        admins.get("/v1/network") { _, _ in json(state.baseMap) }
        admins.get("/metrics") { _, _ in
            let text =
                state.metrics.text(
                    trackers: await state.live.activeCount, rebuilds: await state.live.rebuilds,
                    streams: await state.live.streamCount, residentBytes: ProcessMemory.residentBytes)
                + state.board.metricsText(at: state.board.now())
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        }
        // The base map: the tile server's template and attribution, or null (draw the network).
        // For admins only: a template may carry the tile server's key.
        admins.get("/v1/viewer-config") { _, _ in
            var object = JSONObjectWriter()
            if let tiles = state.settings.tiles {
                var source = JSONObjectWriter()
                source.string("url", tiles.template)
                source.string("attribution", tiles.attribution)
                object.raw("tiles", source.finish())
            } else {
                object.raw("tiles", "null")
            }
            // The timetables' clock, so the viewer can show times as the riders' own: the zone's
            // name (the browser knows its rules, daylight saving included) and today's offset.
            let now = Timestamp(secondsSince1970: Date().timeIntervalSince1970)
            object.number("utcOffsetSeconds", state.model.hasTimetable ? state.model.zone.offset(at: now) : nil)
            object.string("timeZone", state.model.hasTimetable ? state.model.zone.identifier : nil)
            return json(object.finish())
        }
        admins.post("/v1/login-tickets") { _, context in
            let ticket = state.viewerLogins.ticket(tokenHash: context.tokenHash ?? "")
            return json(
                "{\"ticket\":\(ticket.jsonQuoted),\"expiresInSeconds\":\(Int(ViewerLogins.ticketSeconds))}", status: .created)
        }
    }

    // MARK: Handlers

    private func createSession(_ request: Request, _ context: Context) async throws -> Response {
        let grant = try context.requireGrant()
        var request = request
        let body = try await UploadBody.collect(&request, limits: state.uploadLimits)
        let creation = body.readableBytes == 0 ? SessionCreation() : try UploadBody.decode(SessionCreation.self, from: body)
        let id = creation.id ?? UUID().uuidString
        try SessionIdentifier.check(id, maximumBytes: state.limits.maximumIDBytes)
        var start = Timestamp.now
        if let time = creation.startDate {
            switch time.timestamp {
            case .success(let parsed): start = parsed
            case .failure(let problem):
                throw HTTPError(.badRequest, message: "startDate: \(problem.rawValue) (ISO 8601, Eki text or epoch seconds)")
            }
        }
        if let notes = creation.notes, notes.utf8.count > SessionIdentifier.maximumNotesBytes {
            throw HTTPError(.contentTooLarge, message: "notes exceed \(SessionIdentifier.maximumNotesBytes) bytes")
        }
        let owner = grant.role == .admin ? "admin:\(grant.name)" : grant.name
        let limit = SessionDatabase.OpenSessionLimit(
            maximum: state.limits.openSessionsPerDevice, idleSeconds: state.limits.sessionIdleSeconds,
            perDay: state.limits.sessionsPerDevicePerDay)
        switch try await state.store.createSession(
            Session(id: id, startDate: start, notes: creation.notes), owner: owner, at: .now, limit: limit)
        {
        case .created:
            context.logger.info("session created", metadata: ["session": .string(id), "device": .string(owner)])
            // A session of that id deleted before leaves nothing behind: its owner and tracker are replaced.
            state.remember(owner: owner, ofSession: id)
            await state.live.started(id)
        case .alreadyYours: break
        case .taken: throw HTTPError(.conflict, message: "session \(id) exists and is not yours")
        case .tooManyOpen(let open):
            throw HTTPError(
                .tooManyRequests,
                message: "this device has \(open) open sessions, the most it may have; end one (POST .../end) first")
        case .tooManyToday(let count):
            throw HTTPError(
                .tooManyRequests, message: "this device created \(count) sessions in the last 24 hours, the most it may")
        }
        return json("{\"id\":\(id.jsonQuoted)}", status: .created)
    }

    private func uploadLocations(_ request: Request, _ context: Context) async throws -> Response {
        let id = try await writable(context, uploading: true)
        var request = request
        let upload = try LocationUpload(
            body: try await UploadBody.collect(&request, limits: state.uploadLimits), limits: state.uploadLimits,
            maximumIDBytes: state.limits.maximumIDBytes)
        let (fixes, skips) = (upload.fixes, upload.skips)
        state.metrics.uploads.increment()
        state.metrics.fixesSkipped.increment(by: Int64(skips.count))
        let held = try await state.live.fixCount(of: id)
        guard held + fixes.count <= state.limits.fixesPerSession else {
            throw HTTPError(
                .contentTooLarge,
                message: "session \(id) holds \(held) fixes; a session holds at most \(state.limits.fixesPerSession)")
        }
        let outcome = try await state.writer.append(fixes, toSession: id)
        guard !outcome.sessionMissing else { throw HTTPError(.notFound, message: "no session \(id)") }
        state.metrics.fixesAccepted.increment(by: Int64(outcome.inserted))
        context.logger.debug(
            "fixes uploaded",
            metadata: [
                "session": .string(id), "device": .string(context.grant?.name ?? ""),
                "accepted": .stringConvertible(outcome.inserted),
                "duplicates": .stringConvertible(outcome.duplicates), "skipped": .stringConvertible(skips.count),
            ])
        state.metrics.fixesDuplicate.increment(by: Int64(outcome.duplicates))
        // Committed: from here on the batch is acknowledged, whatever happens to the tracker,
        // which is fed only the fixes new to the store (a retried batch feeds it nothing).
        let latest = try await state.live.accept(
            outcome.insertedPositions.map { fixes[$0] }, session: id, storedFixes: outcome.storedFixes,
            rider: try await state.owner(ofSession: id))
        return json(
            "{\"accepted\":\(outcome.inserted),\"duplicates\":\(outcome.duplicates),\"skipped\":\(skips.count),"
                + "\"skippedFixes\":\(skips.json),\"result\":\(latest ?? "null")}")
    }

    private func uploadMotionActivities(_ request: Request, _ context: Context) async throws -> Response {
        let id = try await writable(context, uploading: true)
        var request = request
        let batch = try UploadBody.decode(
            MotionActivityBatch.self, from: try await UploadBody.collect(&request, limits: state.uploadLimits),
            maximumBatch: state.uploadLimits.maximumBatch)
        try UploadBody.checkCount(batch.motionActivities.count, of: "motionActivities", limits: state.uploadLimits)
        let activities = batch.motionActivities.elements.compactMap {
            $0.activity(sessionID: id, maximumIDBytes: state.limits.maximumIDBytes)
        }
        let skipped = batch.motionActivities.count - activities.count
        let outcome = try await state.store.appending(motionActivities: activities)
        guard !outcome.sessionMissing else { throw HTTPError(.notFound, message: "no session \(id)") }
        return json("{\"accepted\":\(outcome.inserted),\"duplicates\":\(outcome.duplicates),\"skipped\":\(skipped)}")
    }

    // MARK: Access to one session

    /// The session id in the path, percent-decoded.
    private func sessionID(_ context: Context) throws -> String {
        let raw = try context.parameters.require("id")
        let id = raw.removingPercentEncoding ?? raw
        guard !id.isEmpty, id.utf8.count <= 1_024 else { throw HTTPError(.notFound, message: "no such session") }
        return id
    }

    /// The session id, if the caller may write to it: the device that created it, or an admin;
    /// to upload to it, it must not have ended (409).
    private func writable(_ context: Context, uploading: Bool = false) async throws -> String {
        let id = try await writable(context)
        if uploading, try await state.store.hasEnded(id) {
            throw HTTPError(.conflict, message: "session \(id) has ended; start a new session")
        }
        return id
    }

    private func writable(_ context: Context) async throws -> String {
        let id = try sessionID(context)
        let grant = try context.requireGrant()
        let owner = try await state.owner(ofSession: id)
        if grant.role == .admin {
            let exists = try await owner != nil ? true : state.store.sessionExists(id)
            guard exists else { throw HTTPError(.notFound, message: "no session \(id)") }
            return id
        }
        guard let owner else { throw HTTPError(.notFound, message: "no session \(id)") }
        guard owner == grant.name else { throw HTTPError(.forbidden, message: "session \(id) belongs to another device") }
        return id
    }

    private func existing(_ context: Context) async throws -> String {
        let id = try sessionID(context)
        guard try await state.store.sessionExists(id) else { throw HTTPError(.notFound, message: "no session \(id)") }
        return id
    }
}

/// Session ids a device may choose: 1 to `maximumBytes` letters, digits and `. _ ~ : @ + -`,
/// so an id can travel in a path, a header or an event stream as it is.
enum SessionIdentifier {
    /// The longest notes a session may carry.
    static let maximumNotesBytes = 4_096

    /// Throws 400 naming the rule for an id outside it.
    static func check(_ id: String, maximumBytes: Int) throws {
        let allowed = id.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || Array("._~:@+-".utf8).contains(byte)
        }
        // "." and ".." would be read as path steps by every URL parser.
        guard !id.isEmpty, id.utf8.count <= maximumBytes, allowed, id != ".", id != ".." else {
            throw HTTPError(
                .badRequest, message: "session id must be 1 to \(maximumBytes) letters, digits and . _ ~ : @ + - (not . or ..)")
        }
    }
}
