import TrainTrackerCore

extension CaseTruth {
    /// The log a careful rider would have kept on this ride: a departure each time the train
    /// leaves a station it stood at (with the station's id, the railway's id and the
    /// direction's name) and an arrival each time it comes to a stop at one, at the moments
    /// the truth shows. Stops on underground stretches, where the truth has no fixes, get no
    /// events, except the ride's own first departure and last arrival.
    ///
    ///     truth.riderLog()  // departure Tokyu.Toyoko.Hiyoshi ..., arrival Tokyu.Toyoko.Tsunashima ...
    ///
    /// - Complexity: O(n) in the number of truth fixes.
    public func riderLog() -> [RiderLogEvent] {
        var events: [RiderLogEvent] = []
        var standing: (fix: TruthFix, last: TruthFix)?
        var moved = false
        func railway(_ fix: TruthFix) -> (id: String, direction: String) {
            (fix.railwayID ?? railwayID, fix.directionName ?? directionName)
        }
        func event(_ kind: RiderLogEvent.Kind, _ fix: TruthFix) -> RiderLogEvent {
            let (railway, direction) = railway(fix)
            return RiderLogEvent(
                time: Timestamp(secondsSince1970: fix.time), kind: kind, station: fix.station, railway: railway,
                direction: kind == .departure ? direction : nil)
        }
        for fix in fixes.sorted(by: { $0.time < $1.time }) {
            guard fix.scored != false else {
                // Off the train: a new ride starts after the walk.
                standing = nil
                moved = false
                continue
            }
            let atStation = fix.speed == 0 && fix.phase == .now
            if atStation {
                if let current = standing, current.fix.station == fix.station {
                    standing = (current.fix, fix)
                } else {
                    if moved { events.append(event(.arrival, fix)) }
                    standing = (fix, fix)
                }
            } else if fix.speed > 0 {
                if let current = standing { events.append(event(.departure, current.last)) }
                standing = nil
                moved = true
            }
        }
        // A first station or last stop underground: the truth's own times.
        let lastRailway = (railwayID, directionName)
        if let first = stops.first, transfer == nil,
            !events.contains(where: { $0.kind == .departure && $0.station == first })
        {
            events.insert(
                RiderLogEvent(
                    time: Timestamp(secondsSince1970: departure), kind: .departure, station: first, railway: lastRailway.0,
                    direction: lastRailway.1), at: 0)
        }
        if let last = stops.last, !events.contains(where: { $0.kind == .arrival && $0.station == last }) {
            events.append(
                RiderLogEvent(time: Timestamp(secondsSince1970: arrival), kind: .arrival, station: last, railway: lastRailway.0))
        }
        return events
    }
}
