import Testing

@testable import TrainTrackerCore

/// A track continued past its drawn ends: a fix beyond an end lies along the continuation,
/// not across the track.
@Suite struct PolylineEndsTests {
    /// An L-shaped line: 1 km east, then 1 km north.
    let frame = LocalProjection(origin: Coordinate(latitude: 35.6, longitude: 139.7))
    var line: Polyline {
        Polyline([point(0, 0), point(1_000, 0), point(1_000, 1_000)])
    }

    func point(_ east: Meters, _ north: Meters) -> Coordinate { frame.coordinate(at: PlanarVector(east: east, north: north)) }

    @Test func aFixBeyondTheLastVertexLiesAlongTheContinuation() throws {
        let place = try #require(line.projectionPastEnds(of: point(1_010, 1_150), within: 500, extending: 500))
        #expect(abs(place.along - (line.length + 150)) < 1, "\(place)")
        #expect(abs(place.across - 10) < 1, "\(place)")
        // Without the continuation, the same fix lies 150 m across the track.
        let plain = try #require(line.projection(of: point(1_010, 1_150), within: 500))
        #expect(plain.distance > 149)
    }

    @Test func aFixBeforeTheFirstVertexLiesBeforeZero() throws {
        let place = try #require(line.projectionPastEnds(of: point(-200, 20), within: 500, extending: 500))
        #expect(abs(place.along + 200) < 1, "\(place)")
        #expect(abs(place.across - 20) < 1, "\(place)")
    }

    @Test func theContinuationStopsAtItsLength() throws {
        // 400 m past the start, continued only 100 m: the rest lies across the continuation's end.
        let place = try #require(line.projectionPastEnds(of: point(-400, 0), within: 500, extending: 100))
        #expect(abs(place.along + 100) < 1, "\(place)")
        #expect(abs(place.across - 300) < 1, "\(place)")
    }

    @Test func aFixBesideTheTrackIsAsBefore() throws {
        let place = try #require(line.projectionPastEnds(of: point(500, 30), within: 500, extending: 500))
        let plain = try #require(line.projection(of: point(500, 30), within: 500))
        #expect(place.along == plain.alongTrack)
        #expect(place.across == plain.distance)
        // Out of reach of the drawn track, nothing.
        #expect(line.projectionPastEnds(of: point(1_000, 1_600), within: 500, extending: 500) == nil)
    }

    @Test func oneVertexOrNoContinuationGivesThePlainProjection() throws {
        let dot = Polyline([point(0, 0)])
        let place = try #require(dot.projectionPastEnds(of: point(30, 40), within: 500, extending: 500))
        #expect(abs(place.across - 50) < 1)
        let unextended = try #require(line.projectionPastEnds(of: point(-200, 0), within: 500, extending: 0))
        #expect(unextended.along == 0 && abs(unextended.across - 200) < 1)
    }
}
