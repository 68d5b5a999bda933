import Testing
import TrainTrackerCommands
import TrainTrackerCore

@testable import TrainTrackerLab

@Suite struct ReplayFormatterTests {
    let network = DemoNetwork.make()

    func candidate(focus: String, phase: FocusPhase, nextStop: String?) -> TrackingCandidate {
        TrackingCandidate(
            railwayID: DemoNetwork.expressID, direction: .ascending, directionName: "Eastbound",
            destinationStationID: "Demo.Express.Yama", focusStationID: focus, phase: phase, laterStationIDs: [], score: 0,
            nextStopID: nextStop, eta: Timestamp(parsing: "2025-09-20T08:14:30Z"))
    }

    @Test func theHeadlineSaysWhereAnExpressStopsNextWhenItPassesTheStationShown() {
        let formatter = ReplayFormatter(network: network, utcOffset: 9 * 3600)
        let passing = formatter.headline(candidate(focus: "Demo.Local.Sakura", phase: .soon, nextStop: "Demo.Express.Midori"))
        #expect(passing == "Demo Express Line → Yama  Soon: Sakura  · stops next at Midori 17:14")
        let stopping = formatter.headline(candidate(focus: "Demo.Express.Midori", phase: .next, nextStop: "Demo.Express.Midori"))
        #expect(stopping == "Demo Express Line → Yama  Next: Midori")
        let unknown = formatter.headline(candidate(focus: "Demo.Express.Midori", phase: .now, nextStop: nil))
        #expect(unknown == "Demo Express Line → Yama  Now: Midori")
    }

    @Test func theHeadlineNamesTheTrainAndHowLateItIs() {
        let formatter = ReplayFormatter(network: network, utcOffset: 9 * 3600)
        var late = candidate(focus: "Demo.Express.Midori", phase: .next, nextStop: "Demo.Express.Midori")
        late.train = "417"
        late.delaySeconds = 250
        #expect(formatter.headline(late) == "Demo Express Line → Yama  Next: Midori  · train 417, 4 min late")
        late.delaySeconds = -100
        #expect(formatter.headline(late).hasSuffix("· train 417, 2 min early"))
        late.delaySeconds = nil
        late.train = "4\u{1B}[2J"
        #expect(formatter.headline(late).hasSuffix("· train 4?[2J"), "a feed's control characters never reach the terminal")
    }
}
