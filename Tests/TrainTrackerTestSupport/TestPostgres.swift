import Foundation

/// The PostgreSQL the store tests run against: `TRAINTRACKER_TEST_POSTGRES`, the
/// `postgres://` address of a cluster the tests may create databases in (`scripts/test-postgres.sh
/// start` makes a throw-away one and prints it). Without it the PostgreSQL cases do not run,
/// and a test says so; with `TRAINTRACKER_REQUIRE_POSTGRES=1` (as `.ci/run` sets) that test
/// fails instead.
public enum TestPostgres {
    /// The cluster's address, or why there is none.
    public static let address: Result<String, Unavailable> = {
        if let given = ProcessInfo.processInfo.environment["TRAINTRACKER_TEST_POSTGRES"], !given.isEmpty {
            return .success(given)
        }
        return .failure(
            Unavailable(
                reason:
                    "TRAINTRACKER_TEST_POSTGRES is not set: export TRAINTRACKER_TEST_POSTGRES=$(scripts/test-postgres.sh start), "
                    + "as .ci/run does"))
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
