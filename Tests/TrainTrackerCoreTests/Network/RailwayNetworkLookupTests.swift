import Testing

@testable import TrainTrackerCore

/// Railways and stations found the way a person names them, and the names suggested when
/// nothing matches.
@Suite struct RailwayNetworkLookupTests {
    let origin = LocalProjection(origin: Coordinate(latitude: 37.7, longitude: -122.4))

    /// "Local Weekday" (id LW) and "Limited" (id L) on one track: San Francisco, San Mateo,
    /// San Jose Diridon.
    func network() throws -> RailwayNetwork {
        let names = ["San Francisco Caltrain Station", "San Mateo", "San Jose Diridon"]
        var stations: [Station] = []
        var railways: [Railway] = []
        for (id, name) in [("LW", "Local Weekday"), ("L", "Limited")] {
            let coordinates = (0..<3).map { origin.coordinate(at: PlanarVector(east: Double($0) * 10_000, north: 0)) }
            stations += names.indices.map {
                Station(id: "\(id).\($0)", railwayID: id, name: names[$0], coordinate: coordinates[$0])
            }
            railways.append(
                Railway(
                    id: id, name: name, stationIDs: names.indices.map { "\(id).\($0)" }, ascendingName: "South",
                    descendingName: "North", track: Track(pieces: [(coordinates, false)])))
        }
        return try RailwayNetwork(railways: railways, stations: stations)
    }

    @Test func aRailwayIsFoundByItsIdOrByItsNameInAnyCase() throws {
        let network = try network()
        #expect(network.railway(matching: "LW")?.name == "Local Weekday")
        #expect(network.railway(matching: "local weekday")?.id == "LW")
        #expect(network.railway(matching: "Local") == nil)
    }

    @Test(arguments: [
        ("LW.0", "LW.0"),
        ("san mateo", "LW.1"),
        // The start of a name, when no other station's starts so.
        ("San Francisco", "LW.0"),
        ("San Jose", "LW.2"),
    ])
    func aStationIsFoundByIdNameOrTheStartOfItsName(query: String, id: String) throws {
        let network = try network()
        let railway = try #require(network.railway(id: "LW"))
        #expect(network.station(matching: query, on: railway)?.id == id)
    }

    @Test func anAmbiguousOrEmptyStartFindsNothing() throws {
        let network = try network()
        let railway = try #require(network.railway(id: "LW"))
        #expect(network.station(matching: "San", on: railway) == nil)
        #expect(network.station(matching: "", on: railway) == nil)
        // Another railway's station is not this railway's.
        #expect(network.station(matching: "L.1", on: railway) == nil)
    }

    @Test func aMistypedNameSuggestsTheClosest() throws {
        let network = try network()
        #expect(network.railwaySuggestions(for: "Local Wekday").first == "Local Weekday")
        #expect(network.railwaySuggestions(for: "Limted").first == "Limited")
        let railway = try #require(network.railway(id: "L"))
        #expect(network.stationSuggestions(for: "Sun Francisco", on: railway).first == "San Francisco Caltrain Station")
        #expect(network.railwaySuggestions(for: "Bullet to Tahoe").isEmpty)
    }

    @Test(arguments: [
        // (query, candidates, suggestions)
        ("x", [], []),
        ("Mateo", ["San Mateo"], ["San Mateo"]),
        ("Limited", ["Limited", "Limited", "Local"], ["Limited"]),
        ("Exprss", ["Express", "Expressway", "Local"], ["Express", "Expressway"]),
        ("zzzzzz", ["Express", "Local"], []),
    ])
    func closestNamesClimbFromNoneToMany(query: String, candidates: [String], expected: [String]) {
        #expect(closestNames(to: query, among: candidates) == expected)
    }

    @Test func theLimitIsKept() {
        let many = (0..<10).map { "Station \($0)" }
        #expect(closestNames(to: "Station", among: many, limit: 3).count == 3)
        #expect(closestNames(to: "Station", among: many, limit: 0).isEmpty)
    }

    @Test(arguments: [("", "abc", 3), ("abc", "abc", 0), ("kitten", "sitting", 3), ("abc", "", 3)])
    func editDistanceCountsInsertionsDeletionsAndSubstitutions(a: String, b: String, distance: Int) {
        #expect(editDistance(Array(a), Array(b)) == distance)
    }
}
