import TrainTrackerCore
import TrainTrackerStorage

/// The tracker of every active session, in memory: fed each accepted batch, it answers with
/// the latest result and streams every new one to the session's listeners. After a restart a
/// session's tracker is rebuilt from its stored fixes the first time it is needed.
actor LiveSessions {
    private struct Live {
        var tracker: DefaultTracker
        var lastTimestamp: Timestamp?
        var latest: String?
        var listeners: [Int: AsyncStream<String>.Continuation] = [:]
    }

    private let model: TrackerModel
    private let store: SessionDatabase
    private var sessions: [String: Live] = [:]
    private var nextListener = 0

    init(model: TrackerModel, store: SessionDatabase) {
        self.model = model
        self.store = store
    }

    /// How many sessions have a tracker in memory.
    var activeCount: Int { sessions.count }

    /// Feeds `fixes` (committed to the store) to session `id`'s tracker and returns its latest
    /// answer as a JSONL line. Fixes older than the last one fed are stored but make the
    /// tracker replay the whole session from the store, in time order.
    func accept(_ fixes: [RecordedFix], session id: String) throws(StorageError) -> String? {
        var live = try loaded(id)
        let ordered = fixes.sorted { $0.location.timestamp < $1.location.timestamp }
        if let first = ordered.first, let last = live.lastTimestamp, first.location.timestamp <= last {
            // Out of order: start again from the store, which now holds every fix.
            let listeners = live.listeners
            live = try rebuilt(id)
            live.listeners = listeners
            if let line = live.latest { for listener in listeners.values { listener.yield(line) } }
        } else {
            for (index, fix) in ordered.enumerated() {
                let result = live.tracker.process(fix.location)
                live.lastTimestamp = fix.location.timestamp
                // Written out only when someone listens, or for the batch's answer.
                guard !live.listeners.isEmpty || index == ordered.count - 1 else { continue }
                let line = result.jsonLine(sessionID: id, fix: fix)
                live.latest = line
                for listener in live.listeners.values { listener.yield(line) }
            }
        }
        sessions[id] = live
        return live.latest
    }

    /// Session `id` was just created here: its tracker starts empty, with nothing to rebuild.
    func started(_ id: String) {
        if sessions[id] == nil { sessions[id] = Live(tracker: DefaultTracker(model: model)) }
    }

    /// A stream of session `id`'s answers from now on, starting with the latest one; it ends
    /// when the session ends.
    func listen(to id: String) throws(StorageError) -> AsyncStream<String> {
        var live = try loaded(id)
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        let key = nextListener
        nextListener += 1
        live.listeners[key] = continuation
        if let latest = live.latest { continuation.yield(latest) }
        sessions[id] = live
        continuation.onTermination = { _ in Task { await self.stopListening(id, key: key) } }
        return stream
    }

    /// Ends session `id`'s streams and forgets its tracker.
    func end(_ id: String) {
        guard let live = sessions.removeValue(forKey: id) else { return }
        for listener in live.listeners.values { listener.finish() }
    }

    private func stopListening(_ id: String, key: Int) {
        sessions[id]?.listeners[key] = nil
    }

    private func loaded(_ id: String) throws(StorageError) -> Live {
        if let live = sessions[id] { return live }
        return try rebuilt(id)
    }

    private func rebuilt(_ id: String) throws(StorageError) -> Live {
        var live = Live(tracker: DefaultTracker(model: model))
        let fixes = try store.fixes(sessionID: id).fixes
        for (index, fix) in fixes.enumerated() {
            let result = live.tracker.process(fix.location)
            live.lastTimestamp = fix.location.timestamp
            if index == fixes.count - 1 { live.latest = result.jsonLine(sessionID: id, fix: fix) }
        }
        return live
    }
}
