import Testing

@testable import TrainTrackerCore

/// Where the trip model expects a scheduled train: standing at its calls, running between them.
@Suite struct TripTimelineTests {
    /// Stations every 2 km on a 10 km line, travelled ascending.
    static let positions: [Meters] = [0, 2_000, 4_000, 6_000, 8_000]
    static let walk = TrackWalk(length: 10_000, isLoop: false, sign: 1)

    /// A trip calling at `slots` at `times` (seconds of its day), the last the arrival.
    static func timeline(_ calls: [(Int32, Float)], parameters: TripModelParameters = .init()) -> TripTimeline {
        let trip = ScheduledTrip(pattern: 0, service: 0, departures: Array(calls.dropLast()), arrival: calls.last)
        return TripTimeline(trip: trip, positions: positions, walk: walk, parameters: parameters)
    }

    @Test func aLocalDwellsAtItsCallsAndAnExpressPassesThem() throws {
        var parameters = TripModelParameters()
        parameters.dwellBefore = 30
        parameters.dwellAfter = 20
        let local = Self.timeline([(0, 1_000), (1, 1_180), (2, 1_360)], parameters: parameters)
        let express = Self.timeline([(0, 1_000), (2, 1_300)], parameters: parameters)
        // At the local's published time at station 1, it stands there; the express runs past.
        let standing = try #require(local.place(at: 1_180))
        #expect(standing.progress == 2_000 && standing.speed == 0)
        let passing = try #require(express.place(at: 1_160))
        #expect(passing.speed > 0)
        // Before its first departure a train waits at its origin; after its last arrival it
        // stands at its terminal a while, then leaves service.
        #expect(local.place(at: 900)?.progress == 0)
        #expect(local.place(at: 1_360 + 60)?.progress == 4_000)
        #expect(local.place(at: 1_360 + parameters.terminalStay + 60) == nil)
    }

    @Test func placesOnlyGrowWithTime() {
        let local = Self.timeline([(0, 1_000), (1, 1_180), (2, 1_360), (3, 1_540), (4, 1_720)])
        let places = stride(from: 500.0, through: 2_000, by: 5).compactMap { local.place(at: $0)?.progress }
        #expect(places.count > 250)
        #expect(zip(places, places.dropFirst()).allSatisfy { $0 <= $1 })
    }

    /// The times near a place are those when the train is within reach of it: a dwell's
    /// whole stand at a call, a moment at a place it runs through.
    @Test func theTimesNearAPlaceCoverADwell() throws {
        var parameters = TripModelParameters()
        parameters.dwellBefore = 30
        parameters.dwellAfter = 20
        let local = Self.timeline([(0, 1_000), (1, 1_180), (2, 1_360)], parameters: parameters)
        let atStation = try #require(local.times(near: 2_000, reach: 10))
        #expect(atStation.lowerBound < 1_150 && atStation.upperBound > 1_200)
        let between = try #require(local.times(near: 3_000, reach: 10))
        #expect(between.upperBound - between.lowerBound < 5)
        #expect(local.times(near: 9_000, reach: 10) == nil)
    }

    /// Two calls published at the same minute still take a moment to run between.
    @Test func callsAtTheSameMinuteStillTakeAMoment() throws {
        let hurried = Self.timeline([(0, 1_000), (1, 1_000), (2, 1_060)])
        let times = stride(from: 900.0, through: 1_400, by: 1).compactMap { hurried.place(at: $0)?.progress }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(hurried.times(near: 2_000, reach: 1) != nil)
    }

    @Test func theProfilesInverseUndoesIt() {
        let profile = RunProfile()
        for into in stride(from: 0.0, through: 2_000, by: 100) {
            let time = profile.elapsed(into: into, stretch: 2_000, duration: 150)
            #expect(abs(profile.run(stretch: 2_000, duration: 150).distance(after: time) - into) < 1e-6)
        }
    }

    /// The trip model looks up a trip's place at each cell of its delay grid, times in order,
    /// each search started from the last one's knot: it finds what a search from scratch
    /// finds, in order, in reverse, scrambled and at knots that share a time.
    @Test func aLookUpFromANearbyKnotFindsWhatASearchFindsFromScratch() {
        let hurried = Self.timeline([(0, 1_000), (1, 1_000), (2, 1_060), (3, 1_060), (4, 1_300)])
        // Every knot's own time (where two knots share one, the later knot counts) and the
        // times between.
        let ascending = (Array(stride(from: 800.0, through: 2_400, by: 7.5)) + hurried.times).sorted()
        #expect(zip(hurried.times, hurried.times.dropFirst()).contains { $0 == $1 }, "knots that share a time")
        // A fixed scramble: each time's index times a prime, modulo the count.
        let scrambled = ascending.indices.map { ascending[($0 * 7_919) % ascending.count] }
        for times in [ascending, ascending.reversed(), scrambled] {
            var knot = -1
            for time in times {
                let nearby = hurried.place(at: time, hint: &knot)
                let scratch = hurried.place(at: time)
                #expect(nearby?.progress == scratch?.progress && nearby?.speed == scratch?.speed, "at \(time)")
            }
        }
    }
}
