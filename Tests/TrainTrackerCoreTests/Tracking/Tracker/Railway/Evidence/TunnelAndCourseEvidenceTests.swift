import Testing

@testable import TrainTrackerCore

/// The tunnel and course evidence.
@Suite struct TunnelAndCourseEvidenceTests {
    @Test(arguments: [
        // (accuracy, depth inside the tunnel, cost, whether the fix rules the line out)
        (10.0, 500.0, 4.0, true),
        (80.0, 500.0, 4.0, false),  // a poor fix may come from a tunnel
        (10.0, 100.0, 4.0, false),  // near a portal: the drawn portals are approximate
        (10.0, 0.0, 4.0, false),  // above ground
        (10.0, 500.0, 0.0, false),  // the evidence switched off
    ])
    func tunnelRulesOut(accuracy: Meters, depth: Meters, cost: Double, rulesOut: Bool) {
        var evidence = TunnelEvidence()
        evidence.cost = cost
        #expect(evidence.rulesOut(accuracy: accuracy, depth: depth) == rulesOut)
    }

    @Test func aTunnelCostsByHowMuchTheFixCounts() {
        let evidence = TunnelEvidence()
        #expect(evidence.nats(fixWeight: 0.5) > evidence.nats(fixWeight: 1))
        #expect(evidence.nats(fixWeight: 1) == -evidence.cost)
    }

    @Test(arguments: [
        // (what, reported course, track course, reversed, neighbouring edges' courses, nats)
        ("along the track", 90.0, 90.0, false, [Degrees](), 0.0),
        ("at 90°", 90.0, 0.0, false, [], -1.5),
        ("against the track", 90.0, 270.0, false, [], -3.0),
        ("against the drawn direction, for the reverse hypothesis", 270.0, 90.0, true, [], 0.0),
        ("along the drawn direction, for the reverse hypothesis", 90.0, 90.0, true, [], -3.0),
        ("a kink: the next edge agrees", 90.0, 20.0, false, [90.0], 0.0),
        ("a reversal is not a kink", 270.0, 90.0, false, [270.0], -3.0),
    ])
    func courseAgreement(
        _ what: String, course: Degrees, trackCourse: Degrees, reversed: Bool, neighbours: [Degrees], expected: Double
    ) throws {
        let nats = try #require(
            CourseEvidence().nats(course: course, speed: 15, trackCourse: trackCourse, reversed: reversed) { neighbours })
        #expect(abs(nats - expected) < 1e-9, "\(what): \(nats)")
    }

    @Test(arguments: [(nil, 15.0), (90.0, 1.0), (90.0, 2.0)] as [(Degrees?, MetersPerSecond)])
    func noCourseOrTooSlowSaysNothing(course: Degrees?, speed: MetersPerSecond) {
        #expect(CourseEvidence().nats(course: course, speed: speed, trackCourse: 270, reversed: false) { [] } == nil)
    }
}
