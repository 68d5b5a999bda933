import Testing

@testable import TrainTrackerCore

/// How the arrival model carries a train's delay now to the stops ahead.
struct ArrivalModelTests {
    static let model = ArrivalModel(
        offset: -10, departureFloor: 120, lossPerStop: 10, lossPerMinute: -2, earlySpread: 20, lateSpread: 40)

    @Test func theNextStopTakesTheDelayNowWithTheOffsetAndTheRunsLoss() {
        // An early train is not held before its next stop: no departure on the way.
        #expect(Self.model.delay(at: 0, from: 30, minutesAhead: 3) == -10 + 30 - 6)
        #expect(Self.model.delay(at: 0, from: 300, minutesAhead: 0) == 290)
    }

    @Test func anEarlyTrainWaitsAtTheStopsOnTheWayAndEachStopCostsItsLoss() {
        // 30 s late now: raised to the floor at the next stop's departure, then 2 stops' loss.
        #expect(Self.model.delay(at: 2, from: 30, minutesAhead: 5) == -10 + 120 + 20 - 10)
        // A train later than the floor keeps its delay.
        #expect(Self.model.delay(at: 2, from: 400, minutesAhead: 5) == -10 + 400 + 20 - 10)
        var none = Self.model
        none.departureFloor = nil
        #expect(none.delay(at: 2, from: 30, minutesAhead: 5) == -10 + 30 + 20 - 10)
    }

    @Test func theIntervalHoldsTheCentreAndWidensTheFurtherAhead() {
        var previous: Seconds = 0
        for minutes in [0.0, 1, 3, 6, 10, 15, 30] {
            let predicted = Self.model.predict(at: 1, minutesAhead: minutes, low: 150, median: 180, high: 240)
            #expect(predicted.low < predicted.centre && predicted.centre < predicted.high)
            #expect(predicted.high - predicted.low > previous)
            previous = predicted.high - predicted.low
        }
        // The late side is the wider, as its spread is.
        let predicted = Self.model.predict(at: 1, minutesAhead: 8, low: 180, median: 180, high: 180)
        #expect(predicted.high - predicted.centre == 40 * 3)
        #expect(predicted.centre - predicted.low == 20 * 3)
    }

    @Test func withoutSpreadsTheIntervalIsTheBeliefsPercentilesCarriedAhead() {
        var model = Self.model
        model.earlySpread = 0
        model.lateSpread = 0
        let predicted = model.predict(at: 3, minutesAhead: 7, low: 60, median: 200, high: 500)
        #expect(predicted.low == model.delay(at: 3, from: 60, minutesAhead: 7))
        #expect(predicted.centre == model.delay(at: 3, from: 200, minutesAhead: 7))
        #expect(predicted.high == model.delay(at: 3, from: 500, minutesAhead: 7))
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func aModelWithAConstantThatIsNotANumberIsRefused(_ bad: Double) {
        var model = Self.model
        model.offset = bad
        #expect(model.sanitised == nil)
        model = Self.model
        model.departureFloor = bad
        #expect(model.sanitised == nil)
        model = Self.model
        model.lateSpread = bad
        #expect(model.sanitised == nil)
    }

    @Test func aModelOutOfRangeIsBroughtWithinIt() throws {
        let wild = ArrivalModel(
            offset: 1e9, departureFloor: -1e9, lossPerStop: 1e6, lossPerMinute: -1e6, earlySpread: -5, lateSpread: 1e12)
        let kept = try #require(wild.sanitised)
        #expect(kept.offset == ArrivalModel.widest && kept.departureFloor == -ArrivalModel.widest)
        #expect(kept.lossPerStop == ArrivalModel.steepest && kept.lossPerMinute == -ArrivalModel.steepest)
        #expect(kept.earlySpread == 0 && kept.lateSpread == ArrivalModel.widest)
        #expect(Self.model.sanitised == Self.model)
    }
}
