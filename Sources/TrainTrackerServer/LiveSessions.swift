import TrainTrackerCore
import TrainTrackerStorage

/// What a live stream carries.
enum LiveEvent: Sendable, Equatable {
    /// A new answer, with the fix it answers.
    case answer(LiveAnswer)
    /// Nothing new; sent every `ServerLimits.heartbeatSeconds` so a vanished client is noticed.
    case heartbeat
    /// The stream ends: the session ended, or the server is stopping.
    case end(reason: String)
}

/// One answer of a live stream: the JSONL line, the line the rider's own device is answered
/// with, and the fix it answers as the Session Viewer reads fixes (`RecordedFix.viewerJSON`).
struct LiveAnswer: Sendable, Equatable {
    var line: String
    var deviceLine: String
    var fix: String

    /// `delaySource` is said to the viewer, `deviceSource` to the rider's device
    /// (`LiveBoard.delaySources(ofTrip:for:)`).
    init(
        _ result: TrackingResult, session id: String, fix: RecordedFix, delaySource: DelaySource? = nil,
        deviceSource: DelaySource? = nil
    ) {
        let plain = result.jsonLine(sessionID: id, fix: fix)
        // Where the train's delay came from, when the answer names a train and it came from
        // outside (without, the line is the bytes of `replay`'s).
        func said(_ source: DelaySource?) -> String {
            guard let source, source != .ownFixes, result.best?.trainID != nil, plain.last == "}" else { return plain }
            return String(plain.dropLast()) + ",\"delaySource\":\"\(source.rawValue)\"}"
        }
        line = said(delaySource)
        deviceLine = said(deviceSource)
        self.fix = fix.viewerJSON
    }
}

/// Why a live stream cannot be opened.
enum LiveStreamRefusal: Error {
    /// The token has `ServerLimits.streamsPerToken` streams open.
    case tooManyStreams(Int)
    /// The server is stopping.
    case stopping
}

/// The tracker of every active session, in memory: fed each accepted batch, it answers with
/// the latest result and streams every new one to the session's listeners. A session's
/// tracker is rebuilt from its stored fixes the first time it is needed after a restart or
/// after it left memory: trackers idle for `ServerLimits.sessionIdleSeconds`, and the least
/// recently used beyond `ServerLimits.trackersInMemory`, leave unless someone listens.
actor LiveSessions {
    private struct Listener {
        var continuation: AsyncStream<LiveEvent>.Continuation
        var tokenHash: String
        var heartbeat: Task<Void, Never>
    }

    private struct Live {
        var tracker: any SessionTracking
        /// The device whose session it is, when known: riders agree by device.
        var device: String?
        var lastTimestamp: Timestamp?
        var latest: LiveAnswer?
        var listeners: [Int: Listener] = [:]
        var lastUsed = ContinuousClock.now
        /// Fixes stored for the session.
        var fixCount = 0
        /// Late fixes are stored but not yet tracked: the next replay takes them.
        var stale = false
        var lastReplay: ContinuousClock.Instant?
        /// How many fixes the store held (by its own count) when this instance last caught
        /// up with another's uploads.
        var storedSeen: Int?
    }

    /// A session replays (for late fixes) at most this often, and only while it holds at most
    /// `replayableFixes`: a replay holds every session's tracker, so one device sending one
    /// old fix per request cannot stall the others. Late fixes are stored all the same.
    static let replayInterval = Duration.seconds(10)
    static let replayableFixes = 20_000

    /// The network, the store, the limits, and which algorithm sessions run.
    private let settings: ServerSettings
    private let store: any SessionStore
    private let limits: ServerLimits
    /// What the trackers are told of the trains, and where riders' answers go.
    private let board: LiveBoard
    private var sessions: [String: Live] = [:]
    private var nextListener = 0
    private var stopping = false
    /// When idle trackers are next looked for.
    private var nextSweep = ContinuousClock.now

    init(settings: ServerSettings, board: LiveBoard) {
        self.settings = settings
        store = settings.store
        limits = settings.limits
        self.board = board
    }

    /// How many sessions have a tracker in memory.
    var activeCount: Int { sessions.count }

    /// How many trackers were rebuilt because another instance had stored fixes.
    private(set) var rebuilds = 0

    /// How many live streams are open.
    var streamCount: Int { sessions.values.reduce(0) { $0 + $1.listeners.count } }

    /// Feeds `fixes` (committed to the store, and new to it: a retried batch feeds nothing) to
    /// session `id`'s tracker and returns its latest answer as a JSONL line. Fixes older than
    /// the last one fed make the tracker replay the whole session from the store, in time
    /// order, at most every `replayInterval` and up to `replayableFixes`; until then they are
    /// stored but not tracked.
    /// `rider` names the session's device, so its answers count as that rider's train.
    func accept(_ fixes: [RecordedFix], session id: String, storedFixes: Int? = nil, rider: String? = nil)
        async throws(StorageError) -> String?
    {
        try await accepting(fixes, session: id, storedFixes: storedFixes, rider: rider)?.deviceLine
    }

    private func accepting(_ fixes: [RecordedFix], session id: String, storedFixes: Int?, rider: String?)
        async throws(StorageError) -> LiveAnswer?
    {
        var live = try await loaded(id)
        if let rider { live.device = rider }
        // A tracker just rebuilt from the store has this batch already.
        if let storedFixes, live.fixCount == storedFixes {
            live.storedSeen = storedFixes
            keep(live, as: id)
            return live.latest
        }
        live.fixCount += fixes.count
        // Another instance stored fixes this tracker has not seen (the store says how many
        // the session holds): start again from the store, as a replay would.
        if let storedFixes, storedFixes != live.fixCount {
            live = restarted(live, as: try await rebuilt(id))
            rebuilds += 1
            live.storedSeen = storedFixes
            keep(live, as: id)
            return live.latest
        }
        var ordered = fixes.sorted { $0.location.timestamp < $1.location.timestamp }
        if let first = ordered.first, let last = live.lastTimestamp, first.location.timestamp <= last {
            live.stale = true
            ordered.removeAll { $0.location.timestamp <= last }
        }
        if live.stale, Self.mayReplay(live, holding: live.fixCount) {
            // Start again from the store, which now holds every fix.
            live = restarted(live, as: try await rebuilt(id))
            live.lastReplay = ContinuousClock.now
        } else {
            feed(ordered, to: &live, session: id)
        }
        if let storedFixes { live.storedSeen = storedFixes }
        keep(live, as: id)
        return live.latest
    }

    /// How many fixes session `id` holds (its tracker is loaded if need be).
    func fixCount(of id: String) async throws(StorageError) -> Int {
        let live = try await loaded(id)
        keep(live, as: id)
        return live.fixCount
    }

    /// Session `id` was just created here: its tracker starts empty, with nothing to rebuild
    /// (replacing any a deleted session of that id left, whose streams end).
    func started(_ id: String) {
        end(id, reason: "session deleted")
        keep(Live(tracker: settings.makeTracker()), as: id)
    }

    /// A stream of session `id`'s answers from now on, starting with the latest one, for the
    /// token with hash `tokenHash`; it ends when the session ends, the server stops or `stop`
    /// is called (the client went away).
    ///
    /// - Throws: `LiveStreamRefusal` when the token has its most streams open or the server
    ///   is stopping; `StorageError` when the session cannot be read.
    func listen(to id: String, tokenHash: String) async throws -> (events: AsyncStream<LiveEvent>, stop: @Sendable () -> Void) {
        guard !stopping else { throw LiveStreamRefusal.stopping }
        let open = sessions.values.reduce(0) { $0 + $1.listeners.values.filter { $0.tokenHash == tokenHash }.count }
        guard open < limits.streamsPerToken else { throw LiveStreamRefusal.tooManyStreams(limits.streamsPerToken) }
        var live = try await loaded(id)
        let (stream, continuation) = AsyncStream<LiveEvent>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        let key = nextListener
        nextListener += 1
        let interval = Duration.seconds(limits.heartbeatSeconds)
        let heartbeat = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                continuation.yield(.heartbeat)
            }
        }
        live.listeners[key] = Listener(continuation: continuation, tokenHash: tokenHash, heartbeat: heartbeat)
        if let latest = live.latest { continuation.yield(.answer(latest)) }
        keep(live, as: id)
        continuation.onTermination = { _ in
            heartbeat.cancel()
            Task { await self.stopListening(id, key: key) }
        }
        return (stream, { continuation.finish() })
    }

    /// Ends session `id`'s streams, saying `reason`, and forgets its tracker.
    func end(_ id: String, reason: String = "session ended") {
        guard let live = sessions.removeValue(forKey: id) else { return }
        board.forget(session: id)
        for listener in live.listeners.values {
            listener.continuation.yield(.end(reason: reason))
            listener.continuation.finish()
        }
    }

    /// The server is stopping: every stream gets a last event and ends, and no new one opens.
    func stopAll() {
        stopping = true
        for (id, live) in sessions {
            for listener in live.listeners.values {
                listener.continuation.yield(.end(reason: "server stopping"))
                listener.continuation.finish()
            }
            sessions[id]?.listeners = [:]
        }
    }

    /// The sessions someone follows live on this instance.
    var followedSessions: [String] { sessions.filter { !$0.value.listeners.isEmpty }.map(\.key) }

    /// Another instance took session `id`'s uploads, and the store is at `progress`: this
    /// instance's listeners get an answer for every fix stored since they last heard, in
    /// time order, as if the uploads had come here (the tracker starts again from the
    /// store when fixes came late); a session that ended there ends here.
    func follow(_ id: String, to progress: SessionProgress) async throws(StorageError) {
        defer { if progress.ended { end(id) } }
        guard let known = sessions[id], !known.listeners.isEmpty, progress.storedFixes > (known.storedSeen ?? known.fixCount)
        else { return }
        let fixes = try await store.fixes(sessionID: id).fixes
        // Read again: an upload here may have fed the tracker while the store was read.
        guard var live = sessions[id] else { return }
        live.storedSeen = progress.storedFixes
        let unseen = fixes.filter { fix in live.lastTimestamp.map { fix.location.timestamp > $0 } ?? true }
        if !live.stale, unseen.count == fixes.count - live.fixCount {
            feed(unseen, to: &live, session: id)
            live.fixCount = fixes.count
        } else if Self.mayReplay(live, holding: fixes.count) {
            // Late fixes: start again from the store, as an upload here would (as often).
            live = restarted(live, as: rebuilt(id, from: fixes))
            live.storedSeen = progress.storedFixes
            live.lastReplay = ContinuousClock.now
            rebuilds += 1
        } else {
            live.stale = true
            live.storedSeen = nil
        }
        keep(live, as: id)
    }

    /// Feeds `fixes` (new, in time order) to `live`'s tracker; each answer goes to its
    /// listeners, and is written out only when someone listens or it is the last.
    /// Each fix at most `RealtimeSettings.freshestFix` old is tracked knowing what the board
    /// knows of the trains now (other riders' own sightings, not this rider's); the last
    /// answer tells the board which train this rider is on.
    private func feed(_ fixes: [RecordedFix], to live: inout Live, session id: String) {
        let now = board.now()
        let rider = LiveBoard.Rider(session: id, device: live.device ?? "session:\(id)")
        let trips = board.live(for: rider, at: now)
        var last: (result: TrackingResult, fix: Location)?
        for (index, fix) in fixes.enumerated() {
            let time = fix.location.timestamp
            // (Dated no later than the fix: the tracker takes a feed made after a fix for one it could not have known.)
            let fresh = now.seconds(since: time) <= board.settings.freshestFix
            live.tracker.live = fresh ? trips.map { $0.dated(min($0.timestamp, time)) } : nil
            let result = live.tracker.process(fix.location)
            live.lastTimestamp = time
            last = (result, fix.location)
            guard !live.listeners.isEmpty || index == fixes.count - 1 else { continue }
            let sources = board.delaySources(ofTrip: result.best?.trainID, for: rider)
            let answer = LiveAnswer(result, session: id, fix: fix, delaySource: sources.viewer, deviceSource: sources.device)
            live.latest = answer
            for listener in live.listeners.values { listener.continuation.yield(.answer(answer)) }
        }
        if let last { board.record(rider: rider, answer: last.result, for: last.fix, now: now) }
    }

    /// `rebuilt` in place of `live`: `live`'s listeners carry on, and hear its latest answer.
    private func restarted(_ live: Live, as rebuilt: Live) -> Live {
        var next = rebuilt
        next.listeners = live.listeners
        next.device = live.device ?? rebuilt.device
        if let answer = next.latest { for listener in next.listeners.values { listener.continuation.yield(.answer(answer)) } }
        return next
    }

    /// Whether a session holding `fixes` may replay now: small enough, and not replayed in
    /// the last `replayInterval`.
    private static func mayReplay(_ live: Live, holding fixes: Int) -> Bool {
        fixes <= replayableFixes && (live.lastReplay.map { ContinuousClock.now - $0 >= replayInterval } ?? true)
    }

    private func stopListening(_ id: String, key: Int) {
        sessions[id]?.listeners[key] = nil
    }

    /// Keeps `live` as session `id`'s, last used now, and lets idle and surplus trackers go.
    private func keep(_ live: Live, as id: String) {
        var live = live
        let now = ContinuousClock.now
        live.lastUsed = now
        sessions[id] = live
        let idle = Duration.seconds(limits.sessionIdleSeconds)
        // Checked now and then, not on every batch: a sweep walks every session.
        guard sessions.count > limits.trackersInMemory || nextSweep <= now else { return }
        nextSweep = now + .seconds(60)
        sessions = sessions.filter { $0.key == id || !$0.value.listeners.isEmpty || now - $0.value.lastUsed < idle }
        if sessions.count > limits.trackersInMemory {
            let surplus = sessions.filter { $0.key != id && $0.value.listeners.isEmpty }
                .sorted { $0.value.lastUsed < $1.value.lastUsed }.prefix(sessions.count - limits.trackersInMemory)
            for (key, _) in surplus { sessions[key] = nil }
        }
    }

    private func loaded(_ id: String) async throws(StorageError) -> Live {
        if let live = sessions[id] { return live }
        let rebuilt = try await rebuilt(id)
        // Another call may have loaded it while the store was read: that one stands.
        return sessions[id] ?? rebuilt
    }

    private func rebuilt(_ id: String) async throws(StorageError) -> Live {
        var live = rebuilt(id, from: try await store.fixes(sessionID: id).fixes)
        // Its device, so its answers count as that rider's wherever it was rebuilt.
        live.device = try await store.owner(ofSession: id)
        return live
    }

    /// A tracker fed `fixes`, session `id`'s stored fixes in time order.
    private func rebuilt(_ id: String, from fixes: [RecordedFix]) -> Live {
        var live = Live(tracker: settings.makeTracker())
        live.fixCount = fixes.count
        for (index, fix) in fixes.enumerated() {
            let result = live.tracker.process(fix.location)
            live.lastTimestamp = fix.location.timestamp
            if index == fixes.count - 1 { live.latest = LiveAnswer(result, session: id, fix: fix) }
        }
        return live
    }
}
