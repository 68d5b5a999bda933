import Testing

@testable import TrainTrackerCore

/// A railway in one direction, the key of hypotheses and of the model's per-line tables.
@Suite struct LineDirectionTests {
    @Test(arguments: [(0, TravelDirection.ascending), (0, .descending), (1, .ascending), (178, .descending)])
    func aLineKnowsItsRailwayAndDirectionAndItsReverse(railway: Int, direction: TravelDirection) {
        let line = LineDirection(railway: railway, direction: direction)
        #expect(line.railway == railway)
        #expect(line.direction == direction)
        #expect(line.reversed.railway == railway)
        #expect(line.reversed.direction == direction.reversed)
        #expect(line.reversed.reversed == line)
    }

    @Test func everyLineOfANetworkOnceInIndexOrder() {
        let lines = LineDirection.all(railwayCount: 3)
        #expect(lines.count == 6)
        #expect(lines.map(\.index) == Array(0..<6))
        #expect(lines == lines.sorted())
        #expect(Set(lines.map { "\($0.railway)\($0.direction)" }).count == 6)
        var table = Array(repeating: 0, count: lines.count)
        table[line: LineDirection(railway: 2, direction: .descending)] = 7
        #expect(table == [0, 0, 0, 0, 0, 7])
        #expect(LineDirection.all(railwayCount: 0).isEmpty)
    }
}
