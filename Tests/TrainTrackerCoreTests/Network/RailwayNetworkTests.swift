import Testing
import TrainTrackerCore

@Suite struct RailwayNetworkTests {
    let origin = LocalProjection(origin: Coordinate(latitude: 35.6, longitude: 139.6))

    func coordinate(_ east: Double) -> Coordinate { origin.coordinate(at: PlanarVector(east: east, north: 0)) }

    func station(_ id: String, _ east: Double) -> Station {
        Station(id: id, railwayID: "R", name: id, coordinate: coordinate(east))
    }

    func railway(_ stations: [String], track: [Double]) -> Railway {
        Railway(
            id: "R", name: "R", stationIDs: stations, ascendingName: "Up", descendingName: "Down",
            track: Track(pieces: [(track.map(coordinate), false)]))
    }

    @Test func aTrackDrawnAgainstTheStationOrderIsTurnedAround() throws {
        let network = try RailwayNetwork(
            railways: [railway(["A", "B", "C"], track: [2_000, 1_000, 0])],
            stations: [station("A", 0), station("B", 1_000), station("C", 2_000)]
        )
        let positions = network.stationPositions(of: try #require(network.railway(id: "R")))
        #expect(positions.count == 3)
        #expect(positions == positions.sorted())
        #expect(abs(positions[2] - 2_000) < 2)
    }

    @Test func aLoopListingItsFirstStationAgainIsStoredOnce() throws {
        let loop = railway(["A", "B", "C", "A"], track: [0, 1_000, 2_000])
        #expect(loop.isLoop)
        #expect(loop.stationIDs == ["A", "B", "C"])
        #expect(!railway(["A", "B"], track: [0, 1_000]).isLoop)
    }

    @Test func invalidNetworksAreRejectedWithTheReason() {
        let stations = [station("A", 0), station("B", 1_000)]
        #expect(throws: NetworkError.unknownStation(railway: "R", station: "Z")) {
            try RailwayNetwork(railways: [railway(["A", "Z"], track: [0, 1_000])], stations: stations)
        }
        #expect(throws: NetworkError.tooFewStations(railway: "R")) {
            try RailwayNetwork(railways: [railway(["A"], track: [0, 1_000])], stations: stations)
        }
        #expect(throws: NetworkError.duplicateStation("A")) {
            try RailwayNetwork(railways: [], stations: stations + [station("A", 5)])
        }
        #expect(throws: NetworkError.duplicateRailway("R")) {
            try RailwayNetwork(
                railways: [railway(["A", "B"], track: [0, 1]), railway(["A", "B"], track: [0, 1])], stations: stations)
        }
        let bad = Station(id: "X", railwayID: "R", name: "X", coordinate: Coordinate(latitude: .nan, longitude: 0))
        #expect(throws: NetworkError.invalidCoordinate(station: "X")) {
            try RailwayNetwork(railways: [], stations: [bad])
        }
    }

    @Test func undergroundPartsOfATrackAreKnown() {
        let track = Track(pieces: [([coordinate(0), coordinate(1_000)], false), ([coordinate(1_000), coordinate(3_000)], true)])
        #expect(abs(track.undergroundLength - 2_000) < 3)
        #expect(!track.isUnderground(atAlongTrack: 500))
        #expect(track.isUnderground(atAlongTrack: 2_000))
        #expect(track.reversed().isUnderground(atAlongTrack: 500))
    }
}
