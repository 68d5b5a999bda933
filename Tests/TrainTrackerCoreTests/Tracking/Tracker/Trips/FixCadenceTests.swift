import Testing

@testable import TrainTrackerCore

/// How far apart a ride's fixes come, and how much the stops read off them count.
@Suite struct FixCadenceTests {
    static func cadence(gaps: [Seconds]) -> FixCadence {
        var cadence = FixCadence()
        var time = Timestamp(secondsSince1970: 1_700_000_000)
        cadence.take(time)
        for gap in gaps {
            time = time.adding(gap)
            cadence.take(time)
        }
        return cadence
    }

    @Test func noGapBeforeTheSecondFix() {
        #expect(Self.cadence(gaps: []).interval == 0)
        #expect(Self.cadence(gaps: [7]).interval == 7)
    }

    @Test func aPhoneAtOneHertzAndPositionsAMinuteApart() {
        #expect(abs(Self.cadence(gaps: Array(repeating: 1, count: 30)).interval - 1) < 1e-9)
        #expect(abs(Self.cadence(gaps: Array(repeating: 60, count: 10)).interval - 60) < 1e-9)
    }

    /// A tunnel's silence moves the cadence for half a minute at 1 Hz; an hour's counts as ten minutes.
    @Test func oneLongGapFadesWithinHalfAMinute() {
        let tunnel = Self.cadence(gaps: Array(repeating: 1, count: 20) + [3_600])
        #expect(abs(tunnel.interval - (1 + 0.2 * (600 - 1))) < 1e-9)
        let after = Self.cadence(gaps: Array(repeating: 1, count: 20) + [3_600] + Array(repeating: 1, count: 30))
        #expect(after.interval < 2)
    }

    /// A fix dated before the last (a phone's clock stepping back) is no gap, and the next
    /// gap is measured from the latest fix.
    @Test func aFixDatedBackIsNoGap() {
        var cadence = FixCadence()
        let start = Timestamp(secondsSince1970: 1_700_000_000)
        cadence.take(start)
        cadence.take(start.adding(10))
        cadence.take(start.adding(5))
        #expect(cadence.interval == 10, "no gap taken")
        cadence.take(start.adding(7))
        #expect(abs(cadence.interval - (10 + 0.2 * (2 - 10))) < 1e-9, "the gap from the fix dated back")
    }

    /// One fix dated a day ahead (a phone's clock in the wrong unit) moves the cadence once, by
    /// at most ten minutes; the fixes after it, dated right, are no gap until they pass it, and
    /// a 1 Hz phone's cadence comes back: stops read off it count again.
    @Test func aFixDatedFarAheadDoesNotStopTheCadence() {
        var cadence = FixCadence()
        let start = Timestamp(secondsSince1970: 1_700_000_000)
        for second in 0..<20 { cadence.take(start.adding(Double(second))) }
        cadence.take(start.adding(86_400))
        #expect(cadence.interval <= 1 + 0.2 * 600)
        for second in 21..<80 { cadence.take(start.adding(Double(second))) }
        #expect(cadence.interval < 2)
        #expect(TripModelParameters().stopsTrust(interval: cadence.interval) > 0.95)
        #expect(TripModelParameters().stopsTrust(interval: .nan) == 0)
    }

    /// Stops read off a 1 Hz phone count almost whole, off Caltrain's positions a minute apart
    /// hardly at all; a parameter file's half interval that is not a number falls back to 10 s.
    @Test func stopsCountByCadence() {
        let parameters = TripModelParameters()
        #expect(parameters.lineStopsWeight == 1)
        #expect(parameters.stopsTrust(interval: 1) > 0.99)
        #expect(abs(parameters.stopsTrust(interval: parameters.lineStopsHalfInterval) - 0.5) < 1e-9)
        #expect(parameters.stopsTrust(interval: 60) < 0.03)
        #expect(parameters.stopsTrust(interval: -5) == 1)
        var broken = parameters
        broken.lineStopsHalfInterval = .nan
        #expect(broken.sanitised.lineStopsHalfInterval == 10)
    }
}
