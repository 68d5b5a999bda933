import Hummingbird
import TrainTrackerCore
import TrainTrackerStorage

/// The filters and page of `GET /v1/sessions`, read from the query string, every value
/// range-checked: `q` (text in the id, notes or device), `live` (`true` or `false`), `device`,
/// `from` and `to` (dates `YYYY-MM-DD`, by the session's start, UTC, both inclusive), `line`
/// (a railway id: the one the tracker named most often), `offset` and `limit` (1 to 200).
struct SessionQuery: Hashable, Sendable {
    /// The most sessions one page may hold.
    static let maximumLimit = 200
    /// Sessions on a page when the query does not say.
    static let defaultLimit = 50
    /// The longest filter text, in bytes.
    static let maximumTextBytes = 200

    var text: String?
    var live: Bool?
    var device: String?
    var from: Timestamp?
    var through: Timestamp?
    var line: String?
    var offset = 0
    var limit = defaultLimit

    init() {}

    /// The query of `request`; 400 naming the parameter at fault.
    init(_ request: Request) throws {
        let query = request.uri.queryParameters
        func text(_ name: String) throws -> String? {
            guard let value = query[name[...]], !value.isEmpty else { return nil }
            guard value.utf8.count <= Self.maximumTextBytes else {
                throw HTTPError(.badRequest, message: "\(name) must be at most \(Self.maximumTextBytes) bytes")
            }
            return String(value)
        }
        func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
            guard let value = try text(name) else { return nil }
            guard let number = Int(value), range.contains(number) else {
                throw HTTPError(
                    .badRequest, message: "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }
        func date(_ name: String) throws -> Timestamp? {
            guard let value = try text(name) else { return nil }
            guard value.utf8.count == 10, let day = Timestamp(parsing: value + "T00:00:00Z") else {
                throw HTTPError(.badRequest, message: "\(name) must be a date YYYY-MM-DD")
            }
            return day
        }
        self.text = try text("q")?.lowercased()
        switch try text("live") {
        case nil: live = nil
        case "true": live = true
        case "false": live = false
        default: throw HTTPError(.badRequest, message: "live must be true or false")
        }
        device = try text("device")
        from = try date("from")
        through = try date("to").map { $0.adding(86_400) }
        line = try text("line")
        offset = try integer("offset", in: 0...10_000_000) ?? 0
        limit = try integer("limit", in: 1...Self.maximumLimit) ?? Self.defaultLimit
    }

    /// Whether `session` passes every filter but the line's (which needs the tracker).
    func admits(_ session: ListedSession, isLive: Bool) -> Bool {
        if let live, live != isLive { return false }
        if let device, session.device != device { return false }
        let start = session.summary.session.startDate
        if let from, start < from { return false }
        if let through, !(start < through) { return false }
        if let text {
            let haystack = [session.summary.session.id, session.summary.session.notes ?? "", session.device ?? ""]
            guard haystack.contains(where: { $0.lowercased().contains(text) }) else { return false }
        }
        return true
    }
}
