import Testing

@testable import TrainTrackerCore
@testable import TrainTrackerLab

/// What the recorder's modes deliver on a ride, and how a budget is scored.
@Suite struct ModeDeliveryTests {
    static let start = Timestamp(secondsSince1970: 1_758_500_000)
    static let origin = LocalProjection(origin: Coordinate(latitude: 35.6, longitude: 139.7))

    /// A train eastwards: 30 s standing, then 25 m/s for 10 minutes; a fix every `interval` s.
    static func stream(interval: Int, prefix: String) -> [RecordedFix] {
        stride(from: 0, through: 660, by: interval).map { second in
            let east = second <= 30 ? 0 : Double(second - 30) * 25
            let location = Location(
                coordinate: origin.coordinate(at: PlanarVector(east: east, north: 0)), timestamp: start.adding(Double(second)),
                horizontalAccuracy: 8)
            return RecordedFix(id: "\(prefix)\(second)", location: location)
        }
    }

    @Test func onATrainTheFixesComeAsTheModeAsks() throws {
        var settings = TrackingModeSettings()
        settings.fixInterval[.inFastVehicle] = 20
        let streams: [TrackingMode: [RecordedFix]] = [
            .activelyMoving: Self.stream(interval: 1, prefix: "a"), .inFastVehicle: Self.stream(interval: 20, prefix: "f"),
            .stopped: Self.stream(interval: 10, prefix: "s"), .notMoving: Self.stream(interval: 60, prefix: "n"),
        ]
        let (fixes, transitions) = ModeDelivery.splice(streams: streams, settings: settings)
        let fast = try #require(transitions.first { $0.to == .inFastVehicle })
        #expect(transitions.count == 1)
        // Before the change, a fix a second from the actively-moving request; after, every 20 s.
        let before = fixes.filter { $0.location.timestamp <= fast.timestamp }
        let after = fixes.filter { $0.location.timestamp > fast.timestamp }
        #expect(before.allSatisfy { $0.id.hasPrefix("a") } && after.allSatisfy { $0.id.hasPrefix("f") })
        #expect(before.count == Int(fast.timestamp.seconds(since: Self.start)) + 1)
        // Never two fixes at one time, not even at the change.
        #expect(zip(fixes, fixes.dropFirst()).allSatisfy { $0.location.timestamp < $1.location.timestamp })
        let gaps = zip(after, after.dropFirst()).map { $1.location.timestamp.seconds(since: $0.location.timestamp) }
        #expect(!gaps.isEmpty && gaps.allSatisfy { $0 == 20 })
    }

    @Test func theNetworkAndCellTowersGiveCoarseFixesWithoutMotion() {
        let power = LocationPowerModel()
        let satellites = ModeDelivery.phone(interval: 10, accuracy: 10, power: power)
        #expect(satellites.interval == 10 && satellites.reportsMotion && satellites.baseAccuracy == PhoneModel().baseAccuracy)
        let network = ModeDelivery.phone(interval: 30, accuracy: 100, power: power)
        #expect(network.interval == 30 && !network.reportsMotion && network.baseAccuracy == ModeDelivery.networkAccuracy)
        let cell = ModeDelivery.phone(interval: 0.5, accuracy: 1_000, power: power)
        #expect(cell.interval == 1 && !cell.reportsMotion && cell.baseAccuracy == ModeDelivery.cellAccuracy)
    }

    /// Answers "next stop B" at each fix, whatever it is fed.
    struct Fixed: TrackingAlgorithm {
        var nextStop: String
        mutating func process(_ location: Location) -> TrackingResult {
            TrackingResult(candidates: [
                TrackingCandidate(
                    railwayID: "R", direction: .ascending, directionName: "Outbound", destinationStationID: nil,
                    focusStationID: nextStop,
                    phase: .next, laterStationIDs: [], score: 1, nextStopID: nextStop)
            ])
        }
    }

    /// The truth: a ride on R whose next stop is B for 300 s, then C.
    static let truth = CaseTruth(
        sessionID: "s", scenario: nil, railwayID: "R", directionName: "Outbound", trainID: "T", trainTypeID: nil,
        stops: ["A", "B", "C"],
        departure: start.secondsSince1970, arrival: start.secondsSince1970 + 600,
        fixes: (0...600).map { second in
            TruthFix(
                locationID: "t\(second)", time: start.secondsSince1970 + Double(second), alongTrack: Double(second) * 20,
                speed: 20,
                station: second < 300 ? "B" : "C", phase: .next, nextStop: second < 300 ? "B" : "C", nextStopPhase: .next)
        })

    @Test func aStaleAnswerCountsWrongOnceTheNextStopHasChanged() {
        // One fix at the start: the answer "B" is held to the end.
        let one = [RecordedFix(id: "x", location: Self.stream(interval: 1, prefix: "x")[0].location)]
        let held = BudgetStudy.heldScore(one, truth: Self.truth, tracker: Fixed(nextStop: "B"))
        // Scored from 90 s after departure: 511 seconds; the railway is right throughout, the next
        // stop until 320 s (B is still within 20 s of the truth).
        #expect(held.scored == 511 && held.railway == 511)
        #expect(held.nextStop == 320 - 90)
        // No fix at all: no answer, nothing right.
        let none = BudgetStudy.heldScore([], truth: Self.truth, tracker: Fixed(nextStop: "B"))
        #expect(none.scored == 511 && none.railway == 0 && none.nextStop == 0)
    }

    @Test func theCurveTakesTheBestWithinEachBudgetAndTheRecommendationTheCheapestAboveTarget() {
        func point(_ energy: Double, _ railway: Double, _ nextStop: Double) -> BudgetPoint {
            BudgetPoint(
                choice: BudgetChoice(accuracy: 10, interval: energy, fastSpeed: 20), rides: 1, energyShare: energy / 100,
                fastVehicleShare: 0.5, fixesPerMinute: 1, railwayAccuracy: railway, nextStopAccuracy: nextStop)
        }
        let points = [point(100, 0.99, 0.99), point(40, 0.99, 0.95), point(20, 0.97, 0.9), point(8, 0.9, 0.8)]
        let curve = BudgetStudy.curve(points, budgets: [1, 0.5, 0.25, 0.1, 0.05])
        #expect(curve.map { $0.point?.energyShare } == [1, 0.4, 0.2, 0.08, nil])
        #expect(BudgetStudy.cheapest(points, railwayAtLeast: 0.97)?.energyShare == 0.2)
        #expect(BudgetStudy.cheapest(points, railwayAtLeast: 0.995) == nil)
    }
}
