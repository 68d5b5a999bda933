import Testing

@testable import TrainTrackerCore
@testable import TrainTrackerLab

@Suite struct TimetabledRideTests {
    let network = DemoNetwork.make()

    /// A local train Minato → Midori (stopping everywhere) on a 2.5-minute-per-leg schedule.
    func plan(schedule: Seconds = 150, stops: [Int] = [0, 1, 2, 3]) throws -> (TimetabledRide, [Meters]) {
        let railway = try #require(network.railway(id: DemoNetwork.localID))
        let positions = network.stationPositions(of: railway)
        let calls = stops.enumerated().map { index, station in
            (
                position: positions[station], arrival: Optional(Seconds(index) * schedule),
                departure: Optional(Seconds(index) * schedule)
            )
        }
        return (
            TimetabledRide(stops: calls, walk: TrackWalk(railway: railway, direction: .ascending), limits: .init()), positions
        )
    }

    @Test func theRideKeepsToAMinutePreciseSchedule() throws {
        let (ride, positions) = try plan(schedule: 150)
        let limits = TimetabledRide.Limits()
        // Three legs 150 s apart with no published dwell: each 25 s dwell is centred on the
        // published time, so the train arrives at the end on time instead of 50 s late.
        #expect(abs(ride.arrivalOffset - (limits.initialWait + 3 * 150)) < 1)
        #expect(abs(ride.duration - (limits.initialWait + 3 * 150 + limits.finalWait)) < 1)
        // It leaves the second station half a dwell after its published time.
        let leaves = try #require(
            stride(from: limits.initialWait + 100, to: limits.initialWait + 250, by: 0.5).first { time in
                ride.state(at: time).speed == 0 && abs(ride.state(at: time).position - positions[1]) < 1
                    && ride.state(at: time + 0.5).speed > 0
            })
        #expect(abs(leaves - (limits.initialWait + 150 + limits.minimumDwell / 2)) < 1)
    }

    @Test func speedStaysWithinTheLimitsAndStopsAtEachStation() throws {
        let (ride, positions) = try plan(schedule: 150)
        let limits = TimetabledRide.Limits()
        var previous = ride.state(at: 0)
        var stoppedAt: [Int: Seconds] = [:]
        for tick in 1...Int(ride.duration * 10) {
            let time = Double(tick) / 10
            let state = ride.state(at: time)
            #expect(state.speed <= limits.maximumSpeed + 1e-9)
            let change = (state.speed - previous.speed) / 0.1
            #expect(change <= limits.acceleration + 1e-6 && change >= -limits.braking - 1e-6)
            #expect(state.position >= previous.position - 1e-9, "never backwards")
            if state.speed == 0, let station = positions.firstIndex(where: { abs($0 - state.position) < 0.5 }) {
                stoppedAt[station, default: 0] += 0.1
            }
            previous = state
        }
        #expect(stoppedAt.keys.sorted() == [0, 1, 2, 3])
        #expect(stoppedAt.values.allSatisfy { $0 >= limits.minimumDwell - 0.2 })
    }

    @Test func passedStationsAreRunThroughAtSpeed() throws {
        let (ride, positions) = try plan(schedule: 240, stops: [0, 3])
        var speedsAtSakura: [MetersPerSecond] = []
        for tick in 0...Int(ride.duration * 10) {
            let state = ride.state(at: Double(tick) / 10)
            if abs(state.position - positions[1]) < 20 { speedsAtSakura.append(state.speed) }
        }
        #expect(!speedsAtSakura.isEmpty && speedsAtSakura.allSatisfy { $0 > 10 })
    }

    @Test func anImpossibleScheduleRunsAsFastAsTheLimitsAllow() throws {
        let (ride, _) = try plan(schedule: 10, stops: [0, 7])
        let fastest = ride.duration - TimetabledRide.Limits().initialWait - TimetabledRide.Limits().finalWait
        #expect(fastest > 10, "late, not teleporting")
        let top = (0...Int(ride.duration)).map { ride.state(at: Double($0)).speed }.max() ?? 0
        #expect(abs(top - TimetabledRide.Limits().maximumSpeed) < 0.01)
    }

    @Test func aLoopWrapsPastItsSeam() {
        let walk = TrackWalk(railway: DemoNetwork.make().railways[0], direction: .ascending)
        #expect(walk.advance(100, by: 50) == 150)
        #expect(walk.distanceAhead(from: 100, to: 50) == -50, "no wrap on a line")
        let length = 1_000.0
        let loop = TrackWalk(length: length, isLoop: true, sign: -1)
        #expect(loop.advance(100, by: 150) == 950)
        #expect(loop.distanceAhead(from: 100, to: 900) == 200)
        #expect(loop.separation(50, 980) == 70)
    }

    @Test func theTrueFocusFollowsTheNowSoonNextRule() {
        let truth = FocusRule(
            stations: [("A", 0), ("B", 1_000), ("C", 2_000)], walk: TrackWalk(length: 2_000, isLoop: false, sign: 1))
        #expect(truth.focus(at: 150)! == ("A", .now))
        #expect(truth.focus(at: 300)! == ("B", .next))
        #expect(truth.focus(at: 550)! == ("B", .soon))
        #expect(truth.focus(at: 900)! == ("B", .now))
        #expect(truth.focus(at: 1_990)! == ("C", .now))
        let backwards = FocusRule(stations: [("A", 0), ("B", 1_000)], walk: TrackWalk(length: 1_000, isLoop: false, sign: -1))
        #expect(backwards.focus(at: 700)! == ("A", .next))
        #expect(backwards.focus(at: 450)! == ("A", .soon))
    }
}
