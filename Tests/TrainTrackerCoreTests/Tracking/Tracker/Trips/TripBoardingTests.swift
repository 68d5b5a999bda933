import Testing

@testable import TrainTrackerCore

/// Boarding enters the trips due near a fix (`TripFollower.board`); a trip whose train has not
/// left an origin far behind the fix, at any delay the grid holds, is passed over before its
/// timeline is built (`waitsOutOfReach`). Passing it over must never drop a trip boarding
/// would have entered.
@Suite struct TripBoardingTests {
    @Test func aTripPassedOverIsOneBoardingWouldNotEnter() throws {
        let model = TrackerModel(dataset: try TripTrackerTests.dataset())
        var follower = TripFollower()
        var passedOver = 0
        var entered = 0
        for railway in model.network.railways.indices {
            let line = LineDirection(railway: railway, direction: .ascending)
            let origins = TripFollower.Origins(line: line, model: model)
            let prior = follower.delayPrior(on: railway, model: model)
            for trip in model.trips[line: line].indices {
                let key = TripFollower.Key(line: Int32(line.index), trip: Int32(trip), origin: 0)
                let timeline = try #require(follower.timeline(for: key, model: model))
                // From 06:00 to 11:00 every 5 minutes, every 250 m of the 8 km line.
                for clock in stride(from: 21_600.0, through: 39_600, by: 300) {
                    let time = Timestamp(secondsSince1970: clock)
                    for along in stride(from: -500.0, through: 8_500, by: 250) {
                        let entry = follower.entry(
                            key: key, timeline: timeline, along: along, time: time, start: false, prior: prior)
                        if entry != nil { entered += 1 }
                        guard follower.waitsOutOfReach(key, along: along, at: time, origins: origins, model: model)
                        else { continue }
                        passedOver += 1
                        #expect(entry == nil, "\(key) at \(clock) s, \(along) m was passed over but would be entered")
                    }
                }
            }
        }
        // Both happen, so the check above checks something.
        #expect(passedOver > 1_000, "passed over: \(passedOver)")
        #expect(entered > 1_000, "entered: \(entered)")
    }
}
