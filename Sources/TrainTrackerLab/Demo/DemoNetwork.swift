import TrainTrackerCore

/// A small network built in code, so `traintracker demo` runs on a fresh clone with no
/// data: a local line stopping at all eight stations and an express line on the same
/// track stopping at four of them, like the third example of the Eki Live talk.
public enum DemoNetwork {
    /// The local railway's id.
    public static let localID = "Demo.Local"
    /// The express railway's id.
    public static let expressID = "Demo.Express"
    /// The station names, west to east.
    public static let stationNames = ["Minato", "Sakura", "Kawabe", "Midori", "Oka", "Hikari", "Mori", "Yama"]
    /// The stations the express stops at.
    public static let expressStops: Set<String> = ["Minato", "Midori", "Hikari", "Yama"]

    /// Builds the network: 8 stations 1.6 km apart on a gently curving track near Tokyo Bay.
    public static func make() -> RailwayNetwork {
        let origin = LocalProjection(origin: Coordinate(latitude: 35.60, longitude: 139.60))
        // A track that bends a little, sampled every 100 m over 11.6 km.
        let track = (0...116).map { step -> Coordinate in
            let east = Double(step) * 100
            let north = 400 * (east / 11_600) * (1 - east / 11_600) * 4
            return origin.coordinate(at: PlanarVector(east: east, north: north))
        }
        let trackPieces = [(coordinates: track, isUnderground: false)]
        let polyline = Polyline(track)
        func stationCoordinate(_ index: Int) -> Coordinate {
            polyline.point(atAlongTrack: 400 + Double(index) * 1_600 * polyline.length / 11_650).coordinate
        }
        var stations: [Station] = []
        var localStationIDs: [String] = []
        var expressStationIDs: [String] = []
        for (index, name) in stationNames.enumerated() {
            let coordinate = stationCoordinate(index)
            let localID = "\(localID).\(name)"
            stations.append(Station(id: localID, railwayID: Self.localID, name: name, coordinate: coordinate))
            localStationIDs.append(localID)
            if expressStops.contains(name) {
                let expressID = "\(expressID).\(name)"
                stations.append(Station(id: expressID, railwayID: Self.expressID, name: name, coordinate: coordinate))
                expressStationIDs.append(expressID)
            }
        }
        let railways = [
            Railway(
                id: localID, name: "Demo Local Line", color: "#2E86DE", stationIDs: localStationIDs,
                ascendingName: "Eastbound", descendingName: "Westbound", track: Track(pieces: trackPieces)
            ),
            Railway(
                id: expressID, name: "Demo Express Line", color: "#E74C3C", stationIDs: expressStationIDs,
                ascendingName: "Eastbound", descendingName: "Westbound", track: Track(pieces: trackPieces)
            ),
        ]
        do {
            return try RailwayNetwork(railways: railways, stations: stations)
        } catch {
            preconditionFailure("the demo network is built in code and must be valid: \(error)")
        }
    }
}
