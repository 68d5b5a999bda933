import Foundation
import Testing

@testable import TrainTrackerCore

/// The JSONL contract's `arrivals`: the best candidate's predicted arrivals, in calling order,
/// each with its station, time, interval and published time.
struct TrackingResultJSONTests {
    static let fix = RecordedFix(
        id: "f1", location: Location(coordinate: Coordinate(latitude: 37.6, longitude: -122.4), timestamp: noon))
    static let noon = Timestamp(secondsSince1970: 1_732_910_400)  // 2024-11-29 20:00 UTC

    static func objects(_ result: TrackingResult) throws -> [String: Any] {
        let line = result.jsonLine(sessionID: "S", fix: fix)
        return try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func theBestCandidatesArrivalsAreWrittenInCallingOrder() throws {
        var best = TrackingCandidate(
            railwayID: "Local Weekday", direction: .ascending, directionName: "South", destinationStationID: nil,
            focusStationID: "70011", phase: .next, laterStationIDs: [], score: 0)
        best.arrivals = [
            PredictedArrival(
                stationID: "70021", time: Self.noon.adding(125), earliest: Self.noon.adding(95), latest: Self.noon.adding(190),
                scheduled: Self.noon.adding(60)),
            PredictedArrival(
                stationID: "70031", time: Self.noon.adding(400), earliest: Self.noon.adding(340),
                latest: Timestamp(secondsSince1970: 1e15)),
        ]
        var other = best
        other.arrivals = [best.arrivals[0]]
        let json = try Self.objects(TrackingResult(candidates: [best, other]))
        let arrivals = try #require(json["arrivals"] as? [[String: Any]])
        #expect(arrivals.count == 2)
        #expect(arrivals.map { $0["station"] as? String } == ["70021", "70031"])
        #expect(arrivals[0]["time"] as? String == "2024-11-29T20:02:05.000Z")
        #expect(arrivals[0]["earliest"] as? String == "2024-11-29T20:01:35.000Z")
        #expect(arrivals[0]["latest"] as? String == "2024-11-29T20:03:10.000Z")
        #expect(arrivals[0]["scheduled"] as? String == "2024-11-29T20:01:00.000Z")
        // A time the contract cannot carry, and a time not told, are null.
        #expect(arrivals[1]["latest"] is NSNull && arrivals[1]["scheduled"] is NSNull)
        // Between delaySeconds and undecided (empty: one service), as the contract orders its keys.
        let line = TrackingResult(candidates: [best]).jsonLine(sessionID: "S", fix: Self.fix)
        #expect(line.contains(#""delaySeconds":null,"arrivals":[{"station":"70021","time":"#))
        #expect(line.contains(#""scheduled":null}],"undecided":[],"estimated":false"#))
    }

    @Test func theServicesStillPossibleAreWrittenWithTheirShares() throws {
        let best = TrackingCandidate(
            railwayID: "Local Weekday", direction: .ascending, directionName: "South", destinationStationID: nil,
            focusStationID: "70011", phase: .next, laterStationIDs: [], score: 0)
        let services = [
            PossibleService(
                railwayID: "Local Weekday", direction: .ascending, directionName: "South", trainTypeID: nil,
                nextStopID: "70021", share: 0.6),
            PossibleService(
                railwayID: "Limited \"L\"\n", direction: .ascending, directionName: "South", trainTypeID: "Limited",
                nextStopID: nil, share: 0.35),
        ]
        let object = try Self.objects(TrackingResult(candidates: [best], undecided: services))
        let undecided = try #require(object["undecided"] as? [[String: Any]])
        #expect(undecided.count == 2)
        #expect(undecided.allSatisfy { Set($0.keys) == ["railway", "direction", "trainType", "nextStop", "share"] })
        // A feed's name with a quote and a newline is written escaped: the line still parses.
        #expect(undecided[1]["railway"] as? String == "Limited \"L\"\n")
        #expect(undecided[0]["share"] as? Double == 0.6 && undecided[1]["nextStop"] is NSNull)
        #expect(undecided[0]["trainType"] is NSNull && undecided[1]["trainType"] as? String == "Limited")
    }

    @Test func withoutAnAnswerOrAPredictionArrivalsIsEmpty() throws {
        let none = try Self.objects(TrackingResult(candidates: []))
        #expect((none["arrivals"] as? [Any])?.isEmpty == true)
        let plain = TrackingCandidate(
            railwayID: "R", direction: .ascending, directionName: "Up", destinationStationID: nil, focusStationID: "A",
            phase: .now, laterStationIDs: [], score: 0)
        let answered = try Self.objects(TrackingResult(candidates: [plain]))
        #expect((answered["arrivals"] as? [Any])?.isEmpty == true)
    }
}
