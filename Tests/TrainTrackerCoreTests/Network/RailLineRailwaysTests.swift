import Testing
import TrainTrackerCore

/// Rail lines (stations and stopping patterns, no track) as a network the tracker reads.
@Suite struct RailLineRailwaysTests {
    let origin = LocalProjection(origin: Coordinate(latitude: 60.2, longitude: 24.9))

    func station(_ code: String, east: Double, north: Double = 0) -> RailStation {
        RailStation(
            code: code, name: "Station \(code)", coordinate: origin.coordinate(at: PlanarVector(east: east, north: north)))
    }

    @Test func aLineIsARailwayWithStraightTrackAndDirectionsNamedByItsEnds() throws {
        let stations = [station("A", east: 0), station("B", east: 1_000), station("C", east: 3_000)]
        let network = try RailwayNetwork(lines: [RailLine(name: "K", kind: "train", stations: stations, bothWays: true)])
        let railway = try #require(network.railway(id: "K"))
        #expect(railway.stationIDs == ["K/A", "K/B", "K/C"])
        #expect(railway.ascendingName == "K to Station C" && railway.descendingName == "K to Station A")
        #expect(abs(railway.track.polyline.length - 3_000) < 5)
        #expect(network.stationPositions(of: railway).map { Int(($0 / 10).rounded()) * 10 } == [0, 1_000, 3_000])
        #expect(RailLineRailways.code(ofStationID: "K/B") == "B" && RailLineRailways.code(ofStationID: "B") == "B")
    }

    @Test func twoBranchesOfOneNameAreToldApartByTheirEnds() throws {
        let trunk = [station("A", east: 0), station("B", east: 1_000)]
        let lines = [
            RailLine(name: "metro", kind: "metro", stations: trunk + [station("C", east: 2_000, north: 500)], bothWays: true),
            RailLine(name: "metro", kind: "metro", stations: trunk + [station("D", east: 2_000, north: -500)], bothWays: true),
        ]
        let network = try RailwayNetwork(lines: lines)
        #expect(network.railways.map(\.id).sorted() == ["metro Station A–Station C", "metro Station A–Station D"])
        // Each branch has its own copy of the shared stations.
        #expect(network.stations.count == 6)
    }

    @Test func aRingIsSplitWhereItIsFarthestAndItsReverseTwinIsItsOtherDirection() throws {
        // A square ring H → 1 → 2 → 3 (far corner) → 4 → 5 → H, and P the other way round.
        let corners = [(0.0, 0.0), (2_000, 0), (4_000, 0), (4_000, 4_000), (0, 4_000), (0, 2_000), (0, 0)]
        let ring = corners.enumerated().map { index, corner in
            station(index == corners.count - 1 ? "S0" : "S\(index)", east: corner.0, north: corner.1)
        }
        let lines = [
            RailLine(name: "I", kind: "train", stations: ring, bothWays: false),
            RailLine(name: "P", kind: "train", stations: ring.reversed(), bothWays: false),
        ]
        let built = RailLineRailways(lines: lines)
        #expect(built.railways.count == 2, "P is I the other way round, not railways of its own")
        let network = try RailwayNetwork(lines: lines)
        for railway in network.railways {
            #expect(railway.id.hasPrefix("I/P "))
            #expect(railway.ascendingName.hasPrefix("I to ") && railway.descendingName.hasPrefix("P to "))
            // Along-track positions grow with the station order: no station projected onto the
            // track's other pass.
            let positions = network.stationPositions(of: railway)
            #expect(positions == positions.sorted(), "\(railway.id): \(positions)")
        }
        // The halves overlap around the far corner S3, so a ride from S2 to S4 lies on one railway.
        let codes = network.railways.map { $0.stationIDs.map(RailLineRailways.code(ofStationID:)) }
        #expect(codes.contains { $0.contains("S2") && $0.contains("S3") && $0.contains("S4") })
        #expect(codes.allSatisfy { $0.first == "S0" || $0.last == "S0" })
    }
}
