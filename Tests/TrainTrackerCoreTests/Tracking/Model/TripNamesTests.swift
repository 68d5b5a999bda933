import Testing

@testable import TrainTrackerCore

/// Trips' ids and numbers, packed (`TripNames`): every trip named as it was added, every id
/// found where its first trip is, whatever the count of lines and trips.
@Suite struct TripNamesTests {
    static func line(_ index: Int) -> LineDirection { LineDirection(index: index) }

    /// Names `lines` lines of labels, indexed.
    static func names(_ lines: [[TripLabel]]) -> TripNames {
        var names = TripNames()
        for line in lines {
            for label in line { names.append(label) }
            names.endLine()
        }
        return names.indexed()
    }

    @Test func noTripsNameNothing() {
        let names = Self.names([[], []])
        #expect(names.count == 0)
        #expect(names["L1"] == nil)
        #expect(names[line: Self.line(0), trip: 0] == nil)
        #expect(names.count(line: Self.line(1)) == 0)
        #expect(TripNames().indexed()["L1"] == nil)
    }

    @Test func oneTripIsFoundAndNamed() throws {
        let names = Self.names([[TripLabel(id: "L1", number: "101")]])
        let place = try #require(names["L1"])
        #expect(place.line == 0 && place.trip == 0)
        #expect(names[line: Self.line(0), trip: 0] == TripLabel(id: "L1", number: "101"))
        #expect(names[line: Self.line(0), trip: 0]?.name == "101")
        #expect(names[line: Self.line(0), trip: 1] == nil)
        #expect(names[line: Self.line(1), trip: 0] == nil)
        #expect(names[line: Self.line(0), trip: -1] == nil)
        #expect(names["L"] == nil && names["L10"] == nil && names[""] == nil)
    }

    @Test func anEmptyOrRepeatedNumberIsNone() {
        let names = Self.names([
            [TripLabel(id: "A", number: ""), TripLabel(id: "B", number: "B"), TripLabel(id: "", number: nil)]
        ])
        #expect(names[line: Self.line(0), trip: 0] == TripLabel(id: "A", number: nil))
        #expect(names[line: Self.line(0), trip: 1]?.number == nil)
        #expect(names[line: Self.line(0), trip: 2] == TripLabel(id: "", number: nil))
        #expect(names[""].map { [$0.line, $0.trip] } == [0, 2])
    }

    @Test func anIdOnTwoTripsIsFoundAtTheFirst() throws {
        let names = Self.names([
            [TripLabel(id: "X", number: nil)], [TripLabel(id: "Y", number: nil), TripLabel(id: "X", number: "2")],
        ])
        #expect(names["X"].map { [$0.line, $0.trip] } == [0, 0])
        #expect(names["Y"].map { [$0.line, $0.trip] } == [1, 0])
        #expect(names.trip(line: Self.line(1), trip: 1, hasID: "X"))
        #expect(!names.trip(line: Self.line(1), trip: 1, hasID: "Y"))
        #expect(!names.trip(line: Self.line(1), trip: 2, hasID: "X"))
    }

    /// Thousands of trips on many lines (more than the table's first capacity, ids that share
    /// prefixes and differ in one byte, names beyond ASCII): each is found and named as added.
    @Test func manyTripsAreEachFoundWhereTheyWereAdded() throws {
        let lines = (0..<7).map { line in
            (0..<(line * 900)).map { trip in
                TripLabel(id: "JR-East.Yamanote.\(line).\(trip)G.Weekday", number: trip % 3 == 0 ? "快速\(trip)" : nil)
            }
        }
        let names = Self.names(lines)
        #expect(names.count == lines.reduce(0) { $0 + $1.count })
        for (line, labels) in lines.enumerated() {
            #expect(names.count(line: Self.line(line)) == labels.count)
            for (trip, label) in labels.enumerated() {
                let place = try #require(names[label.id])
                #expect(Int(place.line) == line && Int(place.trip) == trip)
                #expect(names[line: Self.line(line), trip: trip] == label)
            }
        }
        #expect(names["JR-East.Yamanote.1.900G.Weekday"] == nil)
    }

    @Test func anEmptyLineBetweenTwoKeepsEveryTripInPlace() {
        let names = Self.names([[TripLabel(id: "A", number: nil)], [], [TripLabel(id: "B", number: nil)]])
        #expect(names["A"].map { [$0.line, $0.trip] } == [0, 0])
        #expect(names["B"].map { [$0.line, $0.trip] } == [2, 0])
        #expect(names.count(line: Self.line(1)) == 0)
        #expect(names[line: Self.line(2), trip: 0]?.id == "B")
    }

    @Test func anIdTwiceOnOneLineIsFoundAtItsFirstTrip() {
        let names = Self.names([[TripLabel(id: "Z", number: "1"), TripLabel(id: "Z", number: "2")]])
        #expect(names["Z"].map { [$0.line, $0.trip] } == [0, 0])
        #expect(names[line: Self.line(0), trip: 1]?.number == "2")
    }

    /// Ids are bytes, as feeds send them: the same letter written two ways is two ids.
    @Test func idsAreComparedAsTheirBytes() {
        let composed = "Caf\u{E9}.1"
        let decomposed = "Cafe\u{301}.1"
        let names = Self.names([[TripLabel(id: composed, number: nil)]])
        #expect(names[composed] != nil)
        #expect(names[decomposed] == nil)
        #expect(names.id(line: Self.line(0), trip: 0) == composed)
    }

    @Test func tripsAppendedAndDiscardedLeaveNoTrace() {
        var names = TripNames()
        names.append(TripLabel(id: "broken", number: nil))
        names.discardLine()
        names.append(TripLabel(id: "A", number: nil))
        names.endLine()
        let indexed = names.indexed()
        #expect(indexed.count == 1)
        #expect(indexed["broken"] == nil)
        #expect(indexed["A"].map { [$0.line, $0.trip] } == [0, 0])
    }
}
