import Testing

@testable import TrainTrackerCore

/// A standing phone that claims to move (an iPhone in a standing train reported 7 m/s on a
/// course 180° off): the claim is read as standing unless the fixes bear it out.
@Suite struct MotionStateClaimsTests {
    let start = Timestamp(secondsSince1970: 1_758_520_000)
    let origin = Coordinate(latitude: 35.68, longitude: 139.76)

    /// A fix `east` metres east of the origin at second `second`, claiming `speed` on `course`.
    func fix(_ second: Int, east: Meters, speed: MetersPerSecond, course: Degrees?) -> Location {
        Location(
            coordinate: LocalProjection(origin: origin).coordinate(at: PlanarVector(east: east, north: 0)),
            timestamp: start.adding(Double(second)), horizontalAccuracy: 8, speed: speed, course: course)
    }

    @Test func aStandingPhonesClaimToMoveIsReadAsStanding() {
        var state = MotionState()
        var changes: [MotionState.Change?] = []
        var read: [Location] = []
        for second in 0..<600 {
            // Standing, its fixes within 3 m; every 40 s, five seconds claiming 7 m/s westwards.
            let claims = second > 30 && second % 40 < 5
            let reported = fix(
                second, east: Double(second % 7) - 3, speed: claims ? 7 : 0, course: claims ? 270 : nil)
            let location = state.borneOut(reported)
            read.append(location)
            changes.append(state.update(location))
        }
        #expect(state.isStopped)
        #expect(!changes.contains { if case .ended = $0 { true } else { false } }, "the stand ended")
        // What the tracker reads of a claim: standing, no course.
        #expect(read.dropFirst(31).allSatisfy { $0.speed == 0 && $0.course == nil })
    }

    @Test func aTrainMovingOffIsBelievedWithinSeconds() throws {
        var state = MotionState()
        var east: Meters = 0
        var speed: MetersPerSecond = 0
        var ended: Int?
        for second in 0..<90 {
            if second >= 60 {
                speed += 0.8
                east += speed - 0.4
            }
            let location = state.borneOut(fix(second, east: east, speed: speed, course: speed > 0 ? 90 : nil))
            if case .ended = state.update(location), ended == nil { ended = second }
        }
        // Moving off at second 60 at 0.8 m/s²: 3 m/s by 64, believed by 68 (as a phone whose
        // claims are all borne out).
        let at = try #require(ended)
        #expect((60...68).contains(at), "ended at \(at)")
    }

    @Test func aClaimFarFromTheStandIsBorneOut() {
        var state = MotionState()
        for second in 0..<30 { _ = state.update(fix(second, east: 0, speed: 0, course: nil)) }
        #expect(state.isStopped)
        // 7 m/s needs 17 m from where it stood (7² / 3, less 3 m, plus half the fix's 8 m
        // accuracy), running away from it: 25 m east, heading east, it moves as reported.
        let far = fix(30, east: 25, speed: 7, course: 90)
        #expect(state.borneOut(far).speed == 7)
        #expect(state.borneOut(fix(30, east: 15, speed: 7, course: 90)).speed == 0, "too near")
        #expect(state.borneOut(fix(30, east: 25, speed: 7, course: 270)).speed == 0, "heading back to the stand")
        #expect(state.borneOut(fix(30, east: 25, speed: 7, course: 0)).speed == 0, "heading across")
        // Walking and creeping speeds are the stop's own tests' to read.
        #expect(state.borneOut(fix(30, east: 0, speed: 0.8, course: 90)).speed == 0.8)
        #expect(state.borneOut(fix(30, east: 1, speed: 2.5, course: 270)).speed == 2.5)
    }
}
