import Testing
import TrainTrackerCore
import TrainTrackerTestSupport

@testable import TrainTrackerLab

/// The railway tracker on the Yamanote loop of the real Tokyo network.
@Suite(.tags(.sharedData)) struct RailwayTrackerLoopTests {
    /// A train standing at a station of a loop arrives there now: its expected arrival is never
    /// a lap later (it was, about 50 minutes, on 28 % of a Yamanote ride's fixes).
    @Test func atAStationOfTheLoopTheArrivalIsNowNotALapLater() throws {
        let network = try SharedData.tokyoNetwork()
        let fixes = try JourneySimulator(network: network).journey(
            on: "JR-East.Yamanote", from: "JR-East.Yamanote.Tamachi", to: "JR-East.Yamanote.Osaki",
            start: Timestamp(secondsSince1970: 1_758_355_200))
        var tracker = RailwayTracker(model: TrackerModel(network: network))
        var atStations = 0
        for fix in fixes {
            let result = tracker.process(fix)
            guard let best = result.best, best.railwayID == "JR-East.Yamanote", best.phase == .now,
                best.nextStopID == best.focusStationID, let eta = best.eta
            else { continue }
            atStations += 1
            #expect(
                eta.seconds(since: fix.timestamp) < 120,
                "at \(best.focusStationID): arrival \(eta.seconds(since: fix.timestamp)) s on")
        }
        #expect(atStations > 300, "the train stood at many stations")
    }
}
