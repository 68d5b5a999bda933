import Testing

@testable import TrainTrackerCore

/// Service patterns from a timetable's trains: which stations a kind of train stops at.
@Suite struct ServicePatternTests {
    typealias Train = (stops: [Bool], runs: [Bool], trainTypeID: String?)

    /// A train from a string: "S" stops, "p" passes, "." not on its run.
    func train(_ layout: String, _ type: String? = "Express") -> Train {
        (layout.map { $0 == "S" }, layout.map { $0 != "." }, type)
    }

    @Test func noTrainsGiveNoPatterns() {
        let (patterns, patternOf) = ServicePattern.merging([], limit: 12)
        #expect(patterns.isEmpty)
        #expect(patternOf.isEmpty)
    }

    @Test func oneTrainIsOnePattern() {
        let (patterns, patternOf) = ServicePattern.merging([train("SpSpS")], limit: 12)
        #expect(patterns.count == 1)
        #expect(patterns[0].stops == [true, false, true, false, true])
        #expect(patterns[0].trains == 1)
        #expect(patternOf == [0])
    }

    @Test func aShortWorkingOfAnExpressIsTheExpress() {
        // The same express from end to end, and a working that starts at the third station.
        let (patterns, patternOf) = ServicePattern.merging(
            [train("SpSpSpS"), train("SpSpSpS"), train("..SpSpS")], limit: 12)
        #expect(patterns.count == 1)
        #expect(patterns[0].trains == 3)
        #expect(patternOf == [0, 0, 0])
    }

    @Test func aShortWorkingOnlyCoversItsOwnStretch() {
        // Only short workings: beyond them, the pattern neither stops nor passes.
        let (patterns, _) = ServicePattern.merging([train("..SpS.."), train("..SpS..")], limit: 12)
        #expect(patterns.count == 1)
        #expect(patterns[0].runs == [false, false, true, true, true, false, false])
    }

    @Test func trainsThatStopDifferentlyOrAreOfAnotherTypeStayApart() {
        let (patterns, patternOf) = ServicePattern.merging(
            [train("SpSpS"), train("SSSSS", "Local"), train("SSSpS"), train("SpSpS", "Rapid")], limit: 12)
        #expect(patterns.count == 4)
        #expect(Set(patternOf).count == 4)
    }

    @Test func beyondTheLimitTheRarestJoinTheirNearest() {
        // Busy: an all-stations local and an express; rare: a local that skips one station.
        let trains =
            Array(repeating: train("SSSSSS", "Local"), count: 5) + Array(repeating: train("SpSpSS"), count: 3)
            + [train("SSSpSS", "Local")]
        let (patterns, patternOf) = ServicePattern.merging(trains, limit: 2)
        #expect(patterns.count == 2)
        #expect(patterns.map(\.trains).reduce(0, +) == trains.count, "every train is counted somewhere")
        let local = patternOf[0]
        #expect(patternOf.last == local, "the rare local joins the local, which differs at one station")
        #expect(patterns[local].stops == [true, true, true, true, true, true])
    }
}
