import Testing

@testable import TrainTrackerCore

/// The progress and silence evidence, and the phone's cadence that silences are judged by.
@Suite struct ProgressAndSilenceEvidenceTests {
    @Test(arguments: [
        // (what, metres of progress, the fixes' sigmas, nats)
        ("forward", 300.0, 10.0, 0.0),
        ("standing", 0.0, 10.0, 0.0),
        ("backward within a sigma of the two fixes", -14.0, 10.0, 0.0),
        ("three sigmas backward: the first is free", -3 * 200.0.squareRoot(), 10.0, -2.0),
        ("far backward: capped", -5_000.0, 10.0, -4.0),
        ("as far backward, with poor fixes", -3 * 200.0.squareRoot(), 50.0, 0.0),
    ])
    func backwardProgressCosts(_ what: String, progress: Meters, sigma: Meters, expected: Double) {
        let nats = ProgressEvidence().nats(progress: progress, sigma: sigma, anchorSigma: sigma)
        #expect(abs(nats - expected) < 1e-9, "\(what): \(nats)")
    }

    @Test(arguments: [
        // (the phone's usual wait, the shortest silence)
        (1.0, 30.0), (5.0, 30.0), (10.0, 40.0), (45.0, 180.0),
    ])
    func aSilenceIsLongAgainstThePhonesCadence(cadence: Seconds, threshold: Seconds) {
        #expect(SilenceEvidence().threshold(cadence: cadence) == threshold)
    }

    @Test(arguments: [
        // (what, silence, share of it underground, nats)
        ("two minutes above ground", 120.0, 0.0, -2.0),
        ("two minutes, half underground", 120.0, 0.5, -1.0),
        ("two minutes underground", 120.0, 1.0, 0.0),
        ("ten minutes above ground: capped", 600.0, 0.0, -4.0),
    ])
    func surfaceRunningInASilenceCosts(_ what: String, duration: Seconds, underground: Double, expected: Double) {
        let nats = SilenceEvidence().nats(duration: duration, undergroundShare: underground)
        #expect(abs(nats - expected) < 1e-9, "\(what)")
    }

    @Test func theCadenceFollowsThePhoneAndShrugsOffOneLongGap() {
        var cadence = PhoneCadence()
        for _ in 0..<20 { cadence.add(30) }
        #expect(abs(cadence.seconds - 30) < 1e-6)
        cadence.add(3_600)
        // An hour counts as five minutes, and a tenth of it.
        #expect(cadence.seconds < 40)
        #expect(cadence.seconds > 30)
        var oneHertz = PhoneCadence()
        for _ in 0..<20 { oneHertz.add(1) }
        #expect(abs(oneHertz.seconds - 1) < 1e-9)
    }
}
