import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import SwiftProtobuf
import TrainTrackerCore
import TrainTrackerRealtime

/// The published GTFS-realtime feed of the trains riders are on, and the viewer's map of
/// every train the server knows of:
/// - `GET /v1/realtime/trip-updates`, `GET /v1/realtime/vehicle-positions`: protocol
///   buffers (`?format=json`: the same message as JSON, for people), with a weak `ETag` of
///   what it says, its times left out (a repeat with `If-None-Match` gets 304 until the trains
///   change) and `Cache-Control`. Anyone may read them with
///   `--realtime-public`; otherwise an admin's or a reader's token. No session, device or
///   token is named; a train needs `RealtimeSettings.minimumRiders` riders.
/// - `GET /v1/realtime/trains` (admin): the trains from riders and from operator feeds, each
///   with its delay and where the delay came from.
struct RealtimeRoutes: Sendable {
    typealias Context = TrackerRequestContext
    let state: ServerState

    /// The published feed's paths.
    static let feedPaths: Set<String> = ["/v1/realtime/trip-updates", "/v1/realtime/vehicle-positions"]

    /// Whether `path` is one of the published feeds.
    static func isFeed(_ path: String) -> Bool { feedPaths.contains(path) }

    /// A published feed may be cached this long.
    static let cacheSeconds = 5

    func add(to router: RouterGroup<Context>) {
        router.get("/v1/realtime/trip-updates") { request, context in
            try feed(request, context, vehicles: false)
        }
        router.get("/v1/realtime/vehicle-positions") { request, context in
            try feed(request, context, vehicles: true)
        }
        router.get("/v1/realtime/trains") { _, context in
            guard try context.requireGrant().role == .admin else {
                throw HTTPError(.forbidden, message: "only an admin may see every train")
            }
            return json(TrainsMap(board: state.board).json(at: state.board.now()))
        }
    }

    private func feed(_ request: Request, _ context: Context, vehicles: Bool) throws -> Response {
        if !state.settings.realtime.isPublic {
            let role = try context.requireGrant().role
            guard role == .admin || role == .reader else {
                throw HTTPError(.forbidden, message: "the published feed is for admin and reader tokens")
            }
        }
        let format = request.uri.queryParameters["format"]
        guard format == nil || format == "json" || format == "protobuf" else {
            throw HTTPError(.badRequest, message: "format must be json or protobuf")
        }
        var published = state.board.published(at: state.board.now())
        if vehicles { published.trips = [] } else { published.vehicles = [] }
        let message = RealtimeFeedWriter.message(published)
        let body: [UInt8]
        let type: String
        if format == "json" {
            body = Array(((try? message.jsonString()) ?? "{}").utf8)
            type = "application/json"
        } else {
            body = (try? message.serializedBytes()) ?? []
            type = "application/x-protobuf"
        }
        let etag = Self.etag(of: message, format: type, at: state.board.now())
        let visibility = state.settings.realtime.isPublic ? "public" : "private"
        var headers: HTTPFields = [
            .contentType: type, .eTag: etag, .cacheControl: "\(visibility), max-age=\(Self.cacheSeconds)",
        ]
        headers[.vary] = "Authorization, Cookie"
        if let asked = request.headers[.ifNoneMatch], Self.matches(asked, etag) {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// A published feed's tag changes at least this often, whatever it says: a consumer that
    /// keeps the body of a 304 holds a header this much older than the feed at most (and ages
    /// out no feed whose trains keep their delays).
    static let etagPeriod: Seconds = 30

    /// A weak validator of what `message` says about the trains, in `format`, at `now`: the
    /// times it was made at are left out, so a feed that says the same a second later is the
    /// same (its bytes differ only in those: semantically equivalent, as a weak ETag means),
    /// until the next `etagPeriod` begins.
    static func etag(of message: TransitRealtime_FeedMessage, format: String, at now: Timestamp) -> String {
        var content = message
        content.header.clearTimestamp()
        for index in content.entity.indices {
            if content.entity[index].hasTripUpdate { content.entity[index].tripUpdate.clearTimestamp() }
            if content.entity[index].hasVehicle { content.entity[index].vehicle.clearTimestamp() }
        }
        let period = Int(flooring: now.secondsSince1970 / etagPeriod, within: 0...Int(Int32.max))
        let bytes = ((try? content.serializedBytes()) ?? []) + Array("\(format) \(period)".utf8)
        return "W/\"" + SHA256.hash(data: bytes).prefix(12).map { String(format: "%02x", $0) }.joined() + "\""
    }

    /// Whether an `If-None-Match` list names `etag` (or `*`), compared weakly: a proxy may
    /// weaken or keep either form.
    static func matches(_ asked: String, _ etag: String) -> Bool {
        func opaque(_ tag: Substring) -> Substring {
            let trimmed = tag.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix("W/") ? Substring(trimmed.dropFirst(2)) : Substring(trimmed)
        }
        let ours = opaque(Substring(etag))
        return asked.split(separator: ",").contains { opaque($0) == ours || opaque($0) == "*" }
    }
}
