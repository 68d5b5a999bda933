import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore
@testable import TrainTrackerLab

/// Honest while undecided: before the stops tell a local from an express on their shared track,
/// the answer lists both, and names as the next stop only one both make next.
@Suite(.tags(.sharedData)) struct RailwayTrackerUndecidedTests {
    static let dataset = DemoRides.dataset
    static let model = TrackerModel(dataset: dataset)
    /// Without timetables, as on real phones: each line's stations are its stops, and only
    /// the stops tell the two apart (with timetables, the first departure's time does).
    static let untimed = TrackerModel(network: dataset.network)

    /// The station's name: the local's and the express's stations at one place share it.
    func name(_ stationID: String?) -> String? {
        stationID.map { String($0.split(separator: ".").last ?? "") }
    }

    func answers(_ railway: String, seed: UInt64, model: TrackerModel = untimed) throws -> (
        ride: SimulatedCase, results: [TrackingResult]
    ) {
        let filter = RideFilter(railways: [railway], stops: 4...8)
        let ride = try #require(CaseGenerator(dataset: Self.dataset).cases(count: 1, seed: seed, filter: filter).first)
        var tracker = RailwayTracker(model: model)
        return (ride, ride.fixes.map { tracker.process($0.location) })
    }

    @Test(arguments: [(DemoNetwork.localID, UInt64(5)), (DemoNetwork.expressID, UInt64(5)), (DemoNetwork.expressID, UInt64(21))])
    func whileUndecidedTheNextStopIsOneEveryServiceMakes(railway: String, seed: UInt64) throws {
        let (ride, results) = try answers(railway, seed: seed)
        let undecided = results.filter { !$0.undecided.isEmpty }
        // At the boarding station both lines fit: the answer says so, with both lines' shares.
        let first = try #require(results.first { $0.best != nil })
        #expect(Set(first.undecided.map(\.railwayID)) == [DemoNetwork.localID, DemoNetwork.expressID])
        for result in undecided {
            let shares = result.undecided.map(\.share)
            #expect(result.undecided.count > 1)
            #expect(shares.allSatisfy { $0 >= RailwayTracker.possibleShare && $0 <= 1 })
            #expect(shares == shares.sorted(by: >))
            #expect(shares.reduce(0, +) <= 1 + 1e-9)
            // A stop named is every service's next stop; where they part, none is named.
            let stops = Set(result.undecided.map { name($0.nextStopID) })
            if let shown = result.best?.nextStopID {
                #expect(stops == [name(shown)])
            } else {
                #expect(stops.count > 1 || stops.contains(nil))
            }
        }
        // Where the services part, the answer names no stop for a while: it does not guess.
        #expect(undecided.contains { $0.best?.nextStopID == nil })
        // By the end the stops told them apart: one service, its next stop named.
        let last = try #require(results.last)
        #expect(last.undecided.isEmpty)
        #expect(last.best?.railwayID == railway)
        // No stop named, undecided or not, is another service's: the stops shown are right.
        var evaluator = Evaluator()
        evaluator.network = Self.dataset.network
        let score = evaluator.score(fixes: ride.fixes, truth: ride.truth, tracker: RailwayTracker(model: Self.untimed))
        #expect(score.stopsShown > 0)
        #expect(Double(score.stopsShownRight) >= 0.97 * Double(score.stopsShown))
        #expect(score.undecidedFor != nil)
    }

    @Test func withTimetablesTheFirstDepartureDecides() throws {
        let (ride, results) = try answers(DemoNetwork.expressID, seed: 5, model: Self.model)
        // Standing at the boarding station, both lines fit (either way) and all stop there: it is named.
        let first = try #require(results.first { $0.best != nil })
        #expect(Set(first.undecided.map(\.railwayID)) == [DemoNetwork.localID, DemoNetwork.expressID])
        #expect(first.best?.nextStopID != nil)
        // The express's departure time is no local's: decided within a minute of leaving.
        let departure = ride.truth.departure
        let after = zip(ride.fixes, results).filter { $0.0.location.timestamp.secondsSince1970 > departure + 60 }
        #expect(!after.isEmpty && after.allSatisfy { $0.1.undecided.isEmpty })
    }

    @Test func aDecidedAnswerListsNoServices() throws {
        let (_, results) = try answers(DemoNetwork.localID, seed: 21)
        let decided = results.filter { $0.best != nil && $0.undecided.isEmpty }
        #expect(!decided.isEmpty)
        // Once decided, the best candidate is confident and names its next stop.
        #expect(decided.suffix(60).allSatisfy { ($0.best?.confidence ?? 0) > 0.9 && $0.best?.nextStopID != nil })
    }

    @Test func theBaselinesNeverListServices() throws {
        let filter = RideFilter(railways: [DemoNetwork.expressID], stops: 4...8)
        let ride = try #require(CaseGenerator(dataset: Self.dataset).cases(count: 1, seed: 5, filter: filter).first)
        for name in [TrackingAlgorithmName.eki, .schedule] {
            var tracker = name.makeTracker(model: Self.model)
            #expect(ride.fixes.allSatisfy { tracker.process($0.location).undecided.isEmpty })
        }
    }
}
