extension SightResult {
    /// The answer as JSON, with exactly the keys `hit` (`latitude`, `longitude`, `elevation`),
    /// `distance`, `fallback` and `peak` (`name`, `latitude`, `longitude`, `elevation`,
    /// `offsetDegrees`, or null): what `traintracker sight --format json` and the server's
    /// `GET /v1/sight` print.
    public var json: String {
        var point = JSONObjectWriter()
        point.number("latitude", hit.latitude)
        point.number("longitude", hit.longitude)
        point.number("elevation", elevation)
        var object = JSONObjectWriter()
        object.raw("hit", point.finish())
        object.number("distance", distance)
        object.raw("fallback", fallback ? "true" : "false")
        if let peak {
            var item = JSONObjectWriter()
            item.string("name", peak.name)
            item.number("latitude", peak.coordinate.latitude)
            item.number("longitude", peak.coordinate.longitude)
            item.number("elevation", peak.elevation)
            item.number("offsetDegrees", peakOffsetDegrees)
            object.raw("peak", item.finish())
        } else {
            object.raw("peak", "null")
        }
        return object.finish()
    }
}
