import ServiceLifecycle
import TrainTrackerStorage

/// Live streams across instances: on a store several instances share, a viewer following a
/// session on this instance while its phone uploads to another still gets every answer.
/// Every `OtherInstances.interval`, the sessions followed here are looked up in the store
/// (one query for all of them); those with fixes this instance has not seen are caught up
/// (`LiveSessions.follow`), those ended elsewhere end, and those deleted elsewhere end too.
/// Nothing runs for a store only this instance writes.
struct OtherInstances: Service {
    /// How often the followed sessions are looked up: the most a viewer waits for an answer
    /// another instance gave.
    static let interval = Duration.seconds(1)

    let live: LiveSessions
    let store: any SessionStore
    let metrics: ServerMetrics

    func run() async throws {
        // A service that returns stops the server: with nothing to follow, wait for the stop.
        guard (try? await store.progress(ofSessions: [])) != nil else {
            try? await gracefulShutdown()
            return
        }
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            try? await cancelWhenGracefulShutdown {
                try await Task.sleep(for: Self.interval)
                // A store that does not answer must not hold the stop up.
                await catchUp()
            }
        }
    }

    /// Catches up every session followed here with the store.
    func catchUp() async {
        let followed = await live.followedSessions
        guard !followed.isEmpty else { return }
        do {
            guard let progress = try await store.progress(ofSessions: followed) else { return }
            for id in followed {
                if let session = progress[id] {
                    // One session the store cannot give back does not hold up the others.
                    do { try await live.follow(id, to: session) } catch { metrics.storeErrors.increment() }
                } else {
                    await live.end(id, reason: "session deleted")
                }
            }
        } catch {
            metrics.storeErrors.increment()
        }
    }
}
