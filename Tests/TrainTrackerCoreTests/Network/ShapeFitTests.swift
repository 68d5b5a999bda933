import Testing
import TrainTrackerCore

/// A line's stations fitted to track shapes: the line's track cut from the shape that fits.
@Suite struct ShapeFitTests {
    let origin = LocalProjection(origin: Coordinate(latitude: 60.2, longitude: 24.9))

    func point(_ east: Double, _ north: Double) -> Coordinate { origin.coordinate(at: PlanarVector(east: east, north: north)) }

    func station(_ code: String, _ east: Double, _ north: Double) -> RailStation {
        RailStation(code: code, name: "Station \(code)", coordinate: point(east, north))
    }

    /// An arc of track from (0, 0) bulging 800 m north to (4000, 0): a straight line between
    /// stations 500 m from either end passes 450 m south of its middle.
    var arc: [Coordinate] {
        (0...40).map { step in
            let east = Double(step) * 100
            return point(east, 800 * (1 - ((east - 2_000) / 2_000) * ((east - 2_000) / 2_000)))
        }
    }

    @Test func aLinesTrackFollowsTheShapeBetweenItsEndStations() throws {
        // Stations 30-60 m off the arc, the first 500 m in and the last 500 m before its end.
        let stations = [station("A", 500, 360), station("B", 2_000, 770), station("C", 3_500, 380)]
        let track = try #require(ShapeFit.track(through: stations.map(\.coordinate), shapes: [arc]))
        let polyline = Polyline(track)
        // The arc's middle, not the chord from A to C, and cut at the end stations.
        #expect(polyline.distance(to: point(2_000, 800)).map { $0 < 5 } == true)
        #expect(track.first.map { $0.distance(to: point(500, 350)) < 40 } == true)
        #expect(track.last.map { $0.distance(to: point(3_500, 350)) < 40 } == true)
        let network = try RailwayNetwork(
            lines: [RailLine(name: "K", kind: "train", stations: stations, bothWays: true)], shapes: [arc])
        let railway = try #require(network.railway(id: "K"))
        // 3,150 m along the arc, against 3,000 m straight from A to C.
        #expect(railway.track.polyline.length > 3_100)
        // The same line without shapes is drawn straight: the arc's middle is 800 m away.
        let straight = RailLineRailways(lines: [RailLine(name: "K", kind: "train", stations: stations, bothWays: true)])
        #expect(straight.straight == ["K"])
        #expect(
            RailLineRailways(lines: [RailLine(name: "K", kind: "train", stations: stations, bothWays: true)], shapes: [arc])
                .straight.isEmpty)
    }

    @Test func aShapeDrawnTheOtherWayRoundFitsToo() throws {
        let stations = [point(500, 360), point(3_500, 380)]
        let fit = try #require(ShapeFit.bestFit(of: stations, among: [arc.reversed()]))
        #expect(fit.alongs[0] < fit.alongs[1])
        let track = fit.track
        #expect(track.first.map { $0.distance(to: point(500, 350)) < 40 } == true)
    }

    @Test func aStationOffEveryShapeOrOutOfOrderLeavesTheLineStraight() {
        // One station 1.5 km off the arc.
        #expect(ShapeFit.track(through: [point(500, 360), point(2_000, -700), point(3_500, 380)], shapes: [arc]) == nil)
        // One shape for one end of the line, another for the other: no single shape fits.
        let west = Array(arc.prefix(21))
        let east = Array(arc.suffix(21))
        #expect(ShapeFit.track(through: [point(500, 360), point(3_500, 380)], shapes: [west, east]) == nil)
        // Fewer than two stations or vertices.
        #expect(ShapeFit.track(through: [point(500, 360)], shapes: [arc]) == nil)
        #expect(ShapeFit.track(through: [point(500, 360), point(3_500, 380)], shapes: [[point(0, 0)]]) == nil)
    }

    @Test func theNearestOfTwoShapesThatFitWins() throws {
        // A parallel track 250 m south of the arc: within reach of every station, but farther.
        let parallel = arc.map { coordinate -> Coordinate in
            let vector = origin.vector(to: coordinate)
            return point(vector.east, vector.north - 250)
        }
        let stations = [point(500, 360), point(2_000, 790), point(3_500, 380)]
        let track = try #require(ShapeFit.track(through: stations, shapes: [parallel, arc]))
        #expect(Polyline(track).distance(to: point(2_000, 800)).map { $0 < 5 } == true)
    }

    @Test func aRingPassingAStationTwicePlacesItsStationsInOrder() throws {
        // Out along the south side of a square and back along the north, past the start station
        // S twice: S → E (far corner) → S.
        let ring = [point(0, 0), point(4_000, 0), point(4_000, 3_000), point(0, 3_000), point(0, 0)]
        let stations = [point(0, 40), point(2_000, 30), point(4_000, 1_500), point(2_000, 3_030), point(0, 1_500)]
        let fit = try #require(ShapeFit.bestFit(of: stations, among: [ring]))
        #expect(fit.alongs.map { Int(($0 / 100).rounded()) * 100 } == [0, 2_000, 5_500, 9_000, 12_500])
        #expect(fit.worstDistance < 50)
    }
}
