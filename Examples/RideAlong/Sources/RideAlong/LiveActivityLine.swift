import TrainTrackerCore

/// What a Live Activity or the Dynamic Island shows for an answer:
/// `Toyoko Line → Shibuya · Next: Kikuna · 11:08`, and with timetables the train the
/// tracker believes: `Limited → San Francisco · Next: Palo Alto · 16:06 · Train 417 · 4 min late`.
struct LiveActivityLine: Equatable {
    var text: String

    /// The line for `result` on `network`, times on a clock `utcOffset` seconds ahead of UTC;
    /// `nil` while the tracker has no answer.
    init?(_ result: TrackingResult, network: RailwayNetwork, utcOffset: Seconds) {
        guard let best = result.best else { return nil }
        let railway = network.railway(id: best.railwayID)?.name ?? best.railwayID
        // The destination when the tracker knows it, else the direction's name.
        let toward = best.destinationStationID.flatMap { network.station(id: $0)?.name } ?? best.directionName
        var parts = ["\(railway) → \(toward)"]
        if let type = best.trainTypeID?.split(separator: ".").last { parts[0] += " (\(type))" }
        let focus = network.station(id: best.focusStationID)?.name ?? best.focusStationID
        switch best.phase {
        case .next: parts.append("Next: \(focus)")
        case .soon: parts.append("Soon: \(focus)")
        case .now: parts.append("Now: \(focus)")
        }
        // The arrival at the next stop, when the timetable gives one.
        if let eta = best.eta, best.phase != .now {
            parts.append(String(eta.timeOfDay(utcOffset: utcOffset).prefix(5)))
        }
        if let train = best.train {
            let minutes = Int(flooring: ((best.delaySeconds ?? 0) / 60).rounded(), within: -10_000...10_000)
            let delay = minutes > 0 ? "\(minutes) min late" : minutes < 0 ? "\(-minutes) min early" : "on time"
            parts.append("Train \(train)" + (best.delaySeconds == nil ? "" : " · \(delay)"))
        }
        text = parts.joined(separator: " · ") + (result.estimated ? "  (estimated)" : "")
    }
}
