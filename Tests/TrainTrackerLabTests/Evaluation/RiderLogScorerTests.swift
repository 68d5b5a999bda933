import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore
@testable import TrainTrackerLab

/// Logs written from simulated rides (the truth turned into departures and arrivals), scored
/// against the railway tracker on the demonstration network.
@Suite struct RiderLogScorerTests {
    static let network = DemoRides.dataset.network

    static func rides(_ count: Int, seed: UInt64) -> [SimulatedCase] {
        CaseGenerator(dataset: DemoRides.dataset).cases(count: count, seed: seed, filter: RideFilter(stops: 3...6))
    }

    /// The railway tracker's answers on `ride`.
    static func answered(_ ride: SimulatedCase) -> AnsweredSession {
        var tracker = RailwayTracker(model: TrackerModel(dataset: DemoRides.dataset))
        return AnsweredSession(
            id: ride.sessionID,
            answers: ride.fixes.map { TimedAnswer(fix: $0.location, result: tracker.process($0.location)) })
    }

    @Test func theTruthOfARideIsLoggedAsADepartureFromEachStopAndAnArrivalAtTheNext() throws {
        let ride = try #require(Self.rides(1, seed: 3).first)
        let log = ride.truth.riderLog()
        #expect(log.first?.kind == .departure && log.first?.station == ride.truth.stops.first)
        #expect(log.last?.kind == .arrival && log.last?.station == ride.truth.stops.last)
        #expect(log.filter { $0.kind == .arrival }.map(\.station) == ride.truth.stops.dropFirst().map { Optional($0) })
        #expect(zip(log, log.dropFirst()).allSatisfy { $0.time < $1.time && $0.kind != $1.kind })
        #expect(log.allSatisfy { $0.railway == ride.truth.railwayID })
    }

    @Test func logsOfSimulatedRidesScoreNearlyAllRight() throws {
        let rides = Self.rides(8, seed: 21)
        #expect(rides.count == 8)
        var scores: [LoggedEventScore] = []
        for ride in rides {
            scores += RiderLogScorer(network: Self.network).score(events: ride.truth.riderLog(), sessions: [Self.answered(ride)])
        }
        let summary = RiderLogSummary(scores: scores)
        #expect(summary.unscored == 0, "\(scores.filter { $0.right == nil }.map { $0.unscoredReason ?? "" })")
        #expect(summary.departures >= 16 && summary.arrivals >= 16)
        #expect(Double(summary.departuresRight) >= 0.9 * Double(summary.departures))
        #expect(Double(summary.arrivalsRight) >= 0.9 * Double(summary.arrivals))
        #expect(summary.saidNow == summary.arrivals)
        let median = try #require(summary.medianNowOffset)
        #expect(abs(median) <= 30, "\(median)")
        #expect(abs(summary.worstNowOffset ?? .infinity) <= 90)
    }

    @Test func aLogOfTheWrongDirectionAndStationsScoresWrong() throws {
        let ride = try #require(Self.rides(1, seed: 21).first)
        let stations = DemoNetwork.stationNames
        let wrong = ride.truth.riderLog().map { event -> RiderLogEvent in
            var event = event
            // The other direction, and at each arrival the station after the real one.
            event.direction = event.direction.map { $0 == "Eastbound" ? "Westbound" : "Eastbound" }
            if event.kind == .arrival, let station = Self.network.station(id: event.station ?? ""),
                let index = stations.firstIndex(of: station.name)
            {
                event.station = stations[(index + 3) % stations.count]
                event.railway = DemoNetwork.localID
            }
            return event
        }
        let scores = RiderLogScorer(network: Self.network).score(events: wrong, sessions: [Self.answered(ride)])
        let summary = RiderLogSummary(scores: scores)
        #expect(summary.departures > 0 && summary.departuresRight == 0)
        #expect(summary.arrivals > 0 && summary.arrivalsRight == 0)
    }

    @Test func eventsThatCannotBeScoredSayWhy() throws {
        let ride = try #require(Self.rides(1, seed: 21).first)
        let start = try #require(ride.fixes.first?.location.timestamp)
        let events = [
            RiderLogEvent(time: start.adding(10), kind: .arrival, station: "Atlantis"),
            RiderLogEvent(time: start.adding(20), kind: .departure, station: "Minato", railway: "Moon Line"),
            RiderLogEvent(time: start.adding(30), kind: .departure, station: "Minato", railway: DemoNetwork.localID),
            RiderLogEvent(time: start.adding(-86_400), kind: .arrival, station: "Sakura"),
            RiderLogEvent(time: start.adding(40), kind: .walking),
        ]
        let scores = RiderLogScorer(network: Self.network).score(events: events, sessions: [Self.answered(ride)])
        #expect(scores.count == 4, "the walk is not a train event")
        #expect(scores.allSatisfy { $0.right == nil })
        #expect(
            scores.map { $0.unscoredReason ?? "" } == [
                "no session's fixes cover this time", "unknown station 'Atlantis'", "unknown railway 'Moon Line'",
                "no direction logged, and no arrival after it on Demo Local Line",
            ])
        #expect(RiderLogSummary(scores: scores).unscored == 4)
    }

    @Test func aMistypedStationOrLineIsShownTheClosestNames() throws {
        let ride = try #require(Self.rides(1, seed: 21).first)
        let start = try #require(ride.fixes.first?.location.timestamp)
        let events = [
            RiderLogEvent(time: start.adding(10), kind: .arrival, station: "Minatp"),
            RiderLogEvent(time: start.adding(20), kind: .departure, station: "Minato", railway: "Demo Lokal Line"),
        ]
        let reasons = RiderLogScorer(network: Self.network).score(events: events, sessions: [Self.answered(ride)])
            .map { $0.unscoredReason ?? "" }
        #expect(reasons.count == 2)
        #expect(reasons.first?.hasPrefix("unknown station 'Minatp' (closest: 'Minato'") == true, "\(reasons)")
        #expect(reasons.last?.hasPrefix("unknown railway 'Demo Lokal Line' (closest: 'Demo Local Line'") == true, "\(reasons)")
    }

    @Test func aDepartureWithoutALineTakesTheLineOfTheNextArrival() throws {
        let ride = try #require(Self.rides(1, seed: 21).first)
        let names = ride.truth.riderLog().map { event -> RiderLogEvent in
            var event = event
            event.station = Self.network.station(id: event.station ?? "")?.name
            event.railway = nil
            event.direction = nil
            return event
        }
        let scores = RiderLogScorer(network: Self.network).score(events: names, sessions: [Self.answered(ride)])
        #expect(scores.allSatisfy { $0.right != nil }, "\(scores.map { $0.unscoredReason ?? "" })")
        #expect(scores.filter { $0.kind == .departure }.allSatisfy { $0.expected.contains("bound") })
    }

    @Test(arguments: [
        ("trainDeparture", RiderLogEvent.Kind.departure), ("Arrival", .arrival), ("arr", .arrival),
        ("walkingMotionActivity", .walking), ("automotive_motion_activity", .automotive),
        ("significantLocation", .significantLocation),
    ])
    func eventKindsAreReadByAnyOfTheirNames(name: String, kind: RiderLogEvent.Kind) {
        #expect(RiderLogEvent.Kind(logName: name) == kind)
    }

    @Test func unknownKindsAreNotGuessed() {
        #expect(RiderLogEvent.Kind(logName: "teleport") == nil)
        #expect(RiderLogEvent.Kind(logName: "") == nil)
    }

    @Test func localTimesAreTurnedToUTCAndZonedTimesKept() {
        #expect(Timestamp(parsing: "2025-09-22 08:00:00.500", utcOffset: 32_400)?.iso8601 == "2025-09-21T23:00:00.500Z")
        #expect(Timestamp(parsing: "2025-09-22T08:00:00+09:00", utcOffset: -18_000)?.iso8601 == "2025-09-21T23:00:00.000Z")
        #expect(Timestamp(parsing: "2025-09-22T08:00:00Z", utcOffset: 32_400)?.iso8601 == "2025-09-22T08:00:00.000Z")
        #expect(Timestamp(parsing: "08:00", utcOffset: 0) == nil)
    }

    @Test func theCSVFormQuotesWhatNeedsQuoting() {
        let text = RiderLogCSV.text([
            RiderLogEvent(
                time: Timestamp(secondsSince1970: 0), kind: .departure, station: "Minato", railway: "Local, \"slow\"",
                direction: "Eastbound")
        ])
        #expect(
            text
                == "time,event,station,railway,direction\n1970-01-01T00:00:00.000Z,departure,Minato,\"Local, \"\"slow\"\"\",Eastbound\n"
        )
    }
}
