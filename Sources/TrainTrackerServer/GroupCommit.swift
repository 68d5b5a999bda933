import TrainTrackerCore
import TrainTrackerStorage

/// Writes the batches of concurrent uploads together: while one transaction commits, the
/// batches that arrive wait, and the next transaction takes them all. Each upload is answered
/// only after the transaction holding it has committed, so an acknowledged fix is on disk
/// (in the WAL) however many share the commit.
actor GroupCommit {
    private let store: any SessionStore
    private var pending: [(batch: SessionDatabase.FixBatch, reply: CheckedContinuation<BatchOutcome, any Error>)] = []
    private var writing = false

    init(store: any SessionStore) { self.store = store }

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
            do {
                let outcomes = try await store.appending(taken.map(\.batch), at: .now)
                for (item, outcome) in zip(taken, outcomes) { item.reply.resume(returning: outcome) }
            } catch {
                for item in taken { item.reply.resume(throwing: error) }
            }
        }
        writing = false
    }
}
