import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import TrainTrackerTestSupport

/// `traintracker serve` running as a child process on a free loopback port, as an operator
/// would start it.
final class ServerProcess: @unchecked Sendable {
    let process: Process
    let port: Int
    /// What it wrote on standard error up to where it said it listens.
    let started: String
    private let errors: PipeReader
    private let exited = DispatchSemaphore(value: 0)

    /// Starts the server on `db` with `railways` and waits until it listens.
    init(railways: String, db: String, extra: [String] = []) throws {
        process = Process()
        process.executableURL = ToolRunner.executable
        process.arguments = ["serve", "--railways", railways, "--db", db, "--port", "0"] + extra
        let error = Pipe()
        process.standardError = error
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let exited = exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        // Read stderr until the server says where it listens.
        var text = ""
        let handle = error.fileHandleForReading
        let deadline = Date().addingTimeInterval(120)
        var found: Int?
        while found == nil, Date() < deadline {
            let data = handle.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
            if let range = text.range(of: #"listening on http://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                found = Int(text[range].split(separator: ":").last ?? "")
            }
        }
        guard let found else {
            process.terminate()
            throw ServerProcessError(message: "the server did not start: \(text)")
        }
        port = found
        started = text
        errors = PipeReader(error)
    }

    /// The URL of `path` on this server.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Kills the server at once (SIGKILL), as a crash or the OOM killer would.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Sends SIGTERM and waits at most `seconds` for the server to exit; the seconds it took,
    /// or nil if it was still running (then it is killed).
    func terminate(within seconds: Double) -> Double? {
        let start = Date()
        process.terminate()
        guard exited.wait(timeout: .now() + seconds) == .success else {
            kill()
            return nil
        }
        exited.signal()
        return Date().timeIntervalSince(start)
    }

    /// Stops the server politely, waits for it, and returns what it wrote on standard error
    /// after it started listening (its log).
    func stopAndReadLog() -> String {
        stop()
        return String(decoding: errors.wait(), as: UTF8.self)
    }

    /// Stops the server politely and waits for it.
    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    deinit { if process.isRunning { process.terminate() } }
}

struct ServerProcessError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// A small client over AsyncHTTPClient for the tests.
struct APIClient: Sendable {
    let server: ServerProcess
    let token: String

    struct Reply: Sendable {
        var status: HTTPResponseStatus
        var body: String
        var headers: [String: String] = [:]
        var json: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
        }
    }

    func request(_ method: HTTPMethod, _ path: String, body: String? = nil) async throws -> Reply {
        var request = HTTPClientRequest(url: server.url(path))
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let buffer = try await response.body.collect(upTo: 64 << 20)
        let headers = Dictionary(response.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        return Reply(status: response.status, body: String(buffer: buffer), headers: headers)
    }

    /// A stream being read in the background, returned once the server has greeted it: its
    /// task gives the whole text when the server ends the stream.
    func listening(_ path: String) async -> Task<String, any Error> {
        let (opened, open) = AsyncStream<Void>.makeStream()
        let task = Task {
            // A stream refused or ended before its greeting does not leave the caller waiting.
            defer { open.finish() }
            return try await eventText(path) { open.yield() }
        }
        for await _ in opened { break }
        return task
    }

    /// The whole text of a server-sent event stream, until the server ends it; `opened` is
    /// called when the first bytes (the server's greeting) arrive.
    func eventText(_ path: String, opened: @escaping @Sendable () -> Void = {}) async throws -> String {
        try await events(path, opened: opened).text
    }

    /// The `data:` lines of a server-sent event stream, until the server ends it, and its
    /// whole text; `opened` is called when the first bytes (the server's greeting) arrive.
    func events(_ path: String, within seconds: Int64 = 600, opened: @escaping @Sendable () -> Void = {}) async throws -> (
        status: HTTPResponseStatus, lines: [String], text: String
    ) {
        let (url, token) = (server.url(path), token)
        // The stream must end within the deadline (the request's own deadline does not cover
        // its body): whichever comes first, the end or the deadline, and the other is cancelled.
        let (status, text) = try await withThrowingTaskGroup(of: (HTTPResponseStatus, String).self) { group in
            group.addTask {
                var request = HTTPClientRequest(url: url)
                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                let response = try await HTTPClient.shared.execute(request, timeout: .seconds(seconds))
                var text = ""
                for try await chunk in response.body {
                    if text.isEmpty { opened() }
                    text += String(buffer: chunk)
                }
                return (response.status, text)
            }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                throw ServerProcessError(message: "\(path): the stream did not end within \(seconds) s")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw ServerProcessError(message: "\(path): no answer") }
            return first
        }
        let lines = text.components(separatedBy: "\n\n").filter { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) }
        return (status, lines, text)
    }
}

/// A fix as the upload API takes it.
func locationJSON(
    id: String, latitude: Double, longitude: Double, timestamp: String, accuracy: Double?, speed: Double?, course: Double?
)
    -> String
{
    "{\"id\":\"\(id)\",\"latitude\":\(latitude),\"longitude\":\(longitude),\"timestamp\":\"\(timestamp)\","
        + "\"horizontalAccuracy\":\(accuracy ?? 10),\"speed\":\(speed ?? -1),\"course\":\(course ?? -1)}"
}
