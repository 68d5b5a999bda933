import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// How `traintracker load` spreads uploads over several servers, as a load balancer would.
enum LoadSplit: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Each session has a home server (by its number, as `balance uri` hashes the path); when
    /// that one is down, the next one up takes it.
    case affinity
    /// Each session's uploads go to the servers up in turn (no affinity at all: every upload
    /// lands on another server than the last).
    case roundRobin = "round-robin"
}

/// The servers of a load run and which of them are up: a server that refuses or drops a
/// connection, or does not answer within `LoadTargets.requestTimeout`, is out for the rest of
/// the run (a load balancer's failed health check), and the upload is sent again to the next
/// server up. An answer, whatever its status (or one too long to read), is an answer: it is
/// not sent again.
actor LoadTargets {
    /// How long one request may take before its server is taken for down.
    static let requestTimeout = TimeAmount.seconds(30)
    /// The most bytes of an answer read (a long session's `/results` with its evidence).
    static let largestAnswer = 1 << 27

    let servers: [String]
    let split: LoadSplit
    nonisolated let client: HTTPClient
    private var down: Set<Int> = []
    /// The next turn of each phone under round robin.
    private var turns: [Int: Int] = [:]

    init(servers: [String], split: LoadSplit, client: HTTPClient) {
        self.servers = servers.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        self.split = split
        self.client = client
    }

    /// The servers still up, in order.
    var up: [Int] { servers.indices.filter { !down.contains($0) } }

    /// The server phone `phone`'s next upload goes to; nil when every server is down.
    func server(for phone: Int) -> Int? {
        guard down.count < servers.count else { return nil }
        switch split {
        case .affinity:
            var server = phone % servers.count
            while down.contains(server) { server = (server + 1) % servers.count }
            return server
        case .roundRobin:
            let turn = turns[phone] ?? phone
            turns[phone] = turn + 1
            let live = up
            return live[turn % live.count]
        }
    }

    /// The home server of phone `phone` under affinity (where its session starts).
    nonisolated func home(of phone: Int) -> Int { phone % servers.count }

    private func markDown(_ server: Int) { down.insert(server) }

    /// What one upload came to: the answer (nil when no server answered), the server that
    /// gave it, and how many servers failed before it.
    struct Delivery: Sendable {
        var status: HTTPResponseStatus?
        var body: String
        var server: Int?
        var failedAttempts: Int
    }

    /// Sends `body` to `path` on phone `phone`'s server, and on to the next server up while
    /// they fail.
    func deliver(_ method: HTTPMethod, _ path: String, body: String?, token: String, phone: Int) async -> Delivery {
        var failed = 0
        while let server = server(for: phone) {
            do {
                let (status, text) = try await Self.send(
                    method, servers[server] + path, body: body, token: token, client: client)
                return Delivery(status: status, body: text, server: server, failedAttempts: failed)
            } catch let error as NIOTooManyBytesError {
                // An answer too long to read is an answer: the server is up.
                return Delivery(status: nil, body: "\(error)", server: server, failedAttempts: failed)
            } catch {
                markDown(server)
                failed += 1
            }
        }
        return Delivery(status: nil, body: "", server: nil, failedAttempts: failed)
    }

    /// One request with the token; the status and the body as text.
    static func send(_ method: HTTPMethod, _ url: String, body: String?, token: String, client: HTTPClient) async throws
        -> (HTTPResponseStatus, String)
    {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await client.execute(request, timeout: requestTimeout)
        let collected = try await response.body.collect(upTo: largestAnswer)
        return (response.status, String(buffer: collected))
    }
}
