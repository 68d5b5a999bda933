import TrainTrackerCore
import TrainTrackerStorage

/// One session for the Session Viewer: its fixes with the tracker's answer at each, and the
/// railways near it; and the whole network, thinned, for the viewer's offline base map.
struct SessionResults {
    let state: ServerState

    /// A gap between fixes longer than this (a tunnel, a phone asleep) gets estimated answers.
    static let estimatedGap: Seconds = 30
    /// Estimated answers in a gap come this far apart, at most `mostEstimatesPerGap` of them.
    static let estimateStep: Seconds = 15
    static let mostEstimatesPerGap = 40

    /// `GET /v1/sessions/{id}/results`: every fix (id, time, position, accuracy, speed,
    /// course), the tracker's answer at it (the JSONL line of `replay --explain`: with the
    /// evidence of each hypothesis), the stations of every railway among the top three
    /// answers, and for each gap of more than `estimatedGap` the answers the tracker estimates
    /// in it (`estimates`: `{"after": fix index, "answers": [JSONL lines, estimated]}`), as an
    /// app would show them between fixes.
    func results(of id: String) async throws -> String {
        let (fixes, report) = try await state.store.fixes(sessionID: id)
        var tracker = state.settings.makeTracker()
        tracker.explains = true
        var fixItems: [String] = []
        var resultItems: [String] = []
        fixItems.reserveCapacity(fixes.count)
        var railways = Set<String>()
        var estimateItems: [String] = []
        for (index, fix) in fixes.enumerated() {
            let result = tracker.process(fix.location)
            for candidate in result.candidates.prefix(3) { railways.insert(candidate.railwayID) }
            fixItems.append(fix.viewerJSON)
            resultItems.append(result.jsonLine(sessionID: id, fix: fix, evidence: tracker.explanation(limit: 8)))
            if index + 1 < fixes.count, let gap = estimates(after: index, of: fixes, tracker: tracker, session: id) {
                estimateItems.append(gap)
            }
        }
        let stations = railways.sorted().compactMap { stationList(of: $0) }
        return "{\"sessionID\":\(id.jsonQuoted),\"skipped\":\(report.skipped),\"fixes\":"
            + JSONObjectWriter.array(fixItems) + ",\"results\":" + JSONObjectWriter.array(resultItems) + ",\"railways\":"
            + JSONObjectWriter.array(stations) + ",\"estimates\":" + JSONObjectWriter.array(estimateItems) + "}"
    }

    /// The answers estimated between fix `index` and the next, when they are more than
    /// `estimatedGap` apart: each at its time, with the last fix's id.
    private func estimates(after index: Int, of fixes: [RecordedFix], tracker: any SessionTracking, session id: String) -> String?
    {
        let (fix, next) = (fixes[index], fixes[index + 1])
        let gap = next.location.timestamp.seconds(since: fix.location.timestamp)
        guard gap > Self.estimatedGap else { return nil }
        let step = max(Self.estimateStep, gap / Double(Self.mostEstimatesPerGap))
        var projecting = tracker
        var answers: [String] = []
        var elapsed = step
        while elapsed < gap {
            let time = fix.location.timestamp.adding(elapsed)
            let answer = projecting.estimate(at: time)
            let at = RecordedFix(id: fix.id, location: Location(coordinate: fix.location.coordinate, timestamp: time))
            answers.append(answer.jsonLine(sessionID: id, fix: at))
            elapsed += step
        }
        return "{\"after\":\(index),\"answers\":" + JSONObjectWriter.array(answers) + "}"
    }

    /// `GET /v1/sessions/{id}/network`: the railways whose track passes within 2 km of the
    /// session's fixes, with name, colour, track (rounded to about a metre) and stations.
    func network(near id: String) async throws -> String {
        let fixes = try await state.store.fixes(sessionID: id).fixes
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
        object.raw("isLoop", railway.isLoop ? "true" : "false")
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

    private static func pair(_ coordinate: Coordinate) -> String {
        let round = { (value: Double) in (value * 100_000).rounded() / 100_000 }
        return "[\(round(coordinate.latitude)),\(round(coordinate.longitude))]"
    }
}

extension SessionResults {
    /// A vertex is kept when it lies at least this far from the last one kept.
    static let baseMapVertexSpacing: Meters = 40

    /// `GET /v1/network`: every railway of the network for the viewer's offline base map:
    /// id, name, colour, its track thinned to a vertex every `baseMapVertexSpacing` (and its
    /// ends), and its stations. Worked out once per server.
    func wholeNetwork() -> String {
        let network = state.model.network
        let items = network.railways.map { railway -> String in
            let coordinates = railway.track.polyline.coordinates
            var kept: [Coordinate] = []
            for (index, coordinate) in coordinates.enumerated() {
                guard let last = kept.last, index != coordinates.count - 1 else {
                    kept.append(coordinate)
                    continue
                }
                if last.distance(to: coordinate) >= Self.baseMapVertexSpacing { kept.append(coordinate) }
            }
            var object = JSONObjectWriter()
            object.string("id", railway.id)
            object.string("name", railway.name)
            object.string("color", railway.color)
            object.raw("track", JSONObjectWriter.array(kept.map { Self.pair($0) }))
            object.raw("stations", stationArray(of: railway))
            return object.finish()
        }
        return "{\"railways\":" + JSONObjectWriter.array(items) + "}"
    }
}

extension RecordedFix {
    /// The fix as the Session Viewer reads it: id, timestamp, latitude, longitude, accuracy,
    /// speed and course (`null` when unknown).
    var viewerJSON: String {
        var object = JSONObjectWriter()
        object.string("id", id)
        object.string("timestamp", location.timestamp.iso8601)
        object.number("latitude", location.coordinate.latitude)
        object.number("longitude", location.coordinate.longitude)
        object.number("accuracy", location.horizontalAccuracy)
        object.number("speed", location.speed)
        object.number("course", location.course)
        return object.finish()
    }
}
