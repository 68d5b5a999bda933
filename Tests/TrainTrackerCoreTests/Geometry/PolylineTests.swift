import Testing
import TrainTrackerCore
import TrainTrackerTestSupport

@testable import TrainTrackerLab

@Suite(.tags(.sharedData)) struct PolylineTests {
    /// An L-shaped line: 1 km east, then 1 km north.
    let projection = LocalProjection(origin: Coordinate(latitude: 35.6, longitude: 139.7))
    var line: Polyline {
        Polyline([
            projection.coordinate(at: PlanarVector(east: 0, north: 0)),
            projection.coordinate(at: PlanarVector(east: 1_000, north: 0)),
            projection.coordinate(at: PlanarVector(east: 1_000, north: 1_000)),
        ])
    }

    @Test func lengthIsTheSumOfItsEdges() {
        #expect(abs(line.length - 2_000) < 2)
    }

    @Test func projectionFindsTheNearestPointAndItsAlongTrackPosition() throws {
        let point = projection.coordinate(at: PlanarVector(east: 400, north: 30))
        let result = try #require(line.projection(of: point))
        #expect(result.edge == 0)
        #expect(abs(result.distance - 30) < 0.1)
        #expect(abs(result.alongTrack - 400) < 1)

        let onSecondEdge = projection.coordinate(at: PlanarVector(east: 1_050, north: 700))
        let second = try #require(line.projection(of: onSecondEdge))
        #expect(second.edge == 1)
        #expect(abs(second.distance - 50) < 0.1)
        #expect(abs(second.alongTrack - 1_700) < 2)
    }

    @Test func pointsBeyondTheEndsProjectOntoTheEnds() throws {
        let before = projection.coordinate(at: PlanarVector(east: -300, north: -400))
        let result = try #require(line.projection(of: before))
        #expect(result.alongTrack == 0)
        #expect(abs(result.distance - 500) < 0.5)
    }

    @Test func maximumDistanceLimitsTheSearch() {
        let far = projection.coordinate(at: PlanarVector(east: 500, north: -2_000))
        #expect(line.distance(to: far, within: 1_500) == nil)
        #expect(line.distance(to: far, within: 2_500).map { abs($0 - 2_000) < 1 } == true)
    }

    @Test func pointAtAlongTrackWalksTheLineWithItsCourse() {
        let (middle, course) = line.point(atAlongTrack: 500)
        #expect(middle.distance(to: projection.coordinate(at: PlanarVector(east: 500, north: 0))) < 1)
        #expect(abs(course - 90) < 0.5)
        let (upper, upperCourse) = line.point(atAlongTrack: 1_500)
        #expect(upper.distance(to: projection.coordinate(at: PlanarVector(east: 1_000, north: 500))) < 1)
        #expect(abs(upperCourse) < 0.5 || abs(upperCourse - 360) < 0.5)
        #expect(line.point(atAlongTrack: 99_999).coordinate == line.coordinates.last)
    }

    @Test func zeroOneTwoAndManyVertices() {
        let single = Polyline([Coordinate(latitude: 35.6, longitude: 139.7)])
        #expect(single.length == 0)
        #expect(single.projection(of: Coordinate(latitude: 35.601, longitude: 139.7))?.alongTrack == 0)
        let duplicates = Polyline(Array(repeating: Coordinate(latitude: 35.6, longitude: 139.7), count: 3))
        #expect(duplicates.coordinates.count == 1)
        let many = Polyline((0...1_000).map { projection.coordinate(at: PlanarVector(east: Double($0) * 10, north: 0)) })
        let target = projection.coordinate(at: PlanarVector(east: 7_777, north: 12))
        let result = many.projection(of: target)
        #expect(result.map { abs($0.alongTrack - 7_777) < 2 && abs($0.distance - 12) < 0.1 } == true)
    }

    /// The index must give the same answer as checking every edge.
    @Test func indexedSearchAgreesWithBruteForceOnRealTrack() throws {
        let network = try SharedData.tokyoNetwork()
        let track = try #require(network.railway(id: "JR-East.ChuoRapid")).track.polyline
        var generator = SeededGenerator(seed: 42)
        let box = (south: 35.65, north: 35.72, west: 139.3, east: 139.78)
        for _ in 0..<200 {
            let point = Coordinate(
                latitude: Double.random(in: box.south...box.north, using: &generator),
                longitude: Double.random(in: box.west...box.east, using: &generator)
            )
            let local = LocalProjection(origin: point)
            var brute = Double.infinity
            for (from, to) in zip(track.coordinates, track.coordinates.dropFirst()) {
                let a = local.vector(to: from)
                let b = local.vector(to: to)
                let segment = b - a
                let t = max(0, min(1, -a.dot(segment) / max(segment.dot(segment), 1e-12)))
                brute = min(brute, (a + segment * t).length)
            }
            let indexed = try #require(track.distance(to: point))
            #expect(abs(indexed - brute) < 0.01)
            // A hint (here a random edge, usually a poor one) changes the work, never the answer.
            let hint = Int.random(in: 0..<(track.coordinates.count - 1), using: &generator)
            let hinted = try #require(track.nearestEdge(from: local, within: .infinity, hint: hint))
            #expect(abs(hinted.distance - brute) < 0.01)
        }
    }
}
