import Hummingbird
import TrainTrackerCore

/// `GET /v1/sight?lat=&lon=&heading=&pitch=[&alt=&tapX=&tapY=&fov=&aspect=]`: the point
/// looked at, as `traintracker sight --format json` prints it.
struct SightRoute {
    let state: ServerState

    /// The answer; 400 naming the parameter for a missing or out-of-range one.
    func answer(_ request: Request) throws -> String {
        guard let terrain = state.settings.terrain else {
            throw HTTPError(.notFound, message: "this server has no elevation data (serve --dem DIR)")
        }
        let query = request.uri.queryParameters
        func number(_ name: String) throws -> Double? {
            guard let text = query[name[...]] else { return nil }
            guard text.utf8.count <= 64, let value = Double(String(text)), value.isFinite else {
                throw HTTPError(.badRequest, message: "\(name) must be a number")
            }
            return value
        }
        func required(_ name: String) throws -> Double {
            guard let value = try number(name) else { throw HTTPError(.badRequest, message: "missing \(name)") }
            return value
        }
        var sight = SightQuery(
            observer: Coordinate(latitude: try required("lat"), longitude: try required("lon")), altitude: try number("alt"),
            heading: try required("heading"), pitch: try required("pitch"))
        if let x = try number("tapX"), let y = try number("tapY") { sight.tap = SightQuery.Tap(x: x, y: y) }
        if let fov = try number("fov") { sight.fieldOfView = fov }
        if let aspect = try number("aspect") { sight.aspectRatio = aspect }
        do {
            return try SightLine.resolve(sight, terrain: terrain, peaks: state.settings.peaks).json
        } catch let error as TerrainError {
            throw HTTPError(.badRequest, message: error.description)
        }
    }
}
