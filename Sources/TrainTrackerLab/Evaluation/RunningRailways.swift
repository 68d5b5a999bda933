import TrainTrackerCore

/// Which railways run a train on a service day: the calendar's verdict per railway, for
/// checking that no answer names a railway without a train that day.
public struct RunningRailways: Sendable {
    private let services: [String: Set<String>]
    private let calendar: ServiceCalendar
    private let zone: TimeZoneRules

    /// The railways of `dataset`'s timetable with the services their trains run on.
    public init(dataset: TransitDataset) {
        var services: [String: Set<String>] = [:]
        for train in dataset.timetable.trains { services[train.railwayID, default: []].insert(train.service) }
        self.services = services
        calendar = dataset.timetable.calendar
        zone = dataset.timetable.zone
    }

    /// Whether `railway` runs a train on the service day of `time` or the day before (whose
    /// trains run past midnight); a railway without timetabled trains always does.
    public func runs(_ railway: String, at time: Timestamp) -> Bool {
        guard let services = services[railway] else { return true }
        let day = zone.day(of: time)
        return services.contains { calendar.runs($0, on: day) || calendar.runs($0, on: day.adding(-1)) }
    }
}
