import Hummingbird
import NIOCore
import TrainTrackerStorage

/// The request context of every route: who is asking (filled in by `Authentication`) and the
/// connection, so a live stream can end the moment its client goes away.
struct TrackerRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection the request came on.
    let channel: any Channel
    /// The grant of the request's token or viewer cookie; nil on a public route without one.
    var grant: AccessGrant?
    /// The hash of the token behind the grant, for per-token limits.
    var tokenHash: String?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// The grant; 401 when the request has none (only public routes get that far without one).
    func requireGrant() throws -> AccessGrant {
        guard let grant else { throw HTTPError(.unauthorized, message: "missing bearer token") }
        return grant
    }
}
