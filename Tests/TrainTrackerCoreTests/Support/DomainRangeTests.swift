import Testing
import TrainTrackerCore

@testable import TrainTrackerLab

/// Outside numbers, however absurd, become domain values or a refusal: never a trap.
@Suite struct DomainRangeTests {
    static let absurd: [Double] = [.nan, .infinity, -.infinity, 1e300, -1e300, 1e20, .greatestFiniteMagnitude, -0.0]

    @Test(
        arguments: [
            (3.0, 3), (-2.0, -2), (0.5, nil), (1e20, nil), (Double.nan, nil), (9_007_199_254_740_992, 9_007_199_254_740_992),
        ] as [(Double, Int?)])
    func wholeNumbersOnly(value: Double, expected: Int?) {
        #expect(Int(wholeNumber: value) == expected)
    }

    @Test(arguments: absurd)
    func flooringHoldsEveryDoubleInRange(value: Double) {
        let floored = Int(flooring: value, within: -10...10)
        #expect((-10...10).contains(floored))
        #expect(Int(flooring: 3.7, within: -10...10) == 3 && Int(flooring: -3.2, within: -10...10) == -4)
    }

    @Test func withinRefusesWhatIsNotFiniteOrOutside() {
        #expect((12.5).within(DomainRange.speed) == 12.5)
        #expect((1e20).within(DomainRange.speed) == nil && Double.nan.within(DomainRange.speed) == nil)
        #expect((-91.0).within(DomainRange.latitude) == nil && (180.0).within(DomainRange.longitude) == 180)
    }

    @Test(arguments: absurd)
    func aTimestampOfAnyDoubleFormatsWithoutTrapping(seconds: Double) {
        let time = Timestamp(secondsSince1970: seconds)
        #expect(time.iso8601.count >= 24 && time.ekiText.count >= 23)
        #expect(!time.isInDomainRange || seconds == 0)
        #expect(CivilDay(time, utcOffset: 0).description.count >= 10)
    }

    @Test func epochNumbersAreSecondsOrMillisecondsWithinRange() {
        #expect(Timestamp(epoch: 1_758_355_200)?.iso8601 == "2025-09-20T08:00:00.000Z")
        #expect(Timestamp(epoch: 1_758_355_200_000)?.iso8601 == "2025-09-20T08:00:00.000Z")
        #expect(Timestamp(epoch: 1e16) == nil, "not the year 318857")
        #expect(Timestamp(epoch: .nan) == nil && Timestamp(epoch: 1e300) == nil && Timestamp(epoch: -1e13) == nil)
    }

    @Test(arguments: ["2025-09-20T08:00:00+99:99", "2025-09-20T08:00:00+19:00", "2025-09-20T08:00:00+09:60"])
    func impossibleOffsetsAreRefused(text: String) {
        #expect(Timestamp(parsing: text) == nil)
        #expect(Timestamp(parsing: "2025-09-20T08:00:00+14:00") != nil)
    }

    @Test func theTrackerAnswersAFixWithAnAbsurdSpeedWithoutTrapping() throws {
        // An app embedding the core may pass fixes that never went through the sanitizer.
        let network = DemoNetwork.make()
        var tracker = RailwayTracker(model: TrackerModel(dataset: TransitDataset(network: network)))
        var eki = EkiTracker(network: network)
        let ride = try JourneySimulator(network: network).journey(
            on: DemoNetwork.localID, from: "Demo.Local.Minato", to: "Demo.Local.Midori",
            start: Timestamp(secondsSince1970: 1_758_520_000))
        var etas = 0
        for (index, fix) in ride.prefix(200).enumerated() {
            var location = fix
            location.speed = [1e20, .greatestFiniteMagnitude, .infinity, 5][index % 4]
            if index == 150 { location.coordinate = Coordinate(latitude: .nan, longitude: 1e300) }
            let answer = tracker.process(location)
            let line = answer.jsonLine(sessionID: "S", fix: RecordedFix(id: "f\(index)", location: location))
            #expect(line.hasPrefix("{\"sessionID\":\"S\""))
            if let eta = answer.best?.eta {
                #expect(eta.isInDomainRange)
                etas += 1
            }
            _ = eki.process(location)
        }
        // The check above ran: the tracker kept giving arrival times through the absurd speeds
        // (not before the stop at Sakura tells the local from the express: until then the two
        // stop next at different stations, and no stop is named).
        #expect(etas > 30, "\(etas) arrival times")
    }

    @Test func aTrackWithAnInvalidVertexOrAContinentalEdgeIsRefused() {
        let a = Station(id: "A", railwayID: "R", name: "A", coordinate: Coordinate(latitude: 35.6, longitude: 139.6))
        let b = Station(id: "B", railwayID: "R", name: "B", coordinate: Coordinate(latitude: 35.7, longitude: 139.6))
        func railway(_ track: [Coordinate]) -> Railway {
            Railway(
                id: "R", name: "R", stationIDs: ["A", "B"], ascendingName: "Up", descendingName: "Down",
                track: Track(pieces: [(track, false)]))
        }
        #expect(throws: NetworkError.invalidTrackCoordinate(railway: "R", vertex: 1)) {
            try RailwayNetwork(
                railways: [railway([a.coordinate, Coordinate(latitude: 1e300, longitude: 1e300), b.coordinate])],
                stations: [a, b])
        }
        #expect(throws: NetworkError.self) {
            try RailwayNetwork(
                railways: [railway([a.coordinate, Coordinate(latitude: -40, longitude: -60), b.coordinate])], stations: [a, b])
        }
    }

    @Test func aLongButPlausibleEdgeStillFindsItsRailway() throws {
        // 300 km station to station, as a feed without shapes draws it: the grid lists the railway
        // along the edge, not over its whole bounding box.
        let a = Station(id: "A", railwayID: "R", name: "A", coordinate: Coordinate(latitude: 35.0, longitude: 136.0))
        let b = Station(id: "B", railwayID: "R", name: "B", coordinate: Coordinate(latitude: 37.0, longitude: 138.5))
        let network = try RailwayNetwork(
            railways: [
                Railway(
                    id: "R", name: "R", stationIDs: ["A", "B"], ascendingName: "Up", descendingName: "Down",
                    track: Track(pieces: [([a.coordinate, b.coordinate], false)]))
            ], stations: [a, b])
        var tracker = RailwayTracker(model: TrackerModel(dataset: TransitDataset(network: network)))
        let middle = Coordinate(latitude: 36.0, longitude: 137.25)
        var answer = tracker.process(
            Location(coordinate: middle, timestamp: Timestamp(secondsSince1970: 1_758_520_000), horizontalAccuracy: 10))
        answer = tracker.process(
            Location(
                coordinate: Coordinate(latitude: 36.001, longitude: 137.2513),
                timestamp: Timestamp(secondsSince1970: 1_758_520_010),
                horizontalAccuracy: 10))
        #expect(answer.best?.railwayID == "R")
    }
}
