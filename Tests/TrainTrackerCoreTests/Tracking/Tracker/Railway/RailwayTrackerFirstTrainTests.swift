import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore

/// A line that starts running while the rider is within its reach enters `firstTrainCost`
/// below the leader, not the full switch cost: the rider (or, in an operator's recording, the
/// train itself) may have stood at the origin waiting for its first train, with no fix to
/// show the stop. Caltrain's recorded trains stand at their origins for up to two hours,
/// their repeated positions left out as stale.
@Suite struct RailwayTrackerFirstTrainTests {
    typealias Fixture = RailwayTrackerPassageTests

    /// "A" runs all day, a train every half hour from 06:15 to 15:45 and one more at 09:00; "B"
    /// runs the same track and stations from 10:05, twenty minutes after A's 09:45: its
    /// calendar has no train within an hour before 09:05, so until then B is no hypothesis.
    static func dataset() throws -> TransitDataset {
        let trains =
            (0..<20).map { Fixture.train("A\($0)", "A", start: 22_500 + Double($0) * 1_800) }
            + [Fixture.train("A-0900", "A", start: 32_400)]
            + (0..<20).map { Fixture.train("B\($0)", "B", start: 36_300 + Double($0) * 600) }
        return TransitDataset(network: try Fixture.network(["A", "B"]), timetable: Timetable(trains: trains))
    }

    /// The rider on B's first train (10:05 from station 0) with a phone that sleeps on the
    /// platform: one fix there at 08:50, before B runs, then nothing until the train has left,
    /// and a fix every 40 s to station 4. The railway named at each fix after the departure.
    /// With `suspended`, the tracker is kept as a snapshot while the phone sleeps, and
    /// restored from it when the train has left (an app suspended on the platform).
    func ride(_ parameters: RailwayTracker.Parameters, suspended: Bool = false) throws -> [String?] {
        let model = TrackerModel(dataset: try Self.dataset())
        var tracker = RailwayTracker(model: model, parameters: parameters)
        let departure = morning.adding(7_500)  // 10:05
        _ = tracker.process(Location(coordinate: Fixture.point(0), timestamp: morning.adding(3_000), horizontalAccuracy: 10))
        if suspended { tracker = try RailwayTracker(model: model, parameters: parameters, restoring: tracker.snapshot()) }
        return stride(from: 60.0, to: 600, by: 40).map { second in
            tracker.process(Self.fix(second, after: departure)).best?.railwayID
        }
    }

    /// Where a train that left station 0 at `departure` is `second` seconds later, as a fix.
    static func fix(_ second: Seconds, after departure: Timestamp) -> Location {
        let leg = (second / 150).rounded(.down)
        let into = min(second - 150 * leg, 120)
        return Location(
            coordinate: Fixture.point(2_000 * leg + 2_000 * into / 120), timestamp: departure.adding(second),
            horizontalAccuracy: 10)
    }

    @Test(arguments: [false, true])
    func theFirstTrainOfALineIsNamedSoonAfterItLeaves(suspended: Bool) throws {
        let answers = try ride(RailwayTracker.Parameters(), suspended: suspended)
        #expect(answers.suffix(8).allSatisfy { $0 == "B" }, "\(answers)")
    }

    @Test func enteringAtTheFullSwitchCostTheBusierLineHoldsOn() throws {
        // The control: B entering where a line coming within reach does, the whole switch cost
        // below A, which the same fixes do not overturn in the time the ride takes.
        var parameters = RailwayTracker.Parameters()
        parameters.switching.firstTrainCost = parameters.switching.cost
        let answers = try ride(parameters)
        #expect(answers.suffix(8).filter { $0 == "B" }.count < 4, "\(answers)")
    }

    /// A rider on A's 09:00 train, moving when B starts running at 09:05, cannot have boarded
    /// B's first train: B enters as any line does, whatever the first-train cost.
    @Test func aRiderOnAMovingTrainWaitsForNoLine() throws {
        func scoreOfB(firstTrainCost: Nats) throws -> Nats? {
            var parameters = RailwayTracker.Parameters()
            parameters.switching.firstTrainCost = firstTrainCost
            var tracker = RailwayTracker(model: TrackerModel(dataset: try Self.dataset()), parameters: parameters)
            tracker.explains = true
            for second in stride(from: 40.0, to: 600, by: 40) {
                _ = tracker.process(Self.fix(second, after: morning.adding(3_600)))
                let entered = tracker.explanation(limit: 20).first { $0.railwayID == "B" && $0.directionName == "East" }
                if let entered { return entered.score }
            }
            return nil
        }
        let cheap = try #require(try scoreOfB(firstTrainCost: 0), "B starts running during the ride")
        let full = try #require(try scoreOfB(firstTrainCost: SwitchingEvidence().cost))
        #expect(cheap == full)
    }
}
