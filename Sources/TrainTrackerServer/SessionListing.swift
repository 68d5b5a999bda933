import TrainTrackerCore
import TrainTrackerStorage

/// The read side for operators and the Session Viewer: the sessions with what the tracker
/// made of them, one session's fixes with the answer at each, and the railways near it.
struct SessionListing {
    let state: ServerState

    /// `GET /v1/sessions`: id, start, end, duration (first fix to last, by the phone's clock
    /// alone), fixes, and the railway the tracker
    /// answered most often (its name and colour), newest first. That railway is worked out
    /// once per session and fix count.
    func json() throws -> String {
        let network = state.model.network
        let summaries = try state.store.sessions().sorted { $0.session.startDate > $1.session.startDate }
        let items = try summaries.map { summary -> String in
            var object = JSONObjectWriter()
            object.string("id", summary.session.id)
            object.string("startDate", summary.session.startDate.iso8601)
            object.string("endDate", summary.session.endDate?.iso8601)
            object.number("duration", summary.fixSpan)
            object.integer("fixes", summary.locationCount)
            let id = summary.session.id
            let known = state.detectedRailway(of: id, fixes: summary.locationCount)
            let found = try known ?? mainRailway(of: id)
            if known == nil { state.remember(railway: found, of: id, fixes: summary.locationCount) }
            let railway = found.flatMap { network.railway(id: $0) }
            object.string("railway", railway?.id)
            object.string("railwayName", railway?.name)
            object.string("color", railway?.color)
            return object.finish()
        }
        return "{\"sessions\":" + JSONObjectWriter.array(items) + "}"
    }

    /// `GET /v1/sessions/{id}/results`: every fix (id, time, position, accuracy, speed,
    /// course), the tracker's answer at it (the JSONL line of `replay --explain`: with the
    /// evidence of each hypothesis), and the stations of every railway among the top three answers.
    func results(of id: String) throws -> String {
        let (fixes, report) = try state.store.fixes(sessionID: id)
        var tracker = DefaultTracker(model: state.model)
        tracker.explains = true
        var fixItems: [String] = []
        var resultItems: [String] = []
        fixItems.reserveCapacity(fixes.count)
        var railways = Set<String>()
        for fix in fixes {
            let result = tracker.process(fix.location)
            for candidate in result.candidates.prefix(3) { railways.insert(candidate.railwayID) }
            var object = JSONObjectWriter()
            object.string("id", fix.id)
            object.string("timestamp", fix.location.timestamp.iso8601)
            object.number("latitude", fix.location.coordinate.latitude)
            object.number("longitude", fix.location.coordinate.longitude)
            object.number("accuracy", fix.location.horizontalAccuracy)
            object.number("speed", fix.location.speed)
            object.number("course", fix.location.course)
            fixItems.append(object.finish())
            resultItems.append(result.jsonLine(sessionID: id, fix: fix, evidence: tracker.explanation(limit: 8)))
        }
        let stations = railways.sorted().compactMap { stationList(of: $0) }
        return "{\"sessionID\":\(id.jsonQuoted),\"skipped\":\(report.skipped),\"fixes\":"
            + JSONObjectWriter.array(fixItems) + ",\"results\":" + JSONObjectWriter.array(resultItems) + ",\"railways\":"
            + JSONObjectWriter.array(stations) + "}"
    }

    /// `GET /v1/sessions/{id}/network`: the railways whose track passes within 2 km of the
    /// session's fixes, with name, colour, track (rounded to about a metre) and stations.
    func network(near id: String) throws -> String {
        let fixes = try state.store.fixes(sessionID: id).fixes
        let network = state.model.network
        guard !fixes.isEmpty else { return "{\"railways\":[]}" }
        var near = Set<Int>()
        // Every 30th fix is plenty to find the railways a ride passes.
        for fix in fixes.striding(by: 30) + [fixes[fixes.count - 1]] {
            let projection = LocalProjection(origin: fix.location.coordinate)
            for (index, polyline) in network.trackPolylines.enumerated() where !near.contains(index) {
                if polyline.nearestEdge(from: projection, within: 2_000, hint: Int?.none) != nil { near.insert(index) }
            }
        }
        let items = near.sorted().map { index -> String in
            let railway = network.railways[index]
            var object = JSONObjectWriter()
            object.string("id", railway.id)
            object.string("name", railway.name)
            object.string("color", railway.color)
            object.raw("track", JSONObjectWriter.array(railway.track.polyline.coordinates.map { Self.pair($0) }))
            object.raw("stations", stationArray(of: railway))
            return object.finish()
        }
        return "{\"railways\":" + JSONObjectWriter.array(items) + "}"
    }

    /// A railway with its names, colour and stations.
    private func stationList(of railwayID: String) -> String? {
        let network = state.model.network
        guard let railway = network.railway(id: railwayID) else { return nil }
        var object = JSONObjectWriter()
        object.string("id", railway.id)
        object.string("name", railway.name)
        object.string("color", railway.color)
        object.string("ascending", railway.ascendingName)
        object.string("descending", railway.descendingName)
        object.raw("stations", stationArray(of: railway))
        return object.finish()
    }

    /// A railway's stations in order: id, name, position.
    private func stationArray(of railway: Railway) -> String {
        let network = state.model.network
        let stations = railway.stationIDs.compactMap { network.station(id: $0) }.map { station -> String in
            var object = JSONObjectWriter()
            object.string("id", station.id)
            object.string("name", station.name)
            object.raw("position", Self.pair(station.coordinate))
            return object.finish()
        }
        return JSONObjectWriter.array(stations)
    }

    /// The railway the tracker named most often for session `id`.
    private func mainRailway(of id: String) throws -> String? {
        var tracker = DefaultTracker(model: state.model)
        var counts: [String: Int] = [:]
        for fix in try state.store.fixes(sessionID: id).fixes {
            if let railway = tracker.process(fix.location).best?.railwayID { counts[railway, default: 0] += 1 }
        }
        return counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key
    }

    private static func pair(_ coordinate: Coordinate) -> String {
        let round = { (value: Double) in (value * 100_000).rounded() / 100_000 }
        return "[\(round(coordinate.latitude)),\(round(coordinate.longitude))]"
    }
}
