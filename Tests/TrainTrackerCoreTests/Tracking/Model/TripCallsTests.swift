import Testing

@testable import TrainTrackerCore

/// A line's calls in four bytes each where they fit, read back exactly either way.
@Suite struct TripCallsTests {
    static func isPacked(_ storage: CallStorage) -> Bool {
        if case .packed = storage { return true }
        return false
    }

    static func readBack(_ storage: CallStorage, count: Int) -> [TripCall] {
        (0..<count).map { storage[$0] }
    }

    static func same(_ a: [TripCall], _ b: [TripCall]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.slot == $1.slot && $0.time.bitPattern == $1.time.bitPattern }
    }

    @Test func noCallsIsAnEmptyPackedLine() {
        let storage = CallStorage([TripCall]())
        #expect(Self.isPacked(storage))
    }

    @Test func wholeSecondsAndSlotsInRangeArePackedAndReadBackExactly() {
        let largestSlot = Int32(1 << CallStorage.slotBits - 1)
        let latest = Float(1 << CallStorage.timeBits - 1)
        let calls: [TripCall] = [(0, 0), (1, 18_000), (2, 18_090), (largestSlot, 172_799), (7, latest)]
        let storage = CallStorage(calls)
        #expect(Self.isPacked(storage))
        #expect(Self.same(Self.readBack(storage, count: calls.count), calls))
    }

    @Test(arguments: [
        (Int32(3), Float(18_000.5)), (Int32(1 << 14), Float(100)), (Int32(-1), Float(100)),
        (Int32(3), Float(1 << 18)), (Int32(3), Float(-60)), (Int32(3), Float.nan),
    ])
    func aLineWithOneCallThatDoesNotFitKeepsEveryCallAsItIs(slot: Int32, time: Float) {
        let calls: [TripCall] = [(0, 18_000), (slot, time), (2, 18_120)]
        let storage = CallStorage(calls)
        #expect(!Self.isPacked(storage))
        #expect(Self.same(Self.readBack(storage, count: calls.count), calls))
    }

    @Test func aTripReadsItsOwnWindowOfItsLinesCalls() {
        let storage = CallStorage([(0, 100), (1, 160), (0, 400), (1, 460), (2, 520)] as [TripCall])
        let second = TripCalls(storage, start: 2, count: 3)
        #expect(second.count == 3)
        #expect(second.map(\.slot) == [0, 1, 2])
        #expect(second.map(\.time) == [400, 460, 520])
    }
}
