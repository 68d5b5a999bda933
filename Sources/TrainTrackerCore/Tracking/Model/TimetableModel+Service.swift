import Algorithms

/// Calendars are law: a line none of whose trains runs on the service day, or anywhere near
/// the time, carries no rider. A railway with no train that day collects no timing evidence,
/// so without this rule it is never penalised and wins whenever the real train runs late.
extension TimetableModel {
    /// How long before a train's first departure its line counts as running: riders board a
    /// train standing at its origin.
    /// Set by hand on 2026-11-25 with the calendar rule, which was not tuned.
    static let serviceLead: Seconds = 3_600
    /// How long after a train's last scheduled call its line still counts as running: real
    /// trains run late (Caltrain's recording: 99th percentile 26–29 min, a disrupted
    /// Saturday 40 min), and a line lost to a late train is not found again.
    /// Set by hand on 2026-11-25 from those delays; the calendar rule was not tuned.
    static let serviceLag: Seconds = 7_200

    /// Which of `services` run on `day`.
    func servicesRunning(on day: CivilDay) -> [Bool] {
        services.map { calendar.runs($0, on: day) }
    }

    /// Whether line `key` has a train running at `time` on the calendar: one that runs on its
    /// service day and is between `serviceLead` before its first departure and `serviceLag`
    /// after its last call. Always true for a line without timetabled trains (nothing is
    /// known of it) and without timetables.
    ///
    /// - Complexity: O(log n + k) for the line's n trips and the k starting near the time.
    func hasTrainRunning(line key: Int, at time: Timestamp) -> Bool {
        guard hasTimetable, !trips[key].isEmpty else { return true }
        let today = zone.day(of: time)
        let byStart = tripsByStart[key]
        for day in [today, today.adding(-1), today.adding(1)] {
            let clock = time.secondsSince1970 - zone.serviceDayOrigin(day)
            let runsToday = servicesRunning(on: day)
            // A trip that wraps past midnight or runs backwards is found by no search by start.
            for trip in irregularTrips[key] where runsToday[Int(trips[key][Int(trip)].service)] { return true }
            var index = byStart.partitioningIndex { Seconds($0.start) >= clock - Self.serviceLag - longestTrip[key] }
            while index < byStart.count, Seconds(byStart[index].start) <= clock + Self.serviceLead {
                let trip = trips[key][Int(byStart[index].trip)]
                index += 1
                guard runsToday[Int(trip.service)], let last = trip.arrival?.time ?? trip.departures.last?.time else {
                    continue
                }
                if clock <= Double(last) + Self.serviceLag { return true }
            }
        }
        return false
    }
}
