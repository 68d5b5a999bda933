import Testing
import TrainTrackerCore

@Suite struct CoordinateTests {
    @Test func distanceBetweenTokyoAndShinjukuStationsIsAboutSixKilometres() {
        let tokyo = Coordinate(latitude: 35.681236, longitude: 139.767125)
        let shinjuku = Coordinate(latitude: 35.690921, longitude: 139.700258)
        #expect(abs(tokyo.distance(to: shinjuku) - 6_127) < 30)
        #expect(tokyo.distance(to: tokyo) == 0)
    }

    @Test func oneDegreeOfLatitudeIsAbout111Kilometres() {
        let distance = Coordinate(latitude: 35, longitude: 139).distance(to: Coordinate(latitude: 36, longitude: 139))
        #expect(abs(distance - 111_195) < 1)
    }

    @Test(arguments: [
        (Coordinate(latitude: 35.1, longitude: 139), 0.0),
        (Coordinate(latitude: 35, longitude: 139.1), 90.0),
        (Coordinate(latitude: 34.9, longitude: 139), 180.0),
        (Coordinate(latitude: 35, longitude: 138.9), 270.0),
    ])
    func bearingPointsTowardsTheOtherPoint(target: Coordinate, expected: Degrees) {
        let bearing = Coordinate(latitude: 35, longitude: 139).bearing(to: target)
        #expect(abs(bearing - expected) < 0.1)
    }

    @Test func invalidCoordinatesAreRecognised() {
        #expect(Coordinate(latitude: 35, longitude: 139).isValid)
        #expect(!Coordinate(latitude: .nan, longitude: 139).isValid)
        #expect(!Coordinate(latitude: 91, longitude: 139).isValid)
        #expect(!Coordinate(latitude: 35, longitude: -181).isValid)
        #expect(!Coordinate(latitude: .infinity, longitude: 0).isValid)
    }

    @Test func localProjectionAgreesWithGreatCircleDistanceWithinAFewKilometres() {
        let origin = Coordinate(latitude: 35.6, longitude: 139.7)
        let projection = LocalProjection(origin: origin)
        for target in [
            Coordinate(latitude: 35.62, longitude: 139.72), Coordinate(latitude: 35.58, longitude: 139.66),
            Coordinate(latitude: 35.6, longitude: 139.73),
        ] {
            let exact = origin.distance(to: target)
            #expect(abs(projection.distance(to: target) - exact) / exact < 0.001)
            let back = projection.coordinate(at: projection.vector(to: target))
            #expect(back.distance(to: target) < 0.01)
        }
    }

    @Test func courseVectorsPointTheRightWay() {
        let north = PlanarVector(course: 0)
        let east = PlanarVector(course: 90)
        #expect(abs(north.north - 1) < 1e-12 && abs(north.east) < 1e-12)
        #expect(abs(east.east - 1) < 1e-12)
        #expect(abs(PlanarVector(east: -1, north: 0).course - 270) < 1e-9)
        #expect(PlanarVector(east: 0, north: 0).normalized == nil)
    }
}
