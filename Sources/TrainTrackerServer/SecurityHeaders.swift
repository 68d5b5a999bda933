import HTTPTypes
import Hummingbird

/// The security headers every response carries, errors included: a strict Content Security
/// Policy (scripts, styles and data from this server only; no inline script or style, no
/// framing; images also from the base map's tile server, when there is one), no MIME
/// sniffing, no referrer, and no caching of API answers.
struct SecurityHeaders: RouterMiddleware {
    typealias Context = TrackerRequestContext

    let contentSecurityPolicy: String

    /// The headers, with images allowed from `tiles`' origins.
    init(tiles: TileSource? = nil) {
        let images = (["'self'", "data:"] + (tiles?.origins ?? [])).joined(separator: " ")
        contentSecurityPolicy =
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src \(images); connect-src 'self'; "
            + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[.contentSecurityPolicy] = contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.referrerPolicy] = "no-referrer"
        response.headers[.crossOriginOpenerPolicy] = "same-origin"
        if request.uri.path.hasPrefix("/v1/"), response.headers[.cacheControl] == nil {
            response.headers[.cacheControl] = "no-store"
        }
        return response
    }
}

extension HTTPField.Name {
    // Constant, valid names: never nil.
    // swift-format-ignore: NeverForceUnwrap
    static let xFrameOptions = Self("X-Frame-Options")!
    // swift-format-ignore: NeverForceUnwrap
    static let referrerPolicy = Self("Referrer-Policy")!
    // swift-format-ignore: NeverForceUnwrap
    static let crossOriginOpenerPolicy = Self("Cross-Origin-Opener-Policy")!
}
