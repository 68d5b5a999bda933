import TrainTrackerCore
import TrainTrackerStorage

/// Writes the batches of concurrent uploads together: while a transaction commits, the
/// batches that arrive wait, and the next transaction takes them all. A store that runs
/// transactions side by side (`SessionStore.concurrentWriters`, PostgreSQL) gets up to that
/// many at once; a session's batches are never in two of them, so they are stored, counted
/// and tracked in the order they arrived. Each upload is answered only after the
/// transaction holding it has committed, so an acknowledged fix is stored however many share
/// the commit.
actor GroupCommit {
    private typealias Pending = (batch: SessionDatabase.FixBatch, reply: CheckedContinuation<BatchOutcome, any Error>)

    /// Writes batches in one transaction and returns once it has committed.
    typealias Transaction = @Sendable ([SessionDatabase.FixBatch]) async throws -> [BatchOutcome]

    private let transaction: Transaction
    private let metrics: ServerMetrics
    private let writers: Int
    private var pending: [Pending] = []
    /// The sessions with a batch in an open transaction.
    private var writingSessions: Set<String> = []
    private var openTransactions = 0

    /// Writes to `store`, with as many transactions at once as it runs side by side.
    init(store: any SessionStore, metrics: ServerMetrics) {
        self.init(writers: store.concurrentWriters, metrics: metrics) { batches in try await store.appending(batches, at: .now) }
    }

    /// Writes with `transaction`, at most `writers` at once.
    init(writers: Int, metrics: ServerMetrics, transaction: @escaping Transaction) {
        self.transaction = transaction
        self.metrics = metrics
        self.writers = max(1, writers)
    }

    /// How many batches wait for a transaction.
    var pendingCount: Int { pending.count }

    /// Stores `fixes` in session `sessionID` and returns once they are committed.
    func append(_ fixes: [RecordedFix], toSession sessionID: String) async throws -> BatchOutcome {
        try await withCheckedThrowingContinuation { reply in
            pending.append((SessionDatabase.FixBatch(sessionID: sessionID, fixes: fixes), reply))
            startWriting()
        }
    }

    /// Opens transactions while there are free writers and batches they may take.
    private func startWriting() {
        while openTransactions < writers {
            let taken = takeWritable()
            guard !taken.isEmpty else { return }
            openTransactions += 1
            Task { await self.write(taken) }
        }
    }

    /// The pending batches of sessions no open transaction is writing (all of a session's
    /// pending batches together, in order), marked as being written.
    private func takeWritable() -> [Pending] {
        var taken: [Pending] = []
        var waiting: [Pending] = []
        for item in pending {
            if writingSessions.contains(item.batch.sessionID) {
                waiting.append(item)
            } else {
                taken.append(item)
            }
        }
        for item in taken { writingSessions.insert(item.batch.sessionID) }
        pending = waiting
        return taken
    }

    private func write(_ taken: [Pending]) async {
        let started = ContinuousClock.now
        do {
            let outcomes = try await transaction(taken.map(\.batch))
            guard outcomes.count == taken.count else {
                throw StorageError.database(
                    path: "group commit", message: "\(outcomes.count) outcomes for \(taken.count) batches")
            }
            let took = ContinuousClock.now - started
            for (item, outcome) in zip(taken, outcomes) {
                metrics.commitSeconds.record(took)
                item.reply.resume(returning: outcome)
            }
        } catch {
            metrics.storeErrors.increment()
            for item in taken { item.reply.resume(throwing: error) }
        }
        for item in taken { writingSessions.remove(item.batch.sessionID) }
        openTransactions -= 1
        startWriting()
    }
}
