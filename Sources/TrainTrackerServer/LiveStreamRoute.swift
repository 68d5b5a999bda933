import Hummingbird
import NIOCore
import TrainTrackerCore

/// `GET /v1/sessions/{id}/live`: server-sent events, one `data:` line per answer, a comment
/// as a heartbeat, and a last `event: end` when the session ends or the server stops. The
/// stream is released the moment its client goes away.
struct LiveStreamRoute {
    let state: ServerState

    /// With `withFixes`, each answer's data is `{"fix":…,"result":…}` (the fix as the viewer
    /// reads it, and the JSONL line); without, the JSONL line alone.
    func stream(session id: String, withFixes: Bool, context: TrackerRequestContext) async throws -> Response {
        let listening: (events: AsyncStream<LiveEvent>, stop: @Sendable () -> Void)
        do {
            listening = try await state.live.listen(to: id, tokenHash: context.tokenHash ?? "")
        } catch LiveStreamRefusal.tooManyStreams(let limit) {
            throw HTTPError(.tooManyRequests, message: "this token has \(limit) live streams open, the most it may have")
        } catch LiveStreamRefusal.stopping {
            throw HTTPError(.serviceUnavailable, message: "the server is stopping")
        }
        // A client that closes its connection ends the stream now, not at the next write; one
        // gone before the watch is set is found at the first write.
        do {
            try await context.channel.pipeline.addHandler(ClientGoneHandler(onGone: listening.stop), position: .first).get()
        } catch {
            listening.stop()
            throw HTTPError(.serviceUnavailable, message: "the connection closed")
        }
        // A comment first, so a client knows it listens before any answer comes. The id is
        // JSON-quoted: whatever it holds, it cannot break the event stream.
        let greeting = ByteBuffer(string: ": listening to \(id.jsonQuoted)\n\n")
        let (store, tokenHash) = (state.store, context.tokenHash ?? "")
        let body = ResponseBody { writer in
            // However the body ends (a failed write included), the listener is let go.
            defer { listening.stop() }
            try await writer.write(greeting)
            for await event in listening.events {
                // A token revoked (or expired) while its stream is open ends the stream at the
                // next heartbeat.
                if event == .heartbeat, (try? await store.grant(tokenHash: tokenHash, at: .now)) == nil {
                    try await writer.write(ByteBuffer(string: Self.text(of: .end(reason: "token revoked or expired"))))
                    break
                }
                try await writer.write(ByteBuffer(string: Self.text(of: event, withFixes: withFixes)))
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
    }

    /// One event in the text/event-stream format. Answers are single-line JSON.
    static func text(of event: LiveEvent, withFixes: Bool = false) -> String {
        switch event {
        case .answer(let answer) where withFixes: "data: {\"fix\":\(answer.fix),\"result\":\(answer.line)}\n\n"
        case .answer(let answer): "data: \(answer.line)\n\n"
        case .heartbeat: ": heartbeat\n\n"
        case .end(let reason): "event: end\ndata: {\"reason\":\(reason.jsonQuoted)}\n\n"
        }
    }
}

/// Calls `onGone` when the client closes its side of the connection or the connection ends.
final class ClientGoneHandler: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = NIOAny
    private let onGone: @Sendable () -> Void

    init(onGone: @escaping @Sendable () -> Void) { self.onGone = onGone }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed { onGone() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        onGone()
        context.fireChannelInactive()
    }
}
