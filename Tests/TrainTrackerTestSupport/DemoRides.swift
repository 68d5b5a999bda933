import TrainTrackerCore
import TrainTrackerLab

/// The demonstration network with a small timetable, for tests of the simulator and of the
/// timetabled tracker: two local trains (one each way) and an express, three minutes a stop.
public enum DemoRides {
    /// The network and its timetable.
    public static let dataset: TransitDataset = {
        let names = DemoNetwork.stationNames
        let express = names.filter(DemoNetwork.expressStops.contains)
        let trains = [
            train("L1", DemoNetwork.localID, names, direction: "Eastbound", start: 28_800),
            train("L2", DemoNetwork.localID, names.reversed(), direction: "Westbound", start: 30_000),
            train("E1", DemoNetwork.expressID, express, direction: "Eastbound", start: 29_400),
        ]
        return TransitDataset(network: DemoNetwork.make(), timetable: Timetable(trains: trains))
    }()

    /// The network with eastbound locals alone, trip id → its first departure (seconds after
    /// midnight), calling where L1 does.
    public static func eastboundLocals(_ starts: KeyValuePairs<String, Seconds>) -> TransitDataset {
        let trains = starts.map {
            train($0.key, DemoNetwork.localID, DemoNetwork.stationNames, direction: "Eastbound", start: $0.value)
        }
        return TransitDataset(network: DemoNetwork.make(), timetable: Timetable(trains: trains))
    }

    /// A train of `railway` calling at `stations` from `start`, three minutes a stop.
    private static func train(_ id: String, _ railway: String, _ stations: [String], direction: String, start: Seconds)
        -> TimetabledTrain
    {
        TimetabledTrain(
            id: id, railwayID: railway, trainTypeID: railway, directionName: direction, service: "Weekday",
            stops: stations.enumerated().map { index, name in
                let time = start + Seconds(index) * 180
                return TimetableStop(stationID: "\(railway).\(name)", arrival: time, departure: time)
            })
    }
}

extension DemoRides {
    /// Feeds `step` seconds apart from `start`, each placing trip `tripID`'s train at the next
    /// of `shares` of the way from its first stop to its second (0: at the first, 1: at the
    /// second, more: past it), as an operator's vehicle positions would.
    public static func feeds(placing tripID: String, at shares: [Double], from start: Timestamp, step: Seconds = 60)
        -> [RealtimeFeed]
    {
        let (railway, from, to) = firstTwoStops(of: tripID)
        return shares.enumerated().map { index, share in
            let time = start.adding(Seconds(index) * step)
            let place = railway.track.polyline.point(atAlongTrack: from + share * (to - from)).coordinate
            return RealtimeFeed(timestamp: time, vehicles: [VehicleReport(tripID: tripID, coordinate: place, time: time)])
        }
    }

    /// How far trip `tripID`'s first stop is from its second along the track, in metres.
    public static func firstStretch(of tripID: String) -> Meters {
        let (_, from, to) = firstTwoStops(of: tripID)
        return abs(to - from)
    }

    /// Trip `tripID`'s railway and where its first two stops lie along its track.
    private static func firstTwoStops(of tripID: String) -> (railway: Railway, from: Meters, to: Meters) {
        guard let train = dataset.timetable.trains.first(where: { $0.id == tripID }), train.stops.count >= 2,
            let railway = dataset.network.railway(id: train.railwayID),
            let first = dataset.network.station(id: train.stops[0].stationID),
            let second = dataset.network.station(id: train.stops[1].stationID),
            let from = railway.track.polyline.projection(of: first.coordinate)?.alongTrack,
            let to = railway.track.polyline.projection(of: second.coordinate)?.alongTrack
        else { preconditionFailure("\(tripID) is not a trip of the demo timetable") }
        return (railway, from, to)
    }
}
