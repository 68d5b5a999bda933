import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore

/// A late train an operator's feed reports, against an on-time train of another line on the
/// same track that no feed speaks of (a feed that lists only trains off their timetable): the
/// rider's fixes fit both, and the report is what tells them apart.
@Suite struct RailwayTrackerReportedTrainTests {
    /// B's 07:35 train, 25 minutes late, passes every place exactly when A's 08:00 train is due
    /// there (`RailwayTrackerPassageTests`' two lines, a fix every 40 s, no stop ever seen).
    static let lateTrain = "B9"
    static let lateness: Seconds = 1_500

    /// The answers along the ride, the feed at each fix reporting the late train `reported`
    /// seconds late (nil: no feed).
    func ride(reported: Seconds?) throws -> [String?] {
        let model = TrackerModel(dataset: try RailwayTrackerPassageTests.dataset())
        var tracker = RailwayTracker(model: model)
        return stride(from: 0.0, to: 570, by: 40).map { second in
            let leg = (second / 150).rounded(.down)
            let into = min(second - 150 * leg, 120)
            let fix = Location(
                coordinate: RailwayTrackerPassageTests.point(2_000 * leg + 2_000 * into / 120),
                timestamp: morning.adding(second), horizontalAccuracy: 10)
            if let reported {
                let feed = RealtimeFeed(timestamp: fix.timestamp, trips: [TripReport(tripID: Self.lateTrain, delay: reported)])
                tracker.live = LiveTrips(feed, model: model)
            }
            return tracker.process(fix).best?.trainID
        }
    }

    /// A report that agrees with where the rider's train is keeps its train ahead at every
    /// look: the report and the train's own course together place it more sharply than the
    /// on-time train's course alone. (Judged against the report alone, at its looser scale,
    /// the on-time train caught up whenever the report was 15 s off.)
    @Test(arguments: [0.0, 15, -15])
    func aReportedLateTrainWhereTheRiderIsOutweighsAnUnreportedOnTimeOne(reportError: Seconds) throws {
        let answers = try ride(reported: Self.lateness + reportError)
        #expect(answers.suffix(8).allSatisfy { $0 == Self.lateTrain }, "\(answers)")
    }

    /// The control: without the feed the on-time train is the likelier one, so the report is
    /// what named the late train.
    @Test func withoutTheFeedTheOnTimeTrainIsNamed() throws {
        let answers = try ride(reported: nil)
        #expect(answers.suffix(8).allSatisfy { $0 == "A12" }, "\(answers)")
    }

    /// A report far from where the rider's train is (the feed's train is elsewhere) does not
    /// make it the rider's.
    @Test func aReportThatDisagreesNamesNoTrainOfItsLine() throws {
        let answers = try ride(reported: Self.lateness + 600)
        #expect(answers.suffix(8).allSatisfy { $0?.hasPrefix("B") != true }, "\(answers)")
    }
}

/// Rule 7 (a line whose trains the feed places, none near the rider, is not the rider's)
/// waits while the rider's train may not be reported yet: a feed may place a train only
/// minutes after it leaves its first station.
@Suite struct AbsentVehicleGraceTests {
    /// The passages the B line gains at each look of the late ride from B's first station,
    /// the feed placing only another train of B's, at least 4 km away; rule 7 on or off.
    func passages(ruleSeven: Bool) throws -> [Seconds: Nats] {
        let model = TrackerModel(dataset: try RailwayTrackerPassageTests.dataset())
        var parameters = RailwayTracker.Parameters()
        if !ruleSeven { parameters.passages.vehicleAbsentCost = 0 }
        var tracker = RailwayTracker(model: model, parameters: parameters)
        tracker.explains = true
        var gained: [Seconds: Nats] = [:]
        for second in stride(from: 0.0, to: 570, by: 40) {
            let leg = (second / 150).rounded(.down)
            let along = 2_000 * leg + min(second - 150 * leg, 120) * 2_000 / 120
            let fix = Location(
                coordinate: RailwayTrackerPassageTests.point(along), timestamp: morning.adding(second), horizontalAccuracy: 10)
            // On the track (a position off it places nothing), at the far end from the rider.
            let elsewhere = RailwayTrackerPassageTests.point(along > 4_000 ? 0 : 8_000)
            let far = VehicleReport(tripID: "B8", coordinate: elsewhere, time: fix.timestamp)
            let update = TripReport(tripID: "B8", delay: RailwayTrackerReportedTrainTests.lateness)
            tracker.live = LiveTrips(RealtimeFeed(timestamp: fix.timestamp, trips: [update], vehicles: [far]), model: model)
            _ = tracker.process(fix)
            let line = tracker.explanation(limit: 20).first { $0.railwayID == "B" && $0.directionName == "East" }
            if let nats = line?.terms.first(where: { $0.term == .passages })?.nats { gained[second] = nats }
        }
        return gained
    }

    @Test func theRidersTrainIsNotMissedBeforeAFeedCouldPlaceIt() throws {
        let (on, off) = (try passages(ruleSeven: true), try passages(ruleSeven: false))
        let grace = PassageEvidence().unreportedGrace
        let early = on.keys.filter { $0 < grace }
        let late = on.keys.filter { $0 > grace + 60 }
        try #require(!early.isEmpty && !late.isEmpty, "looks before and after the grace: \(on.keys.sorted())")
        for second in early { #expect(on[second] == off[second], "\(second) s: \(on[second] ?? 0) against \(off[second] ?? 0)") }
        // The control: once the train left its first station longer ago than a feed needs, the
        // rule speaks (a look's own density differs little between the two runs).
        for second in late {
            let cost = (off[second] ?? 0) - (on[second] ?? 0)
            #expect(abs(cost - PassageEvidence().vehicleAbsentCost) < 0.5, "\(second) s: \(cost)")
        }
    }
}

/// The density of a reported train's delay at a later look.
@Suite struct ReportedDelayDensityTests {
    let evidence = DepartureEvidence()

    @Test(arguments: [
        // (what, the report's error, how the reported train stands against one keeping its delay unreported)
        ("a report that agrees", 0.0, Comparison.higher),
        ("a report 30 s off", 30.0, .higher),
        ("a report 5 minutes off", 300.0, .lower),
    ])
    func aReportThatAgreesSharpensATrainsCourse(_ what: String, error: Seconds, comparison: Comparison) {
        // The train was 100 s late at the last look and is 105 s late now.
        let reported = evidence.reportedDelayDensity(105, following: 100, scale: 45, reported: 105 + error)
        let unreported = evidence.delayChangeDensity(5, scale: 45)
        #expect(comparison.holds(reported, against: unreported), "\(what)")
    }

    @Test(arguments: [(0.0, 0.0), (-5.0, 1e9)])
    func tuningCannotBreakIt(scale: Seconds, reported: Seconds) {
        var evidence = DepartureEvidence()
        evidence.reportedDelayScale = scale
        #expect(evidence.reportedDelayDensity(0, following: 0, scale: scale, reported: reported).isFinite)
        #expect(evidence.reportedDelayDensity(0, following: 0, scale: scale, reported: reported) > 0)
    }
}
