import Prometheus

/// What an operator watches, in the Prometheus text format at `GET /metrics` (admin): uploads,
/// fixes accepted, duplicate and skipped, how long commits take, trackers in memory and their
/// rebuilds, live streams, store errors, and requests refused by status. One registry per server, not the process-wide
/// metrics system, so tests can run servers side by side.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    let uploads: Counter
    let fixesAccepted: Counter
    let fixesDuplicate: Counter
    let fixesSkipped: Counter
    let commitSeconds: DurationHistogram
    let storeErrors: Counter

    /// The commit latency buckets: 1 ms to 2.5 s.
    static let commitBuckets: [Duration] = [1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1_000, 2_500].map {
        .microseconds(Int64($0 * 1_000))
    }

    init() {
        uploads = registry.makeCounter(name: "traintracker_uploads_total", help: "Location uploads answered (any outcome).")
        fixesAccepted = registry.makeCounter(name: "traintracker_fixes_accepted_total", help: "Fixes stored.")
        fixesDuplicate = registry.makeCounter(
            name: "traintracker_fixes_duplicate_total", help: "Fixes already stored (retried uploads): left alone.")
        fixesSkipped = registry.makeCounter(
            name: "traintracker_fixes_skipped_total", help: "Malformed fixes skipped and counted.")
        commitSeconds = registry.makeDurationHistogram(
            name: "traintracker_commit_seconds", buckets: Self.commitBuckets,
            help: "Time from an upload's batch reaching the writer to its transaction committing.")
        storeErrors = registry.makeCounter(name: "traintracker_store_errors_total", help: "Store operations that failed.")
    }

    /// Requests refused with `status` (a 4xx), one counter per status.
    func rejected(status: Int) -> Counter {
        registry.makeCounter(
            name: "traintracker_rejected_requests_total", labels: [("status", String(status))],
            help: "Requests refused (4xx), by status.")
    }

    /// The metrics as Prometheus text, with the live figures read now.
    func text(trackers: Int, rebuilds: Int, streams: Int, residentBytes: Int) -> String {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        var text = String(decoding: buffer, as: UTF8.self)
        for (name, help, kind, value) in [
            ("traintracker_trackers_in_memory", "Sessions with a tracker in memory.", "gauge", trackers),
            (
                "traintracker_tracker_rebuilds_total", "Trackers rebuilt from the store (another instance stored fixes).",
                "counter", rebuilds
            ),
            ("traintracker_live_streams", "Open live streams.", "gauge", streams),
            ("traintracker_resident_bytes", "Resident memory of the process.", "gauge", residentBytes),
        ] {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(kind)\n\(name) \(value)\n"
        }
        return text
    }
}
