import Testing

@testable import TrainTrackerCore

/// What a stream of fixes costs.
@Suite struct LocationPowerTests {
    let power = LocationPowerModel()

    @Test func aFixASecondFromSatellitesIsTheContinuousReceiver() {
        #expect(power.milliwatts(interval: 1, accuracy: 10) == power.continuousSatelliteMilliwatts)
        // Below a second is no dearer: the receiver is already on.
        #expect(power.milliwatts(interval: 0.2, accuracy: 10) == power.continuousSatelliteMilliwatts)
    }

    @Test func sparserAndCoarserFixesCostLess() {
        let intervals: [Seconds] = [1, 2, 5, 10, 30, 60]
        for source in [10.0, 100, 1_000] {
            let costs = intervals.map { power.milliwatts(interval: $0, accuracy: source) }
            #expect(zip(costs, costs.dropFirst()).allSatisfy { $0 >= $1 }, "\(source) m: \(costs)")
            #expect(costs.allSatisfy { $0 > power.idleMilliwatts }, "never below the idle phone")
        }
        for interval in intervals.dropFirst() {
            let satellites = power.milliwatts(interval: interval, accuracy: 10)
            let network = power.milliwatts(interval: interval, accuracy: 100)
            let cell = power.milliwatts(interval: interval, accuracy: 1_000)
            #expect(satellites > network && network > cell)
        }
        // A satellite fix every 10 s: the idle phone and one 200 mJ fix.
        #expect(abs(power.milliwatts(interval: 10, accuracy: 10) - 23) < 1e-9)
    }

    @Test func theAccuracyAskedForPicksTheSource() {
        #expect(power.source(for: 5) == .satellites && power.source(for: 30) == .satellites)
        #expect(power.source(for: 31) == .network && power.source(for: 300) == .network)
        #expect(power.source(for: 301) == .cell && power.source(for: 3_000) == .cell)
    }
}
