import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore
@testable import TrainTrackerLab

/// The focus rule's binary search over stations in track order answers as its scan does.
@Suite struct FocusRuleTests {
    typealias Focus = (station: Int, phase: FocusPhase, pastTheEnd: Bool)

    static func same(_ a: Focus?, _ b: Focus?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): a.station == b.station && a.phase == b.phase && a.pastTheEnd == b.pastTheEnd
        default: false
        }
    }

    /// Where to ask: at, just before and after each station and each rule boundary, between
    /// stations, and beyond both ends.
    static func alongs(_ positions: [Meters]) -> [Meters] {
        let offsets: [Meters] = [0, -0.5, 0.5, -200, 200, -200.5, 200.5, -500, 500, -500.5, 500.5, -3_000, 3_000]
        var alongs = positions.flatMap { position in offsets.map { position + $0 } }
        alongs += zip(positions, positions.dropFirst()).map { ($0 + $1) / 2 }
        return alongs
    }

    /// Mismatches between the search and the scan over `positions`, both ways.
    static func mismatches(_ positions: [Meters]) -> Int {
        let length = (positions.last ?? 0) + 1_000
        var count = 0
        for sign in [1.0, -1.0] {
            let walk = TrackWalk(length: length, isLoop: false, sign: sign)
            for along in alongs(positions) {
                let scan = FocusRule.focus(positions: positions, walk: walk, at: along)
                let search = FocusRule.focus(positions: positions, inTrackOrder: true, walk: walk, at: along)
                if !same(scan, search) { count += 1 }
            }
        }
        return count
    }

    @Test func oneStationTwoAndEqualPositionsAnswerAsTheScan() {
        #expect(Self.mismatches([1_000]) == 0)
        #expect(Self.mismatches([0, 1_000]) == 0)
        #expect(Self.mismatches([0, 300, 300, 300, 900, 900, 2_000]) == 0)
        #expect(Self.mismatches([0, 150, 310, 700]) == 0)  // stations closer than the rule's radii
    }

    @Test func randomLinesInTrackOrderAnswerAsTheScan() {
        var generator = SeededGenerator(seed: 2026_12_07)
        var checked = 0
        for _ in 0..<300 {
            let count = Int.random(in: 1...40, using: &generator)
            var position = 0.0
            let positions = (0..<count).map { _ in
                // Gaps from none (a repeated station) to 4 km, often under the rule's radii.
                position +=
                    [0, 120, 250, 450, 900].randomElement(using: &generator)! * Double.random(in: 0...4, using: &generator)
                return position
            }
            #expect(Self.mismatches(positions) == 0, "\(positions)")
            checked += 1
        }
        #expect(checked == 300)
    }

    @Test func tokyosRailwaysInTrackOrderAnswerAsTheScan() throws {
        let network = try SharedData.tokyoNetwork()
        var inOrder = 0
        for railway in network.railways.indices where network.stationsInTrackOrder[railway] && !network.isLoop[railway] {
            inOrder += 1
            #expect(Self.mismatches(network.stationAlongTrack[railway]) == 0, "\(network.railways[railway].id)")
        }
        #expect(inOrder > 100, "most of Tokyo's railways have their stations in track order")
    }

    @Test func aRailwayWithAStationOutOfTrackOrderIsScanned() throws {
        // Two straight lines east; the first draws its third station short of its second.
        let origin = LocalProjection(origin: Coordinate(latitude: 35.6, longitude: 139.7))
        let lines: [(id: String, stations: [Meters])] = [("Kinked", [0, 1_000, 800, 2_000]), ("Straight", [0, 1_000, 2_000])]
        var stations: [Station] = []
        var railways: [Railway] = []
        for (row, line) in lines.enumerated() {
            let point = { (east: Meters) in origin.coordinate(at: PlanarVector(east: east, north: Double(row) * 5_000)) }
            let ids = line.stations.indices.map { "\(line.id).\($0)" }
            for (id, east) in zip(ids, line.stations) {
                stations.append(Station(id: id, railwayID: line.id, name: id, coordinate: point(east)))
            }
            railways.append(
                Railway(
                    id: line.id, name: line.id, stationIDs: ids, ascendingName: "Out", descendingName: "In",
                    track: Track(pieces: [(stride(from: 0.0, through: 3_000, by: 100).map(point), false)])))
        }
        let network = try RailwayNetwork(railways: railways, stations: stations)
        #expect(network.stationsInTrackOrder == [false, true])
        // Scanned, the kinked line's focus at 850 m is its third station, 50 m on.
        let walk = TrackWalk(length: 3_000, isLoop: false, sign: 1)
        let focus = FocusRule.focus(
            positions: network.stationAlongTrack[0], inTrackOrder: network.stationsInTrackOrder[0], walk: walk, at: 850)
        #expect(focus?.station == 2 && focus?.phase == .now)
    }
}
