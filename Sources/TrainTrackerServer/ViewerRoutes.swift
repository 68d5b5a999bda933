import Foundation
import Hummingbird

/// The Session Viewer: one page and its script, and Leaflet from the local disk (no CDN).
struct ViewerRoutes: Sendable {
    let state: ServerState

    func add(to router: Router<BasicRequestContext>) {
        for (path, file, type) in [
            ("/", "index.html", "text/html; charset=utf-8"), ("/viewer.js", "viewer.js", "text/javascript"),
            ("/viewer.css", "viewer.css", "text/css"),
        ] {
            router.get(RouterPath(path)) { _, _ in try Self.resource(file, type: type) }
        }
        let leaflet = state.settings.leafletDirectory
        router.get("/vendor/leaflet/{file}") { _, context in
            let file = try context.parameters.require("file")
            guard ["leaflet.js", "leaflet.css"].contains(file),
                let data = FileManager.default.contents(atPath: leaflet + "/" + file)
            else {
                throw HTTPError(.notFound, message: "\(leaflet)/\(file): not found (install libjs-leaflet)")
            }
            let type = file.hasSuffix(".js") ? "text/javascript" : "text/css"
            return Response(status: .ok, headers: [.contentType: type], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        }
    }

    private static func resource(_ name: String, type: String) throws -> Response {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Viewer"),
            let data = try? Data(contentsOf: url)
        else { throw HTTPError(.internalServerError, message: "viewer file \(name) missing from the build") }
        return Response(status: .ok, headers: [.contentType: type], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
