import TrainTrackerCore
import TrainTrackerStorage

/// Writes the batches of concurrent uploads together: while one transaction commits, the
/// batches that arrive wait, and the next transaction takes them all. Each upload is answered
/// only after the transaction holding it has committed, so an acknowledged fix is on disk
/// (in the WAL) however many share the commit.
actor GroupCommit {
    private let store: any SessionStore
    private let metrics: ServerMetrics
    private var pending: [(batch: SessionDatabase.FixBatch, reply: CheckedContinuation<BatchOutcome, any Error>)] = []
    private var writing = false

    init(store: any SessionStore, metrics: ServerMetrics) {
        self.store = store
        self.metrics = metrics
    }

    /// Stores `fixes` in session `sessionID` and returns once they are committed.
    func append(_ fixes: [RecordedFix], toSession sessionID: String) async throws -> BatchOutcome {
        try await withCheckedThrowingContinuation { reply in
            pending.append((SessionDatabase.FixBatch(sessionID: sessionID, fixes: fixes), reply))
            if !writing {
                writing = true
                Task { await self.drain() }
            }
        }
    }

    private func drain() async {
        while !pending.isEmpty {
            let taken = pending
            pending = []
            let started = ContinuousClock.now
            do {
                let outcomes = try await store.appending(taken.map(\.batch), at: .now)
                let took = ContinuousClock.now - started
                for (item, outcome) in zip(taken, outcomes) {
                    metrics.commitSeconds.record(took)
                    item.reply.resume(returning: outcome)
                }
            } catch {
                metrics.storeErrors.increment()
                for item in taken { item.reply.resume(throwing: error) }
            }
        }
        writing = false
    }
}
