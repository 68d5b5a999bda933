import Foundation

/// The PostgreSQL the store tests run against: `TRAINTRACKER_TEST_POSTGRES` (a
/// `postgres://` address of a cluster the tests may create databases in), or else a
/// throw-away cluster `scripts/test-postgres.sh start` starts. Where none can be had the
/// PostgreSQL cases do not run, and a test says so; with `TRAINTRACKER_REQUIRE_POSTGRES=1`
/// (as `.ci/run` sets) that test fails instead.
public enum TestPostgres {
    /// The cluster's address, or why there is none.
    public static let address: Result<String, Unavailable> = {
        if let given = ProcessInfo.processInfo.environment["TRAINTRACKER_TEST_POSTGRES"], !given.isEmpty { return .success(given) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/test-postgres.sh").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script, "start"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            return .failure(Unavailable(reason: "could not run \(script): \(error)"))
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, let line = text.split(separator: "\n").last else {
            return .failure(Unavailable(reason: "scripts/test-postgres.sh could not start one: \(problem)"))
        }
        return .success(String(line))
    }()

    /// Whether the PostgreSQL cases run.
    public static var isAvailable: Bool { (try? address.get()) != nil }

    /// Whether a missing PostgreSQL is a failure (CI), not a reason to skip.
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["TRAINTRACKER_REQUIRE_POSTGRES"] == "1" }

    /// Why no PostgreSQL could be had.
    public struct Unavailable: Error, CustomStringConvertible {
        /// What went wrong.
        public let reason: String
        /// The reason.
        public var description: String { reason }
    }

    /// The address of database `name` in the cluster.
    public static func database(_ name: String) throws -> String {
        let cluster = try address.get()
        guard var components = URLComponents(string: cluster) else { throw Unavailable(reason: "bad address \(cluster)") }
        components.path = "/" + name
        return components.string ?? cluster
    }
}
