import AsyncHTTPClient
import Foundation
import Logging
import ServiceLifecycle
import TrainTrackerCore
import TrainTrackerRealtime

/// Polls every operator feed of `RealtimeSettings.sources` (`serve --realtime URL`): every
/// `pollSeconds`, conditionally (ETag and Last-Modified, so an unchanged feed costs a 304),
/// backing off after failures; each fresh feed read goes to the board, each failure (a stale
/// feed among them: it never replaces a fresh one) is logged and counted, and so is each
/// change of a source's freshness. Stops when the server does.
struct FeedPoller: Service {
    /// What one poll found.
    enum Outcome: Equatable, Sendable {
        /// A feed was read: its trip updates and vehicles, and the entities left out by reason.
        case read(trips: Int, vehicles: Int, skipped: [String: Int] = [:])
        /// The feed had not changed (304).
        case unchanged
        /// The poll failed: why, in a word for `/metrics`, and in a line for the log.
        case failed(PollFailure, String)
    }

    /// Why a poll failed, as `/metrics` counts it (`reason` label).
    enum PollFailure: String, CaseIterable, Sendable {
        /// The feed's header is older than `--realtime-max-age`.
        case stale
        /// The feed's header is ahead of this server's clock.
        case ahead
        /// A status other than 200 or 304, or a redirect not followed.
        case status
        /// Bytes that are no feed, or too many.
        case unreadable
        /// No whole answer in time.
        case timeout
        /// No connection, or it broke.
        case connection
    }

    /// One source's conditional-request state.
    struct Validators: Sendable, Equatable {
        var etag: String?
        var lastModified: String?
    }

    /// A poll waits at most this long for the whole answer, its body included: a server that
    /// sends a byte every few seconds would otherwise hold its poll for ever.
    static let pollTimeout: Seconds = 30

    let board: LiveBoard
    let logger: Logger
    /// `pollTimeout`, or a test's.
    var timeout = FeedPoller.pollTimeout

    func run() async throws {
        let sources = board.settings.sources
        // (A service that returns early stops the server: without feeds, it waits to stop.)
        guard !sources.isEmpty else { return try await gracefulShutdown() }
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: Self.clientConfiguration)
        try? await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                for (index, url) in sources.enumerated() {
                    group.addTask { await poll(source: index, url: url, client: client) }
                }
            }
        }
        try? await client.shutdown()
    }

    /// Polls one source until cancelled.
    private func poll(source index: Int, url: String, client: HTTPClient) async {
        var validators = Validators()
        var freshness = LiveBoard.Freshness.none
        let label = LiveBoard.label(of: url)
        while !Task.isCancelled {
            let outcome = await pollOnce(source: index, url: url, client: client, validators: &validators)
            // (A poll cut short by the server stopping is no failure of the feed.)
            guard !Task.isCancelled else { return }
            var wait = board.settings.pollSeconds
            switch outcome {
            case .read(let trips, let vehicles, let skipped):
                logRead(label: label, source: index, trips: trips, vehicles: vehicles, skipped: skipped)
            case .unchanged:
                logger.debug("realtime feed unchanged", metadata: ["source": .string(label)])
            case .failed(let reason, let problem):
                let failures = board.sources.dropFirst(index).first?.failures ?? 0
                // (A feed that arrives stale or ahead comes from a server that answers: polled as
                // usual, its next feed is read as soon as it is fresh.)
                if ![.stale, .ahead].contains(reason) { wait = Self.backoff(failures: failures, settings: board.settings) }
                logger.warning(
                    "realtime feed failed",
                    metadata: [
                        "source": .string(label), "reason": .string(reason.rawValue), "problem": .string(problem),
                        "failures": .stringConvertible(failures),
                        "retryInSeconds": .stringConvertible(Int(flooring: wait, within: 0...86_400)),
                    ])
            }
            guard await rest(wait, source: index, label: label, freshness: &freshness) else { return }
        }
    }

    /// Logs a feed read at `info` with what it held, or at `warning` when entities were left
    /// out and nothing was read (a feed every entity of which is malformed is no healthy read).
    func logRead(label: String, source index: Int, trips: Int, vehicles: Int, skipped: [String: Int]) {
        var metadata: Logger.Metadata = [
            "source": .string(label), "trips": .stringConvertible(trips), "vehicles": .stringConvertible(vehicles),
            "ageSeconds": .stringConvertible(
                Int(flooring: board.age(ofSource: index, at: board.now()) ?? 0, within: -86_400...86_400 * 365)),
        ]
        if !skipped.isEmpty {
            metadata["skipped"] = .string(
                skipped.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; "))
        }
        if !skipped.isEmpty, trips + vehicles == 0 {
            logger.warning("realtime feed read, every entity skipped", metadata: metadata)
        } else {
            logger.info("realtime feed read", metadata: metadata)
        }
    }

    /// Waits `wait` seconds, waking when source `index`'s feed ages out to log the change of its
    /// freshness (`freshness`, the last logged). False when cancelled.
    private func rest(_ wait: Seconds, source index: Int, label: String, freshness: inout LiveBoard.Freshness) async
        -> Bool
    {
        var left = wait
        while true {
            let untilStale = noteFreshness(source: index, label: label, was: &freshness)
            guard left > 0 else { return true }
            // (Waking just after the feed ages out, at most once a second.)
            let step = min(left, untilStale.map { max($0 + 0.5, 1) } ?? left)
            do { try await Task.sleep(for: .milliseconds(Int(flooring: step * 1_000, within: 0...86_400_000))) } catch {
                return false
            }
            left -= step
        }
    }

    /// Logs a change of source `index`'s freshness since `freshness` (updated): turned fresh at
    /// `notice`, aged out at `warning`. Returns the seconds until it ages out, while fresh.
    func noteFreshness(source index: Int, label: String, was freshness: inout LiveBoard.Freshness) -> Seconds? {
        let (current, untilStale) = board.freshness(ofSource: index, at: board.now())
        guard current != freshness else { return untilStale }
        let metadata: Logger.Metadata = [
            "source": .string(label), "from": .string(freshness.rawValue), "to": .string(current.rawValue),
            "maximumAgeSeconds": .stringConvertible(Int(flooring: board.settings.maximumAge, within: 0...86_400 * 365)),
        ]
        if current == .fresh {
            logger.notice("realtime feed fresh: told to trackers", metadata: metadata)
        } else if freshness == .fresh {
            logger.warning("realtime feed stale: no longer told to trackers", metadata: metadata)
        }
        freshness = current
        return untilStale
    }

    /// The wait after `failures` failed polls in a row: `firstBackoff`, doubling, at most
    /// `longestBackoff`, and never shorter than the usual poll.
    static func backoff(failures: Int, settings: RealtimeSettings) -> Seconds {
        let doubled = settings.firstBackoff * pow(2.0, Double(min(max(failures - 1, 0), 30)))
        return max(settings.pollSeconds, min(doubled, settings.longestBackoff))
    }
}
