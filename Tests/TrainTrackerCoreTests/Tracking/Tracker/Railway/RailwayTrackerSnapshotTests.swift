import Foundation
import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore
@testable import TrainTrackerLab

/// An app suspended mid-ride saves the tracker's snapshot and restores it when woken: the
/// restored tracker answers exactly as the one that was never suspended. A snapshot read from
/// disk is outside input: one that does not fit the network is refused, never a trap.
@Suite(.tags(.sharedData)) struct RailwayTrackerSnapshotTests {
    /// JSON with names for the infinite scores a tracker may hold.
    static func encoded(_ snapshot: RailwayTracker.Snapshot) throws -> Data {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try encoder.encode(snapshot)
    }

    static func decoded(_ data: Data) throws -> RailwayTracker.Snapshot {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try decoder.decode(RailwayTracker.Snapshot.self, from: data)
    }

    /// Tracks `fixes`, suspending at each of `suspensions` (indices): saved, decoded, restored.
    static func expectRestoredTrackersAnswerAlike(_ fixes: [Location], model: TrackerModel, at suspensions: [Int]) throws {
        var uninterrupted = RailwayTracker(model: model)
        var suspended = RailwayTracker(model: model)
        var compared = 0
        for (index, fix) in fixes.enumerated() {
            if suspensions.contains(index) {
                let saved = try encoded(suspended.snapshot())
                suspended = try RailwayTracker(model: model, restoring: decoded(saved))
                // Between fixes too: the estimate a woken app shows before its next fix.
                let later = fix.timestamp.adding(45)
                #expect(suspended.estimate(at: later) == uninterrupted.estimate(at: later))
            }
            let expected = uninterrupted.process(fix)
            #expect(suspended.process(fix) == expected, "fix \(index)")
            if expected.best != nil { compared += 1 }
        }
        #expect(compared > fixes.count / 2)
    }

    @Test func aTimetabledRideSuspendedThreeTimesAnswersAsIfNever() throws {
        let dataset = DemoRides.dataset
        let ride = try #require(CaseGenerator(dataset: dataset).cases(count: 1, seed: 12).first)
        let fixes = ride.fixes.map(\.location)
        try Self.expectRestoredTrackersAnswerAlike(
            fixes, model: TrackerModel(dataset: dataset), at: [1, fixes.count / 3, 2 * fixes.count / 3])
    }

    @Test func aTokyoRideSuspendedOnTheWayAnswersAsIfNever() throws {
        let network = try SharedData.tokyoNetwork()
        let fixes = try JourneySimulator(network: network).journey(
            on: "Tokyu.Toyoko", from: "Tokyu.Toyoko.Shibuya", to: "Tokyu.Toyoko.Kikuna", start: morning)
        try Self.expectRestoredTrackersAnswerAlike(
            fixes, model: TrackerModel(network: network), at: [30, fixes.count / 2, fixes.count - 40])
    }

    /// A tracker on the demo timetable, `fixes` into a timetabled ride (trips followed, stops).
    static func demoTracker(afterFixes fixes: Int) throws -> (model: TrackerModel, tracker: RailwayTracker) {
        let dataset = DemoRides.dataset
        let model = TrackerModel(dataset: dataset)
        let ride = try #require(CaseGenerator(dataset: dataset).cases(count: 1, seed: 12).first)
        var tracker = RailwayTracker(model: model)
        for fix in ride.fixes.prefix(fixes) { _ = tracker.process(fix.location) }
        return (model, tracker)
    }

    /// Snapshots broken one way, and what the error must say.
    @Test(arguments: [
        ("another network", #""stationCounts":["#, #""stationCounts":[99,"#, "taken on another network"),
        ("a line not there", #""line":{"index":"#, #""line":{"index":4000"#, "hypothesis 0: line 4000"),
        ("an edge too many", #""nearestEdges":["#, #""nearestEdges":[123456,"#, "3 nearest edges for 2 railways"),
    ])
    func aSnapshotThatDoesNotFitIsRefused(what: String, find: String, replace: String, problem: String) throws {
        let (model, tracker) = try Self.demoTracker(afterFixes: 120)
        let text = String(decoding: try Self.encoded(tracker.snapshot()), as: UTF8.self)
        #expect(text.contains(find), "\(what): \(find)")
        // (First match only: the first hypothesis, the first railway.)
        let broken = try Self.decoded(Data(text.replacing(find, with: replace, maxReplacements: 1).utf8))
        #expect {
            _ = try RailwayTracker(model: model, restoring: broken)
        } throws: { error in
            (error as? RailwayTracker.SnapshotError)?.problem.hasPrefix(problem) == true
        }
    }

    /// A snapshot of an older form (version 2 kept the hypothesis's fields flat) is refused by
    /// its version, with both versions named, not by the first field the decoder misses.
    @Test func aSnapshotOfAnotherVersionIsRefusedByItsVersion() throws {
        let text = String(decoding: try Self.encoded(Self.demoTracker(afterFixes: 120).tracker.snapshot()), as: UTF8.self)
        let current = #""version":\#(RailwayTracker.Snapshot.currentVersion)"#
        #expect(text.contains(current))
        let older = text.replacing(current, with: #""version":2"#).replacing(#""patterns":"#, with: #""patternWeights":"#)
        #expect {
            _ = try Self.decoded(Data(older.utf8))
        } throws: { error in
            (error as? RailwayTracker.SnapshotError)?.problem
                == "version 2, this build restores \(RailwayTracker.Snapshot.currentVersion)"
        }
    }

    /// Indices a damaged snapshot may hold, each refused with what it is.
    @Test func indicesBeyondTheNetworkAreRefused() throws {
        let (model, tracker) = try Self.demoTracker(afterFixes: 200)
        let snapshot = tracker.snapshot()
        #expect(!snapshot.hypotheses.isEmpty)
        var breakings: [(String, (inout RailwayTracker.Snapshot) -> Void)] = [
            ("railway 0: edge 123456 of", { $0.nearestEdges[0] = 123_456 }),
            ("railway 1: edge -7 of", { $0.nearestEdges[1] = -7 }),
            ("hypothesis 0: 1 stop chances for", { $0.hypotheses[0].patterns.stopChance = [0.5] }),
            (
                "hypothesis 0: station 99 of a railway with",
                { $0.hypotheses[0].stops.pending = [PendingStation(station: 99, position: 0)] }
            ),
            (
                "hypothesis 0: trip 99999 of",
                {
                    $0.hypotheses[0].trains.trips = [
                        TripCandidate(trip: 99_999, logWeight: 0, delay: 0, origin: 0, delayScale: 20)
                    ]
                }
            ),
            ("or twice", { $0.hypotheses.append($0.hypotheses[0]) }),
            (
                "railway 5 in reach",
                {
                    $0.near = [RailwayTracker.Reach(railway: 5, distance: 0, lateral: 0, along: 0, course: 0, underground: false)]
                }
            ),
        ]
        breakings.append(("line 99 of", { $0.shownLine = LineDirection(railway: 49, direction: .descending) }))
        breakings.append(
            (
                "5 wild fixes held",
                {
                    $0.wildFixes = Array(
                        repeating: Location(coordinate: .init(latitude: 1, longitude: 1), timestamp: morning), count: 5)
                }
            ))
        for (problem, breaking) in breakings {
            var broken = snapshot
            breaking(&broken)
            #expect {
                _ = try RailwayTracker(model: model, restoring: broken)
            } throws: { error in
                (error as? RailwayTracker.SnapshotError)?.problem.contains(problem) == true
            }
        }
        // The undamaged one restores.
        _ = try RailwayTracker(model: model, restoring: snapshot)
    }
}
