import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerTestSupport

@testable import TrainTrackerLab
@testable import TrainTrackerServer

/// `serve` (the default tracker): each session runs the trip model over the railway tracker,
/// so a rider is told the train the trip model names, live and on the viewer's results page.
@Suite(.serialized, .tags(.sharedData, .slow), .timeLimit(.minutes(10))) struct TripModelServerTests {
    /// A recorded Caltrain ride whose last answer names one train under the trip model and
    /// another (or none) under the railway tracker alone, with both answers.
    static let ride = Result { () throws -> (fixes: [RecordedFix], trips: String, plain: String?) in
        let loaded = try RealtimeRoutesTests.dataset.get()
        let model = try RealtimeRoutesTests.model.get()
        let recording = try VehiclePositionRecording.read(path: SharedPaths.caltrainRecording, zone: loaded.timetable.zone)
        for ride in RecordedRides(positions: recording.positions, dataset: loaded).cases where ride.fixes.count >= 20 {
            var trips = TripTracker(model: model)
            var plain = RailwayTracker(model: model)
            var answers: (trips: String?, plain: String?) = (nil, nil)
            for fix in ride.fixes {
                answers = (trips.process(fix.location).best?.train, plain.process(fix.location).best?.train)
            }
            if let train = answers.trips, train != answers.plain { return (ride.fixes, train, answers.plain) }
        }
        throw RealtimeRoutesTests.TestFailure("no ride on which the algorithms differ")
    }

    /// The train in the last live answer of one rider uploading `fixes`, in the last answer of
    /// the session's results page, and for each gap the page estimates answers in, the train
    /// at the fix before it and in each estimate, on a server with `trips` (nil: the railway
    /// tracker alone).
    static func served(_ fixes: [RecordedFix], trips: TripModelParameters?) async throws -> (
        live: String?, page: String?, gaps: [(before: String?, estimates: [String?])]
    ) {
        var made = try RealtimeRoutesTests.Fixture()
        made.settings.trips = trips
        let fixture = made
        return try await buildApplication(fixture.settings).test(.router) { client in
            let answers = try await RealtimeRoutesTests.ride(
                fixes, riders: [(fixture.phones[0], "T1", 0)], clock: fixture.clock, client: client)
            let response = try await client.execute(
                uri: "/v1/sessions/T1/results", method: .get, headers: ServerRoutesTests.headers(fixture.admin))
            let page = try ServerRoutesTests.object(response.body)
            let results = try #require(page["results"] as? [[String: Any]])
            let estimates = try #require(page["estimates"] as? [[String: Any]])
            let gaps = estimates.compactMap { gap -> (before: String?, estimates: [String?])? in
                guard let after = gap["after"] as? Int, results.indices.contains(after) else { return nil }
                let answers = gap["answers"] as? [[String: Any]] ?? []
                return (results[after]["train"] as? String, answers.map { $0["train"] as? String })
            }
            return (answers.first?["train"] as? String, results.last?["train"] as? String, gaps)
        }
    }

    @Test func aRiderIsToldTheTrainTheTripModelNames() async throws {
        let (fixes, train, plain) = try Self.ride.get()
        // A server set up without choosing runs the default tracker, the trip model with its
        // compiled-in constants.
        #expect(try RealtimeRoutesTests.Fixture().settings.trips != nil)
        let withTrips = try await Self.served(fixes, trips: TripModelParameters())
        #expect(withTrips.live == train && withTrips.page == train, "trip model: \(train), server: \(withTrips)")
        let withoutTrips = try await Self.served(fixes, trips: nil)
        #expect(
            withoutTrips.live == plain && withoutTrips.page == plain,
            "railway tracker: \(plain ?? "none"), server: \(withoutTrips)")
        // Between fixes (a tunnel, a phone's silence) the trip model carries the rider along
        // its trip's timetable: each estimate names the train named at the fix before the gap,
        // also where that is the trip model's train and not the railway tracker's.
        let gaps = withTrips.gaps
        #expect(gaps.contains { $0.before == train && !$0.estimates.isEmpty }, "\(gaps.count) gaps")
        for gap in gaps {
            #expect(gap.estimates.allSatisfy { $0 == gap.before }, "at \(gap.before ?? "none"): \(gap.estimates)")
        }
    }
}
