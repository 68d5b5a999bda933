/// The JSON shapes of the mini-tokyo-3d dataset (see `shared/docs/FORMATS.md`).
enum MiniTokyo3D {
    struct Railway: Decodable {
        var id: String
        var title: [String: String]
        var stations: [String]
        var ascending: String
        var descending: String
        var color: String?
    }

    struct Station: Decodable {
        var id: String
        var railway: String?
        var coord: [Double]?
        var title: [String: String]
        var altitude: Double?
    }

    struct Coordinates: Decodable {
        var railways: [Track]
    }

    struct Track: Decodable {
        var id: String
        var altitude: Double?
        var sublines: [Subline]
    }

    struct Subline: Decodable {
        var type: String
        var coords: [[Double]]
        var start: Anchor?
        var end: Anchor?
        var altitude: Double?
        var interpolate: Int?
    }

    /// Where a subline joins another railway's track; on `main` sublines it may only carry an altitude.
    struct Anchor: Decodable {
        var railway: String?
        var offset: Double?
    }

    struct TrainType: Decodable {
        var id: String
        var title: [String: String]
    }

    struct Train: Decodable {
        var id: String
        var t: String
        var r: String
        var n: String?
        var y: String?
        var d: String
        var pt: [String]?
        var nt: [String]?
        var nm: [[String: String]]?
        var tt: [Call]
    }

    struct Call: Decodable {
        var s: String
        var a: String?
        var d: String?
    }
}
