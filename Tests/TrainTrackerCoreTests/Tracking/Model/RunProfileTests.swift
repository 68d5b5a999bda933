import Testing
import TrainTrackerCore

/// How a followed train spends its run time between two stops, for arrival times.
@Suite struct RunProfileTests {
    @Test func aRunStartsSlowRunsFastAndBrakesIntoTheStop() {
        let profile = RunProfile()
        let (stretch, duration): (Meters, Seconds) = (2_000, 150)
        #expect(profile.elapsed(into: 0, stretch: stretch, duration: duration) == 0)
        #expect(abs(profile.elapsed(into: stretch, stretch: stretch, duration: duration) - duration) < 1e-9)
        // Equal rates either way: halfway at half the time.
        #expect(abs(profile.elapsed(into: 1_000, stretch: stretch, duration: duration) - 75) < 1e-9)
        // Leaving, the first 100 m take longer than an even pace's 7.5 s; braking, the last
        // 100 m too.
        #expect(abs(profile.elapsed(into: 100, stretch: stretch, duration: duration) - 20) < 1e-9)
        #expect(duration - profile.elapsed(into: 1_900, stretch: stretch, duration: duration) > 7.5)
    }

    @Test func timeOnlyGrowsAlongTheRun() {
        let profile = RunProfile()
        let times = stride(from: 0.0, through: 3_000, by: 50).map { profile.elapsed(into: $0, stretch: 3_000, duration: 200) }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    }

    /// No run at these rates fits (too short a time for the distance), no rates, or no
    /// stretch: an even pace, clamped to the stretch.
    @Test(arguments: [(0.5, 0.5, 60.0), (0.0, 0.5, 150.0), (0.5, 0.0, 150.0)])
    func anEvenPaceWhereNoRunFits(acceleration: Double, braking: Double, duration: Seconds) {
        var profile = RunProfile()
        profile.acceleration = acceleration
        profile.braking = braking
        #expect(profile.elapsed(into: 500, stretch: 2_000, duration: duration) == duration / 4)
        #expect(profile.elapsed(into: 2_500, stretch: 2_000, duration: duration) == duration)
        #expect(profile.elapsed(into: -10, stretch: 2_000, duration: duration) == 0)
        #expect(profile.elapsed(into: 10, stretch: 0, duration: duration) == 0)
    }
}
