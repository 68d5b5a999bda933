import Testing
import TrainTrackerCore
import TrainTrackerStorage

@testable import TrainTrackerServer

/// Group commit: uploads arriving while a transaction commits share the next one; a store that
/// runs transactions side by side gets several at once, but a session's batches are never in
/// two open transactions, so they are stored and counted in the order they came.
///
/// The limit only catches a hang: it is as long as the other suites' (10 minutes), because
/// tests that run long block a thread of the shared pool, and on two cores a suite that starts
/// early may wait four or five minutes before it runs (CI, 2026-11-27: up to 260 s).
@Suite(.timeLimit(.minutes(10))) struct GroupCommitTests {
    /// Transactions that stay open until the test lets them commit, oldest first.
    actor Transactions {
        let opened: AsyncStream<[String]>
        private let announce: AsyncStream<[String]>.Continuation
        private var waiting: [CheckedContinuation<Void, Never>] = []
        private var openSessions: [String] = []
        private(set) var sessionInTwoTransactions = false
        private(set) var mostOpen = 0
        private var open = 0

        init() { (opened, announce) = AsyncStream.makeStream(of: [String].self) }

        func run(_ batches: [SessionDatabase.FixBatch]) async -> [BatchOutcome] {
            let sessions = batches.map(\.sessionID)
            if sessions.contains(where: openSessions.contains) { sessionInTwoTransactions = true }
            openSessions += Set(sessions)
            open += 1
            mostOpen = max(mostOpen, open)
            announce.yield(sessions)
            await withCheckedContinuation { waiting.append($0) }
            for session in Set(sessions) { openSessions.remove(at: openSessions.firstIndex(of: session) ?? 0) }
            open -= 1
            return batches.map { BatchOutcome(inserted: $0.fixes.count, duplicates: 0) }
        }

        /// Lets the oldest open transaction commit.
        func commitOldest() {
            guard !waiting.isEmpty else { return }
            waiting.removeFirst().resume()
        }
    }

    static func fixes(_ id: String) -> [RecordedFix] {
        [
            RecordedFix(
                id: id,
                location: Location(
                    coordinate: Coordinate(latitude: 35.6, longitude: 139.7),
                    timestamp: Timestamp(secondsSince1970: 1_758_500_000)))
        ]
    }

    @Test func anotherSessionGetsItsOwnTransactionWhileOneCommits() async throws {
        let transactions = Transactions()
        let commit = GroupCommit(writers: 2, metrics: ServerMetrics()) { await transactions.run($0) }
        var opened = transactions.opened.makeAsyncIterator()
        let first = Task { try await commit.append(Self.fixes("a-1"), toSession: "A") }
        #expect(await opened.next() == ["A"])
        // While A's transaction is open: A's next batch waits for it, B's goes ahead.
        let again = Task { try await commit.append(Self.fixes("a-2"), toSession: "A") }
        let other = Task { try await commit.append(Self.fixes("b-1"), toSession: "B") }
        #expect(await opened.next() == ["B"])
        await transactions.commitOldest()
        #expect(try await first.value.inserted == 1)
        #expect(await opened.next() == ["A"])
        await transactions.commitOldest()
        await transactions.commitOldest()
        #expect(try await again.value.inserted == 1)
        #expect(try await other.value.inserted == 1)
        #expect(await transactions.mostOpen == 2)
        #expect(await transactions.sessionInTwoTransactions == false)
    }

    @Test func oneWriterTakesEverythingThatArrivedWhileItCommitted() async throws {
        let transactions = Transactions()
        let commit = GroupCommit(writers: 1, metrics: ServerMetrics()) { await transactions.run($0) }
        var opened = transactions.opened.makeAsyncIterator()
        let first = Task { try await commit.append(Self.fixes("a-1"), toSession: "A") }
        #expect(await opened.next() == ["A"])
        let waiting = (0..<3).map { index in Task { try await commit.append(Self.fixes("b-\(index)"), toSession: "B\(index)") } }
        // Nothing opens until the first commits; then one transaction takes all three.
        await waitUntil { await commit.pendingCount == 3 }
        await transactions.commitOldest()
        #expect(try await first.value.inserted == 1)
        #expect(await opened.next()?.sorted() == ["B0", "B1", "B2"])
        await transactions.commitOldest()
        for task in waiting { #expect(try await task.value.inserted == 1) }
        #expect(await transactions.mostOpen == 1)
    }

    /// Waits (yielding, with no clock) until `condition` holds.
    func waitUntil(_ condition: () async -> Bool) async {
        for _ in 0..<100_000 where !(await condition()) { await Task.yield() }
        #expect(await condition())
    }
}
