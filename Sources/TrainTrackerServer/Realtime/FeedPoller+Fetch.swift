import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import TrainTrackerCore
import TrainTrackerRealtime

extension FeedPoller {
    /// How the poller's HTTP client works: 10 s to connect (a refused connection is retried
    /// until then), 20 s of silence at most, gzip and deflate bodies decompressed up to a
    /// feed's size; redirects are followed by `pollOnce` itself, which checks where they lead.
    static var clientConfiguration: HTTPClient.Configuration {
        .init(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10), read: .seconds(20)),
            decompression: .enabled(limit: .size(RealtimeFeedReader.largestFeed)))
    }

    /// A poll follows at most this many redirects.
    static let mostRedirects = 3
    /// A redirect's body is read up to this many bytes (and dropped).
    static let largestRedirectBody = 65_536

    /// Polls source `index` once, conditionally on `validators` (updated from the answer),
    /// and hands a feed read to the board: a feed dated ahead of the server's clock by more
    /// than a clock's error, or older than `--realtime-max-age`, is a failure, never stored
    /// (the feed read before stays in use). A failure is counted on the board, by reason.
    func pollOnce(source index: Int, url: String, client: HTTPClient, validators: inout Validators) async -> Outcome {
        let outcome = await attempt(source: index, url: url, client: client, validators: &validators)
        if case .failed(let reason, _) = outcome { board.failed(source: index, because: reason) }
        return outcome
    }

    /// `pollOnce` but for counting its failure.
    private func attempt(source index: Int, url: String, client: HTTPClient, validators: inout Validators) async
        -> Outcome
    {
        let label = LiveBoard.label(of: url)
        do {
            guard
                let answer = try await Self.within(
                    timeout,
                    { [timeout, validators] in
                        try await Self.fetch(url, validators: validators, client: client, timeout: timeout)
                    })
            else { return .failed(.timeout, "no whole answer within \(Int(flooring: timeout, within: 0...86_400)) s") }
            switch answer.status {
            case 304:
                board.unchanged(source: index, at: board.now())
                return .unchanged
            case 200:
                let reading = try RealtimeFeedReader.read(answer.body, name: label)
                let now = board.now()
                if let refusal = refusal(of: reading.feed.timestamp, at: now, label: label) { return refusal }
                board.received(reading.feed, source: index, at: now, skipped: reading.skipped)
                validators = Validators(etag: answer.etag, lastModified: answer.lastModified)
                return .read(trips: reading.feed.trips.count, vehicles: reading.feed.vehicles.count, skipped: reading.skipped)
            default:
                return .failed(.status, answer.refusedRedirect ?? "HTTP \(answer.status)")
            }
        } catch let error as RealtimeError {
            return .failed(.unreadable, error.problem)
        } catch let error as NIOTooManyBytesError {
            return .failed(.unreadable, "more than \(RealtimeFeedReader.largestFeed) bytes (\(error))")
        } catch is NIOHTTPDecompression.DecompressionError {
            return .failed(.unreadable, "a compressed body of more than \(RealtimeFeedReader.largestFeed) bytes, or broken")
        } catch {
            let (reason, problem) = Self.problem(of: error)
            return .failed(reason, problem)
        }
    }

    /// Why a feed dated `time` is refused at `now`: dated ahead of the clock (a clock gone wrong
    /// would never age out), or older than `--realtime-max-age` (a stale copy would replace a
    /// fresh feed); nil when it is fresh.
    private func refusal(of time: Timestamp, at now: Timestamp, label: String) -> Outcome? {
        if RealtimeSettings.isAhead(time, of: now) {
            let ahead = Int(flooring: time.seconds(since: now), within: 0...Int.max >> 1)
            return .failed(.ahead, "\(label): dated \(ahead) s ahead of this server's clock")
        }
        guard board.settings.isFresh(time, at: now) else {
            let age = Int(flooring: now.seconds(since: time), within: 0...Int.max >> 1)
            let most = Int(flooring: board.settings.maximumAge, within: 0...Int.max >> 1)
            return .failed(
                .stale,
                "\(label): dated \(age) s before this server's clock, older than --realtime-max-age (\(most) s); "
                    + "the feed read before stays in use (a recorded feed is served live with --realtime-clock-from)")
        }
        return nil
    }

    /// A transport error as a reason and one line: the timeouts in words, anything else as the
    /// client says it.
    static func problem(of error: any Error) -> (PollFailure, String) {
        if let error = error as? IOError {
            // (NIO's own description nests the reason's parentheses in the system's message.)
            return (.connection, "connection failed: \(String(cString: strerror(error.errnoCode))) (errno \(error.errnoCode))")
        }
        switch error as? HTTPClientError {
        case .connectTimeout?: return (.timeout, "no connection within 10 s (refused, or no answer)")
        case .readTimeout?: return (.timeout, "silent for 20 s")
        case .deadlineExceeded?: return (.timeout, "no whole answer in time")
        case .remoteConnectionClosed?: return (.connection, "the server closed the connection")
        default: return (.connection, String(describing: error))
        }
    }

    /// One answer to a poll: its status, validators and body (read only for a 200).
    struct Answer: Sendable {
        var status: UInt
        var etag: String?
        var lastModified: String?
        var body: [UInt8] = []
        /// Why a redirect was not followed.
        var refusedRedirect: String?
    }

    /// Asks for `url` (conditionally on `validators`), following up to `mostRedirects`
    /// redirects (`redirectTarget`), and reads the answer, its body only for a 200 (at most a
    /// feed's size, decompressed).
    static func fetch(_ url: String, validators: Validators, client: HTTPClient, timeout: Seconds) async throws -> Answer {
        let milliseconds = Int64(Int(flooring: timeout * 1_000, within: 1...86_400_000))
        var location = url
        for hop in 0...mostRedirects {
            var request = HTTPClientRequest(url: location)
            request.headers.add(name: "Accept", value: "application/x-protobuf, application/octet-stream")
            request.headers.add(name: "User-Agent", value: "traintracker")
            if let etag = validators.etag { request.headers.add(name: "If-None-Match", value: etag) }
            if let modified = validators.lastModified { request.headers.add(name: "If-Modified-Since", value: modified) }
            let response = try await client.execute(request, timeout: .milliseconds(milliseconds))
            var answer = Answer(
                status: response.status.code, etag: response.headers.first(name: "ETag"),
                lastModified: response.headers.first(name: "Last-Modified"))
            if [301, 302, 303, 307, 308].contains(answer.status) {
                // (A redirect's short body read, so its connection may serve the next request.)
                _ = try? await response.body.collect(upTo: largestRedirectBody)
                switch redirectTarget(response.headers.first(name: "Location"), from: location) {
                case .success(let next) where hop < mostRedirects:
                    location = next
                    continue
                case .success:
                    answer.refusedRedirect = "HTTP \(answer.status): more than \(mostRedirects) redirects"
                case .failure(let refusal):
                    answer.refusedRedirect = "HTTP \(answer.status): \(refusal.problem)"
                }
            }
            if answer.status == 200 {
                answer.body = Array(try await response.body.collect(upTo: RealtimeFeedReader.largestFeed).readableBytesView)
            }
            return answer
        }
        preconditionFailure("the loop returns at its last hop")
    }

    /// Where a redirect from `current` to `location` leads, when it may be followed: an http
    /// or https URL (never https to http), on the same host; or on another host given by a
    /// name, not an address in any spelling (`10.0.0.1`, `2130706433`, `0x7f.1`, `[::1]`), nor
    /// `localhost`. A feed's server cannot send the poller to the machine's own services or a
    /// cloud's metadata address by number; a name that resolves to one is not caught.
    static func redirectTarget(_ location: String?, from current: String) -> Result<String, RealtimeError> {
        guard let location, let base = URL(string: current), let target = URL(string: location, relativeTo: base)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), ["http", "https"].contains(scheme), let host = target.host?.lowercased(),
            !host.isEmpty
        else { return .failure(RealtimeError("a redirect to no http or https URL, not followed")) }
        guard !(base.scheme?.lowercased() == "https" && scheme == "http") else {
            return .failure(RealtimeError("a redirect from https to http, not followed"))
        }
        // (A host is letters, digits, '-', '.', '_' and an IPv6 literal's ':': anything else, a
        // newline decoded from %0A say, would reach the log.)
        guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._:".contains($0)) }) else {
            return .failure(RealtimeError("a redirect to a host name with characters no host name has, not followed"))
        }
        guard base.host?.lowercased() == host || !isAddressOrLocal(host: host) else {
            return .failure(RealtimeError("a redirect to another host given by address (\(host)), not followed"))
        }
        return .success(target.absoluteString)
    }

    /// Whether `host` is an address rather than a name, in any spelling a resolver takes (an
    /// IPv6 literal; an IPv4 address in dotted, shortened, decimal, octal or hexadecimal
    /// parts), or names this machine (`localhost`, `*.localhost`, a trailing dot or not).
    static func isAddressOrLocal(host: String) -> Bool {
        var name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        while name.hasSuffix(".") { name.removeLast() }
        if name.isEmpty || name.contains(":") || name == "localhost" || name.hasSuffix(".localhost") { return true }
        // inet_aton's parts: each a decimal, 0-led octal or 0x-led hexadecimal number.
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
            let digits = part.hasPrefix("0x") ? part.dropFirst(2) : part[...]
            return !part.isEmpty && digits.allSatisfy { part.hasPrefix("0x") ? $0.isHexDigit : $0.isNumber }
        }
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
