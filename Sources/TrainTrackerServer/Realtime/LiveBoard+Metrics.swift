import TrainTrackerCore

extension LiveBoard {
    /// The feeds' freshness for `/metrics`, in the Prometheus text format: per source its age
    /// (by its header; -1 before the first read), its failures in a row and since the start by
    /// reason, the trips its latest feed reports, those the timetable lacks, its positions off
    /// their tracks and its entities left out by reason; and the riders (devices) seen and the
    /// trains published.
    func metricsText(at now: Timestamp) -> String {
        var text = ""
        let sources = sources
        let families: [(name: String, help: String, value: (Source) -> Double)] = [
            (
                "traintracker_realtime_feed_age_seconds", "Age of each operator feed's latest message (-1: none read).",
                { source in source.feed.map { now.seconds(since: $0.timestamp) } ?? -1 }
            ),
            ("traintracker_realtime_feed_failures", "Failed polls in a row.", { Double($0.failures) }),
            ("traintracker_realtime_feed_trips", "Trip updates in the latest message.", { Double($0.feed?.trips.count ?? 0) }),
            (
                "traintracker_realtime_feed_unknown_trips", "Trips of the latest message the timetable lacks.",
                { Double($0.unknownTrips) }
            ),
            (
                "traintracker_realtime_feed_off_track_vehicles",
                "Vehicle positions of the latest message off their trips' tracks (ignored: they place no train).",
                { Double($0.offTrackVehicles) }
            ),
        ]
        for family in families where !sources.isEmpty {
            text += "# HELP \(family.name) \(family.help)\n# TYPE \(family.name) gauge\n"
            for source in sources {
                text += "\(family.name){source=\"\(Self.prometheusEscaped(source.label))\"} \(family.value(source))\n"
            }
        }
        text += byReason(
            "traintracker_realtime_feed_failed_polls_total", type: "counter",
            help: "Failed polls since the start, by reason (stale: older than --realtime-max-age, never stored).",
            sources: sources
        ) { source in FeedPoller.PollFailure.allCases.map { ($0.rawValue, source.failedPolls[$0] ?? 0) } }
        text += byReason(
            "traintracker_realtime_feed_skipped_entities", type: "gauge",
            help: "Entities of the latest message left out, by reason.", sources: sources
        ) { source in source.skipped.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
        let riders = ridersByTrip(at: now)
        let devices = Set(riders.values.flatMap { $0.map(\.device) }).count
        let published = riders.values.filter { Set($0.map(\.device)).count >= settings.minimumRiders }.count
        text += "# HELP traintracker_realtime_riders Riders (devices) whose tracker names a train now, where it runs.\n"
        text += "# TYPE traintracker_realtime_riders gauge\ntraintracker_realtime_riders \(devices)\n"
        text += "# HELP traintracker_realtime_published_trains Trains enough riders agree on to be published.\n"
        text += "# TYPE traintracker_realtime_published_trains gauge\ntraintracker_realtime_published_trains \(published)\n"
        return text
    }

    /// A metric family labelled by source and reason: `counts` of each source.
    private func byReason(
        _ name: String, type: String, help: String, sources: [Source], counts: (Source) -> [(reason: String, count: Int)]
    ) -> String {
        guard !sources.isEmpty else { return "" }
        var text = "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        for source in sources {
            for (reason, count) in counts(source) {
                text +=
                    "\(name){source=\"\(Self.prometheusEscaped(source.label))\",reason=\"\(Self.prometheusEscaped(reason))\"} \(count)\n"
            }
        }
        return text
    }

    /// `text` as a Prometheus label value: backslash, quote and newline escaped.
    static func prometheusEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
