import Hummingbird
import Logging

/// Every request refused (a 4xx answer: bad input, no or a wrong token, another device's
/// session, too large, too many) is logged with its status, reason, method and path (the
/// request id rides in the logger's metadata; never a token or a query string, where a login
/// ticket travels) and counted in `/metrics` by status.
struct Rejections: RouterMiddleware {
    typealias Context = TrackerRequestContext

    let metrics: ServerMetrics

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            let response = try await next(request, context)
            if Self.isRejection(response.status) { record(response.status, reason: nil, request, context) }
            return response
        } catch let error as any HTTPResponseError {
            if Self.isRejection(error.status) { record(error.status, reason: (error as? HTTPError)?.body, request, context) }
            throw error
        }
    }

    /// Whether `status` refuses the request (4xx); a 5xx is the server's failure, counted as such.
    static func isRejection(_ status: HTTPResponse.Status) -> Bool { (400..<500).contains(status.code) }

    private func record(_ status: HTTPResponse.Status, reason: String?, _ request: Request, _ context: Context) {
        metrics.rejected(status: status.code).increment()
        context.logger.notice(
            "request refused",
            metadata: [
                "status": .stringConvertible(status.code), "reason": .string(reason ?? status.reasonPhrase),
                "method": .string(request.method.rawValue), "path": .string(request.uri.path),
            ])
    }
}
