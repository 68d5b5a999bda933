import Testing
import TrainTrackerCore
import TrainTrackerLab
import TrainTrackerTestSupport

/// Feeds made from a recording of trains' positions.
@Suite struct RecordingFeedsTests {
    static let model = TrackerModel(dataset: DemoRides.dataset)
    static let start = Timestamp(secondsSince1970: 1_732_910_400)

    /// Two positions two centuries apart make feeds only while a train reports, not one a
    /// minute in between.
    @Test func feedsAreMadeOnlyWhileTrainsReport() {
        let place = Coordinate(latitude: 35.6, longitude: 139.7)
        let positions = [
            VehiclePosition(tripID: "L1", coordinate: place, time: Timestamp(secondsSince1970: -2_000_000_000)),
            VehiclePosition(tripID: "L1", coordinate: place, time: Timestamp(secondsSince1970: 7_000_000_000)),
        ]
        let feeds = RecordingFeeds.make(positions: positions, model: Self.model)
        #expect(feeds.count < 40)
        #expect(feeds.allSatisfy { $0.vehicles.count <= 1 })
    }

    /// A position a stale feed published again keeps its first time, and only positions at or
    /// before a feed's time are in it.
    @Test func aRepeatedPositionKeepsItsFirstTimeAndNoFeedKnowsTheFuture() {
        let here = Coordinate(latitude: 35.6, longitude: 139.7)
        let there = Coordinate(latitude: 35.61, longitude: 139.7)
        let positions = [
            VehiclePosition(tripID: "L1", coordinate: here, time: Self.start),
            VehiclePosition(tripID: "L1", coordinate: here, time: Self.start.adding(180)),
            VehiclePosition(tripID: "L1", coordinate: there, time: Self.start.adding(300)),
        ]
        let feeds = RecordingFeeds.make(positions: positions, model: Self.model)
        for feed in feeds {
            for vehicle in feed.vehicles {
                #expect(vehicle.time <= feed.timestamp)
                if vehicle.coordinate == here { #expect(vehicle.time == Self.start) }
            }
        }
        #expect(feeds.contains { $0.vehicles.first?.coordinate == there })
    }
}
