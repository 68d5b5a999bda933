import Foundation
import Testing
import TrainTrackerCommands
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerTestSupport

@testable import TrainTrackerLab

/// A small fixed set of simulated rides from the named scenarios: the published algorithm
/// must score at least what it scored when this test was written, so a regression in the
/// tracker (or a change to the simulator that makes the cases easier to game) shows up.
@Suite(.tags(.sharedData)) struct AccuracyRegressionTests {
    static let tokyo = Result { () throws(ImportError) in try MiniTokyo3DImporter.load(path: SharedPaths.miniTokyo3D) }
    static let caltrain = Result { () throws(ImportError) in try GTFSImporter.load(path: SharedPaths.caltrain) }

    func score(_ dataset: TransitDataset, scenarios: [String], seed: UInt64, algorithm: TrackingAlgorithmName = .eki)
        -> AlgorithmScore
    {
        let generator = CaseGenerator(dataset: dataset)
        let model = TrackerModel(dataset: algorithm.usesTimetables ? dataset : TransitDataset(network: dataset.network))
        let filters = Scenario.all.filter { scenarios.contains($0.name) }.map(\.filter)
        let cases = filters.enumerated().flatMap { index, filter in
            generator.cases(count: 3, seed: seed &+ UInt64(index), filter: filter)
        }
        #expect(cases.count == 3 * scenarios.count)
        let scores = cases.map {
            Evaluator().score(fixes: $0.fixes, truth: $0.truth, tracker: algorithm.makeTracker(model: model))
        }
        return AlgorithmScore(algorithm: algorithm.rawValue, scores: scores)
    }

    @Test func ekiOnTokyoScenariosKeepsItsAccuracy() throws {
        let summary = score(
            try Self.tokyo.get(), scenarios: ["toyoko-meguro", "keihintohoku-tokaido", "yamanote-loop", "express-local"], seed: 7)
        #expect(summary.railwayAccuracy >= Baseline.tokyoRailway)
        #expect(summary.directionAccuracy >= Baseline.tokyoDirection)
        #expect(summary.focusAccuracy >= Baseline.tokyoFocus)
        #expect(summary.lockedShare >= Baseline.tokyoLocked)
    }

    @Test func theDefaultAlgorithmOnTokyoScenariosKeepsItsAccuracy() throws {
        let summary = score(
            try Self.tokyo.get(), scenarios: ["toyoko-meguro", "keihintohoku-tokaido", "yamanote-loop", "express-local"], seed: 7,
            algorithm: .railway)
        #expect(summary.railwayAccuracy >= Baseline.defaultTokyoRailway)
        #expect(summary.focusAccuracy >= Baseline.defaultTokyoFocus)
        #expect(summary.nextStopAccuracy >= Baseline.defaultTokyoNextStop)
        #expect(summary.lockedShare >= Baseline.defaultTokyoLocked)
    }

    /// Keihin-Tohoku locals beside the Yamanote loop from Shinagawa to Tabata call where it calls:
    /// the two are never told apart there, and a Tokaido train leaves the Yamanote at Shinagawa.
    @Test func theKeihinTohokuIsNeverToldFromTheYamanoteWhereTheyRunSideBySide() throws {
        let dataset = try Self.tokyo.get()
        let side = [
            "Shinagawa", "TakanawaGateway", "Tamachi", "Hamamatsucho", "Shimbashi", "Yurakucho", "Tokyo", "Kanda",
            "Akihabara", "Okachimachi", "Ueno", "Uguisudani", "Nippori", "NishiNippori", "Tabata",
        ]
        let through = Set(side.map { "JR-East.KeihinTohokuNegishi.\($0)" })
        let filter = RideFilter(
            railways: ["JR-East.KeihinTohokuNegishi"], trainTypes: ["JR-East.Local"], throughStations: through, stops: 3...5)
        let rides = CaseGenerator(dataset: dataset).cases(count: 12, seed: 7474, filter: filter).filter { ride in
            ride.truth.passages?.allSatisfy { through.contains($0.station) } == true
        }
        try #require(!rides.isEmpty)
        for ride in rides {
            #expect(ride.truth.telling?.untold.contains("JR-East.Yamanote/JR-East.Local") == true, "\(ride.sessionID)")
        }
        let tokaido = RideFilter(
            railways: ["JR-East.Tokaido"], throughStations: ["JR-East.Tokaido.Shimbashi"], stops: 3...4)
        let south = CaseGenerator(dataset: dataset).cases(count: 6, seed: 7474, filter: tokaido).filter {
            $0.truth.stops.first == "JR-East.Tokaido.Shimbashi" && $0.truth.directionName == "Outbound"
        }
        try #require(!south.isEmpty)
        for ride in south {
            #expect(ride.truth.telling?.partings?["JR-East.Yamanote/JR-East.Local"] == "JR-East.Tokaido.Shinagawa")
        }
    }

    @Test func aRiderWhoChangesTrainsIsLetGoWithinAMinuteOfTheNewDeparture() throws {
        let dataset = try Self.tokyo.get()
        let model = TrackerModel(dataset: dataset)
        let filter = try #require(Scenario.all.first { $0.name == "transfer" }).filter
        let cases = CaseGenerator(dataset: dataset).cases(count: 5, seed: 7, filter: filter)
        #expect(cases.count == 5)
        let scores = cases.map { Evaluator().score(fixes: $0.fixes, truth: $0.truth, tracker: RailwayTracker(model: model)) }
        let summary = AlgorithmScore(algorithm: "default", scores: scores)
        #expect(summary.railwayAccuracy >= Baseline.defaultTransferRailway)
        #expect(summary.lockedShare == 1)
        for ride in cases {
            let transfer = try #require(ride.truth.transfer)
            let firstDirection = try #require(ride.truth.fixes.first?.directionName)
            var tracker = RailwayTracker(model: model)
            var lastOnOldTrain: Timestamp?
            for fix in ride.fixes {
                let best = tracker.process(fix.location).best
                if best?.railwayID == transfer.fromRailwayID, best?.directionName == firstDirection {
                    lastOnOldTrain = fix.location.timestamp
                }
            }
            let letGo = try #require(lastOnOldTrain).secondsSince1970 - transfer.secondDeparture
            #expect(letGo <= 60, "\(ride.sessionID) still on the old train \(letGo) s after the new one left")
        }
    }

    /// The two rides of 700 (seeds 2026 and 53) that once never locked: a change onto an
    /// underground line whose train comes out beside a surface line, where the ride ends a
    /// minute or two later. The walk to the platform must not count as a stop away from the
    /// station, and the surface line must answer for the silence before it.
    @Test(arguments: [(UInt64(2026), "transfer-006-JR-East.Yamanote.733G"), (53, "transfer-009-Keio.Keio.712")])
    func aChangeOntoASubwayThatComesOutBesideASurfaceLineLocks(seed: UInt64, ride: String) throws {
        let dataset = try Self.tokyo.get()
        let index = try #require(Scenario.all.firstIndex { $0.name == "transfer" })
        // The cases `traintracker simulate --scenario all --seed <seed>` writes for the scenario.
        let cases = CaseGenerator(dataset: dataset).cases(
            count: 10, seed: seed &+ UInt64(index) &* 7919, filter: Scenario.all[index].filter)
        let found = try #require(cases.first { $0.sessionID.hasPrefix(ride) }, "the simulator no longer makes \(ride)")
        let score = Evaluator().score(
            fixes: found.fixes, truth: found.truth, tracker: RailwayTracker(model: TrackerModel(dataset: dataset)))
        #expect(score.locked, "\(found.sessionID): railway \(score.railwayCorrect) of \(score.scoredFixes)")
    }

    @Test func aLimitedExpressIsRecognisedAndItsNextStopKnown() throws {
        // Limited expresses run in many small variants; each must still be told apart from
        // the locals and expresses on the same track.
        let dataset = try Self.tokyo.get()
        let filter = RideFilter(
            name: "limited-express", trainTypes: ["Odakyu.LimitedExpress", "JR-East.LimitedExpress"], stops: 3...6)
        let cases = CaseGenerator(dataset: dataset).cases(count: 4, seed: 7, filter: filter)
        #expect(cases.count == 4)
        let model = TrackerModel(dataset: dataset)
        let scores = cases.map { Evaluator().score(fixes: $0.fixes, truth: $0.truth, tracker: RailwayTracker(model: model)) }
        let summary = AlgorithmScore(algorithm: "default", scores: scores)
        #expect(summary.railwayAccuracy >= 0.95)
        #expect(summary.nextStopAccuracy >= Baseline.defaultLimitedExpressNextStop)
    }

    @Test func theDefaultAlgorithmOnCaltrainKeepsItsAccuracy() throws {
        let summary = score(try Self.caltrain.get(), scenarios: ["caltrain"], seed: 7, algorithm: .railway)
        #expect(summary.railwayAccuracy >= Baseline.defaultCaltrainRailway)
        #expect(summary.nextStopAccuracy >= Baseline.defaultCaltrainNextStop)
    }

    @Test func ekiOnCaltrainKeepsItsAccuracy() throws {
        let summary = score(try Self.caltrain.get(), scenarios: ["caltrain"], seed: 7)
        #expect(summary.railwayAccuracy >= Baseline.caltrainRailway)
        #expect(summary.focusAccuracy >= Baseline.caltrainFocus)
    }

    /// What the published algorithm scored on these cases when the test was written
    /// (Tokyo 84.19 % railway, direction and focus, 11 of 12 locked; Caltrain 61.6 %), floored.
    enum Baseline {
        // Since the simulator dates rides by their service and keeps trains to time (the
        // cases changed): eki 81.33 % on the same twelve rides (84.1 % on the old ones).
        static let tokyoRailway = 0.8132
        static let tokyoDirection = 0.8132
        static let tokyoFocus = 0.8132
        static let tokyoLocked = 0.916
        static let caltrainRailway = 0.616
        static let caltrainFocus = 0.616
        // The default algorithm: Tokyo 96.26 % railway, 96.25 % focus on the new cases (the
        // old: 96.38 % railway, 96.27 % focus, 96.19 % next stop, 11 of 12 locked); four
        // limited expresses 98.6 % next stop (51.3 % before patterns were merged by the
        // stretch their trains run); five changes of trains 96.6 % railway, all locked;
        // Caltrain 100 %. Next stop 95.86 % and 96.27 % (limited expresses) since the answer
        // names no stop while the services still possible stop next at different stations
        // (issue 59; the railway tracker alone, without the trip model): this measure then
        // reads the next station as the stop, wrong for a train that passes it.
        static let defaultTokyoRailway = 0.9626
        static let defaultTokyoFocus = 0.9625
        static let defaultTokyoNextStop = 0.9586
        static let defaultTokyoLocked = 0.916
        static let defaultLimitedExpressNextStop = 0.9626
        static let defaultTransferRailway = 0.966
        static let defaultCaltrainRailway = 1.0
        static let defaultCaltrainNextStop = 1.0
    }
}
