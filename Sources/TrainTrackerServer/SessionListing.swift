import TrainTrackerCore
import TrainTrackerStorage

/// The read side for operators and the Session Viewer: the sessions, filtered and a page at a
/// time, with what the tracker made of each.
struct SessionListing {
    let state: ServerState

    /// `GET /v1/sessions`: the sessions `query` admits, newest first, a page of them: id,
    /// start, end, duration (first fix to last, by the phone's clock alone), fixes, notes,
    /// device, whether it is live (not ended, an upload within the idle time), and the railway
    /// the tracker answered most often (its id, name and colour); with `total` (sessions
    /// admitted), and the devices and lines to filter by. A session's railway is worked out
    /// for the sessions shown (for all admitted when filtering by line), again only once it
    /// has grown by a quarter, and at most `replayedFixesPerListing` fixes a listing.
    func json(_ query: SessionQuery = SessionQuery()) async throws -> String {
        let network = state.model.network
        let now = Timestamp.now
        let all = try await state.store.listedSessions()
        let live = { (session: ListedSession) in session.isLive(at: now, idleSeconds: state.limits.sessionIdleSeconds) }
        var admitted = all.filter { query.admits($0, isLive: live($0)) }
        var budget = Self.replayedFixesPerListing
        if let line = query.line {
            var kept: [ListedSession] = []
            for session in admitted where try await railway(of: session, budget: &budget) == line { kept.append(session) }
            admitted = kept
        }
        let page = admitted.dropFirst(query.offset).prefix(query.limit)
        var items: [String] = []
        for session in page {
            let summary = session.summary
            var object = JSONObjectWriter()
            object.string("id", summary.session.id)
            object.string("startDate", summary.session.startDate.iso8601)
            object.string("endDate", summary.session.endDate?.iso8601)
            object.number("duration", summary.fixSpan)
            object.integer("fixes", summary.locationCount)
            object.string("notes", summary.session.notes)
            object.string("device", session.device)
            object.raw("live", live(session) ? "true" : "false")
            let railway = try await railway(of: session, budget: &budget).flatMap { network.railway(id: $0) }
            object.string("railway", railway?.id)
            object.string("railwayName", railway?.name)
            object.string("color", railway?.color)
            items.append(object.finish())
        }
        let devices = Set(all.compactMap(\.device)).sorted().map(\.jsonQuoted)
        let lines = Set(all.compactMap { state.detectedRailway(of: $0.summary.session.id)?.railway })
            .sorted().compactMap { network.railway(id: $0) }
            .map { "{\"id\":\($0.id.jsonQuoted),\"name\":\($0.name.jsonQuoted)}" }
        return "{\"total\":\(admitted.count),\"offset\":\(query.offset),\"limit\":\(query.limit),\"sessions\":"
            + JSONObjectWriter.array(items) + ",\"devices\":" + JSONObjectWriter.array(devices) + ",\"lines\":"
            + JSONObjectWriter.array(lines) + "}"
    }

    /// A listing replays at most this many fixes to find its sessions' railways; the others
    /// keep what was found before (or none) until a later listing.
    static let replayedFixesPerListing = 200_000
    /// A railway found for a session stands until the session has grown by this factor: a
    /// live session is not replayed on every refresh, and over its life it is replayed in
    /// all about five times its length.
    static let growthBeforeRecount = 1.25

    /// The railway the tracker named most often for `session`, worked out again only when
    /// the session has grown by `growthBeforeRecount` and `budget` (fixes) allows.
    private func railway(of session: ListedSession, budget: inout Int) async throws -> String? {
        let (id, fixes) = (session.summary.session.id, session.summary.locationCount)
        let known = state.detectedRailway(of: id)
        if let known, Double(fixes) <= Double(known.fixes) * Self.growthBeforeRecount { return known.railway }
        guard fixes <= budget else { return known?.railway }
        budget -= fixes
        let found = try await mainRailway(of: id)
        state.remember(railway: found, of: id, fixes: fixes)
        return found
    }

    /// The railway the tracker named most often for session `id`.
    private func mainRailway(of id: String) async throws -> String? {
        var tracker = state.settings.makeTracker()
        var counts: [String: Int] = [:]
        for fix in try await state.store.fixes(sessionID: id).fixes {
            if let railway = tracker.process(fix.location).best?.railwayID { counts[railway, default: 0] += 1 }
        }
        return counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key
    }
}
