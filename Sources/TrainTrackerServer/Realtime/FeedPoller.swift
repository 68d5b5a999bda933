import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import TrainTrackerCore
import TrainTrackerRealtime

/// Polls every operator feed of `RealtimeSettings.sources` (`serve --realtime URL`): every
/// `pollSeconds`, conditionally (ETag and Last-Modified, so an unchanged feed costs a 304),
/// backing off after failures; each feed read goes to the board, each failure is logged and
/// counted. Stops when the server does.
struct FeedPoller: Service {
    /// What one poll found.
    enum Outcome: Equatable, Sendable {
        /// A feed was read: its trip updates and vehicles.
        case read(trips: Int, vehicles: Int)
        /// The feed had not changed (304).
        case unchanged
        /// The poll failed: why.
        case failed(String)
    }

    /// One source's conditional-request state.
    struct Validators: Sendable, Equatable {
        var etag: String?
        var lastModified: String?
    }

    /// How the poller's HTTP client works: no redirects (a feed's server cannot send the
    /// poller to another, an internal, address), 10 s to connect, 20 s of silence at most.
    static var clientConfiguration: HTTPClient.Configuration {
        .init(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10), read: .seconds(20)))
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
        let label = LiveBoard.label(of: url)
        while !Task.isCancelled {
            let outcome = await pollOnce(source: index, url: url, client: client, validators: &validators)
            var wait = board.settings.pollSeconds
            switch outcome {
            case .read(let trips, let vehicles):
                logger.info(
                    "realtime feed read",
                    metadata: [
                        "source": .string(label), "trips": .stringConvertible(trips), "vehicles": .stringConvertible(vehicles),
                        "ageSeconds": .stringConvertible(
                            Int(flooring: board.age(ofSource: index, at: board.now()) ?? 0, within: -86_400...86_400 * 365)),
                    ])
            case .unchanged:
                logger.debug("realtime feed unchanged", metadata: ["source": .string(label)])
            case .failed(let problem):
                let failures = board.failed(source: index)
                wait = Self.backoff(failures: failures, settings: board.settings)
                logger.warning(
                    "realtime feed failed",
                    metadata: [
                        "source": .string(label), "problem": .string(problem), "failures": .stringConvertible(failures),
                        "retryInSeconds": .stringConvertible(Int(flooring: wait, within: 0...86_400)),
                    ])
            }
            do { try await Task.sleep(for: .seconds(wait)) } catch { return }
        }
    }

    /// The wait after `failures` failed polls in a row: `firstBackoff`, doubling, at most
    /// `longestBackoff`, and never shorter than the usual poll.
    static func backoff(failures: Int, settings: RealtimeSettings) -> Seconds {
        let doubled = settings.firstBackoff * pow(2.0, Double(min(max(failures - 1, 0), 30)))
        return max(settings.pollSeconds, min(doubled, settings.longestBackoff))
    }

    /// Polls source `index` once, conditionally on `validators` (updated from the answer),
    /// and hands a feed read to the board: a feed dated ahead of the server's clock by more
    /// than a clock's error is a failure, never stored.
    func pollOnce(source index: Int, url: String, client: HTTPClient, validators: inout Validators) async -> Outcome {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/x-protobuf, application/octet-stream")
        request.headers.add(name: "User-Agent", value: "traintracker")
        if let etag = validators.etag { request.headers.add(name: "If-None-Match", value: etag) }
        if let modified = validators.lastModified { request.headers.add(name: "If-Modified-Since", value: modified) }
        do {
            let (timeout, request) = (timeout, request)
            guard let answer = try await Self.within(timeout, { try await Self.fetch(request, client: client, timeout: timeout) })
            else { return .failed("no whole answer within \(Int(flooring: timeout, within: 0...86_400)) s") }
            switch answer.status {
            case 304:
                board.unchanged(source: index, at: board.now())
                return .unchanged
            case 200:
                let reading = try RealtimeFeedReader.read(answer.body, name: LiveBoard.label(of: url))
                let now = board.now()
                guard !RealtimeSettings.isAhead(reading.feed.timestamp, of: now) else {
                    let ahead = Int(flooring: reading.feed.timestamp.seconds(since: now), within: 0...Int.max >> 1)
                    return .failed("\(LiveBoard.label(of: url)): dated \(ahead) s ahead of this server's clock")
                }
                board.received(reading.feed, source: index, at: now)
                validators = Validators(etag: answer.etag, lastModified: answer.lastModified)
                return .read(trips: reading.feed.trips.count, vehicles: reading.feed.vehicles.count)
            default:
                return .failed("HTTP \(answer.status)")
            }
        } catch let error as RealtimeError {
            return .failed(error.problem)
        } catch let error as NIOTooManyBytesError {
            return .failed("more than \(RealtimeFeedReader.largestFeed) bytes (\(error))")
        } catch {
            return .failed(String(describing: error))
        }
    }

    /// One answer to a poll: its status, validators and body (read only for a 200).
    struct Answer: Sendable {
        var status: UInt
        var etag: String?
        var lastModified: String?
        var body: [UInt8] = []
    }

    /// Sends `request` and reads the answer, its body only for a 200 (at most a feed's size).
    static func fetch(_ request: HTTPClientRequest, client: HTTPClient, timeout: Seconds) async throws -> Answer {
        let milliseconds = Int64(Int(flooring: timeout * 1_000, within: 1...86_400_000))
        let response = try await client.execute(request, timeout: .milliseconds(milliseconds))
        var answer = Answer(
            status: response.status.code, etag: response.headers.first(name: "ETag"),
            lastModified: response.headers.first(name: "Last-Modified"))
        if answer.status == 200 {
            answer.body = Array(try await response.body.collect(upTo: RealtimeFeedReader.largestFeed).readableBytesView)
        }
        return answer
    }

    /// What `work` returns, or nil once `limit` seconds have passed (`work` is cancelled then).
    static func within<T: Sendable>(_ limit: Seconds, _ work: @escaping @Sendable () async throws -> T) async throws -> T? {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: .milliseconds(Int(flooring: limit * 1_000, within: 0...86_400_000)))
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }
}
