import Foundation
import Testing
import TrainTrackerCore
import TrainTrackerPostgres
import TrainTrackerServer
import TrainTrackerStorage
import TrainTrackerTestSupport

@testable import TrainTrackerLab

/// A server on PostgreSQL asked to stop lets go of its connections itself: an operator
/// restarting instances one by one does not leave the database counting idle connections
/// until they time out.
@Suite(.enabled(if: TestPostgres.isAvailable, "no PostgreSQL could be started here"))
struct PostgresShutdownTests {
    @Test func aStoppingServerClosesItsConnections() async throws {
        let db = try await PostgresServerTests.freshDatabase()
        let name = "tt-stop-" + UUID().uuidString.prefix(8).lowercased()
        let store = try await PostgresSessionStore.open(url: Self.address(db, applicationName: name))
        let watcher = try await PostgresSessionStore.open(url: db)
        defer {
            store.close()
            watcher.close()
        }
        let settings = ServerSettings(
            dataset: TransitDataset(network: DemoNetwork.make()), store: store,
            configuration: RemoteConfiguration(limits: UploadLimits()))
        let (listening, announce) = AsyncStream.makeStream(of: Int.self)
        let group = serverGroup(settings, host: "127.0.0.1", port: 0) { port in announce.yield(port) }
        let running = Task { try await group.run() }
        var ports = listening.makeAsyncIterator()
        #expect(await ports.next() != nil)
        #expect(try await watcher.connections(named: name) > 0, "the store holds connections while the server runs")
        await group.triggerGracefulShutdown()
        try await running.value
        // A closed connection's server process leaves pg_stat_activity when it has exited.
        let deadline = ContinuousClock.now + .seconds(30)
        var open = try await watcher.connections(named: name)
        while open > 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            open = try await watcher.connections(named: name)
        }
        #expect(open == 0, "the server stopped but \(open) of its connections are still open")
    }

    @Test(arguments: ["", String(repeating: "a", count: 64), "caf\u{e9}", "a\u{7}b"])
    func aBadApplicationNameIsRefused(_ name: String) async throws {
        let db = try await PostgresServerTests.freshDatabase()
        let error = await #expect(throws: StorageError.self) {
            _ = try await PostgresSessionStore.open(url: Self.address(db, applicationName: name))
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("application_name must be 1 to 63 printable ASCII characters"))
    }

    /// `db` with `?application_name=name` added to its query.
    static func address(_ db: String, applicationName name: String) throws -> String {
        var components = try #require(URLComponents(string: db))
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "application_name", value: name)]
        return try #require(components.string)
    }
}
