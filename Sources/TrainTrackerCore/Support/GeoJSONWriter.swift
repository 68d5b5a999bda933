/// A GeoJSON FeatureCollection written feature by feature: points and line strings, each
/// with its properties (a `JSONObjectWriter`, keys in the order given). The one writer of
/// `export --format geojson` and `diary`'s legs.
///
///     var collection = GeoJSONWriter()
///     var properties = JSONObjectWriter()
///     properties.string("railway", "Tokyu.Toyoko")
///     collection.lineString(track, properties: properties)
///     let text = collection.finish()
package struct GeoJSONWriter {
    private var features: [String] = []

    /// An empty collection.
    package init() {}

    /// Adds a Point at `coordinate`.
    package mutating func point(_ coordinate: Coordinate, properties: JSONObjectWriter) {
        add(geometry: "{\"type\":\"Point\",\"coordinates\":\(Self.position(coordinate))}", properties: properties)
    }

    /// Adds a LineString through `coordinates` (a single one is drawn twice: a line needs two).
    package mutating func lineString(_ coordinates: [Coordinate], properties: JSONObjectWriter) {
        let points = coordinates.count == 1 ? coordinates + coordinates : coordinates
        let positions = JSONObjectWriter.array(points.map(Self.position))
        add(geometry: "{\"type\":\"LineString\",\"coordinates\":\(positions)}", properties: properties)
    }

    /// The collection as text.
    ///
    /// - Complexity: O(n) in the features' length.
    package func finish() -> String {
        "{\"type\":\"FeatureCollection\",\"features\":" + JSONObjectWriter.array(features) + "}"
    }

    private mutating func add(geometry: String, properties: JSONObjectWriter) {
        var properties = properties
        features.append("{\"type\":\"Feature\",\"geometry\":\(geometry),\"properties\":\(properties.finish())}")
    }

    /// `[longitude,latitude]`, as GeoJSON orders them.
    private static func position(_ coordinate: Coordinate) -> String {
        "[\(coordinate.longitude),\(coordinate.latitude)]"
    }
}
