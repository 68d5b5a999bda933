extension SightResult {
    /// The answer as JSON, with exactly the keys `hit` (`latitude`, `longitude`, `elevation`),
    /// `distance`, `fallback` and `peak` (`name`, `latitude`, `longitude`, `elevation`,
    /// `offsetDegrees`, or null): what `traintracker sight --format json` and the server's
    /// `GET /v1/sight` print.
    public var json: String {
        let result = self
        var hit = JSONObjectWriter()
        hit.number("latitude", result.hit.latitude)
        hit.number("longitude", result.hit.longitude)
        hit.number("elevation", result.elevation)
        var object = JSONObjectWriter()
        object.raw("hit", hit.finish())
        object.number("distance", result.distance)
        object.raw("fallback", result.fallback ? "true" : "false")
        if let peak = result.peak {
            var item = JSONObjectWriter()
            item.string("name", peak.name)
            item.number("latitude", peak.coordinate.latitude)
            item.number("longitude", peak.coordinate.longitude)
            item.number("elevation", peak.elevation)
            item.number("offsetDegrees", result.peakOffsetDegrees)
            object.raw("peak", item.finish())
        } else {
            object.raw("peak", "null")
        }
        return object.finish()
    }
}
