import TrainTrackerCore
import TrainTrackerLab

/// The demonstration network with a small timetable, for tests of the simulator and of the
/// timetabled tracker: two local trains (one each way) and an express, three minutes a stop.
public enum DemoRides {
    /// The network and its timetable.
    public static let dataset: TransitDataset = {
        let network = DemoNetwork.make()
        func train(_ id: String, _ railway: String, _ stations: [String], direction: String, start: Seconds) -> TimetabledTrain {
            TimetabledTrain(
                id: id, railwayID: railway, trainTypeID: railway, directionName: direction, service: "Weekday",
                stops: stations.enumerated().map { index, name in
                    let time = start + Seconds(index) * 180
                    return TimetableStop(stationID: "\(railway).\(name)", arrival: time, departure: time)
                })
        }
        let names = DemoNetwork.stationNames
        let express = names.filter(DemoNetwork.expressStops.contains)
        let trains = [
            train("L1", DemoNetwork.localID, names, direction: "Eastbound", start: 28_800),
            train("L2", DemoNetwork.localID, names.reversed(), direction: "Westbound", start: 30_000),
            train("E1", DemoNetwork.expressID, express, direction: "Eastbound", start: 29_400),
        ]
        return TransitDataset(network: network, timetable: Timetable(trains: trains))
    }()
}
