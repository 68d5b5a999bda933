import Foundation
import Testing
import TrainTrackerPostgres
import TrainTrackerStorage
import TrainTrackerTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Opening a PostgreSQL store: an absent, refusing or silent server is a prompt error in the
/// server's own words where it has some, never the pool's retrying until a timeout.
@Suite(.tags(.postgres)) struct PostgresReachTests {
    /// A loopback port that completes connections and then never says a word: a hung server.
    final class SilentServer {
        let port: Int
        private let socket: Int32

        init() throws {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                    bind(socket, generic, length) == 0 && listen(socket, 4) == 0
                        && getsockname(socket, generic, &length) == 0
                }
            }
            guard socket >= 0, bound else {
                if socket >= 0 { close(socket) }
                throw NoSocket()
            }
            self.socket = socket
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(socket) }
    }

    struct NoSocket: Error {}

    @Test func aServerThatNeverAnswersIsAnErrorAfterTheTimeout() async throws {
        let silent = try SilentServer()
        await #expect {
            _ = try await PostgresSessionStore.open(
                url: "postgres://tracker@127.0.0.1:\(silent.port)/db?sslmode=disable", connectTimeout: 1)
        } throws: { error in
            "\(error)".contains("no working connection within 1.0 s") && "\(error)".contains("127.0.0.1:\(silent.port)")
        }
    }

    @Test func aClosedPortIsNamedAtOnceNotRetriedUntilTheTimeout() async throws {
        // A port that was free a moment ago and has no listener now.
        let port = try {
            let silent = try SilentServer()
            return silent.port
        }()
        await #expect {
            _ = try await PostgresSessionStore.open(
                url: "postgres://tracker@127.0.0.1:\(port)/db?sslmode=disable", connectTimeout: 600)
        } throws: { error in
            // The connection's own refusal, where the pool retried until its circuit breaker.
            "\(error)".contains("127.0.0.1:\(port)") && "\(error)".lowercased().contains("refused")
        }
    }

    @Test(arguments: [
        // Foundation reads this one as a URL (the password hidden in place) ...
        ("postgres://tracker:my secret@127.0.0.1:1/db", "postgres://tracker:***@127.0.0.1:1/db"),
        // ... and not this one: everything before the last @ is hidden.
        ("postgres://tr acker:my:secret@h st/db", "postgres://***@h st/db"),
    ])
    func aPasswordInAnOddAddressNeverReachesAMessage(url: String, shown: String) async {
        await #expect {
            _ = try await PostgresSessionStore.open(url: url, connectTimeout: 1)
        } throws: { error in
            !"\(error)".contains("secret") && "\(error)".contains(shown)
        }
    }

    @Test(.enabled(if: TestPostgres.isAvailable, "no PostgreSQL could be started here"))
    func anUnknownUserIsTheServersOwnWordsAtOnce() async throws {
        var components = try #require(URLComponents(string: try TestPostgres.address.get()))
        components.user = "stranger"
        let stranger = try #require(components.string)
        await #expect {
            _ = try await PostgresSessionStore.open(url: stranger, connectTimeout: 30)
        } throws: { error in
            "\(error)".contains("role \"stranger\" does not exist")
        }
    }
}
