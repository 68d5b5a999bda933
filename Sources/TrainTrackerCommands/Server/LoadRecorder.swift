import Foundation

/// An upload a server acknowledged, kept for `load --verify`: its fixes, the answer, which
/// server gave it, and whether the session had been served elsewhere before.
struct AcknowledgedUpload: Sendable {
    var fixIDs: [String]
    var body: String
    var server: Int
    var moved: Bool
}

/// Upload outcomes, gathered from every phone: latencies, fixes acknowledged per second and
/// per server, uploads sent again after a server failed, and (with `keepsAnswers`) every
/// acknowledged upload's answer by session.
actor LoadRecorder {
    private let start: ContinuousClock.Instant
    private let servers: Int
    private let keepsAnswers: Bool
    private var latencies: [Double] = []
    private var failures = 0
    private var fixes = 0
    private var sentAgain = 0
    private var moves = 0
    /// Fixes acknowledged in each second of the run, by server.
    private var perSecond: [[Int]] = []
    /// Attempts that failed (a server down) in each second of the run.
    private var failedPerSecond: [Int] = []
    private var firstServer: [String: Int] = [:]
    private(set) var acknowledgedUploads: [String: [AcknowledgedUpload]] = [:]

    init(start: ContinuousClock.Instant, servers: Int, keepsAnswers: Bool) {
        self.start = start
        self.servers = servers
        self.keepsAnswers = keepsAnswers
    }

    /// Records one upload of session `session` (fixes `fixIDs`) that took `latency`.
    func record(session: String, fixIDs: [String], delivery: LoadTargets.Delivery, latency: Duration) {
        latencies.append(latency.seconds * 1_000)
        let second = max(0, Int(clamping: Int64((ContinuousClock.now - start).seconds.rounded(.down))))
        grow(to: second)
        failedPerSecond[second] += delivery.failedAttempts
        if delivery.failedAttempts > 0 { sentAgain += 1 }
        guard delivery.status == .ok, let server = delivery.server else {
            failures += 1
            return
        }
        fixes += fixIDs.count
        perSecond[second][server] += fixIDs.count
        let first = firstServer[session] ?? server
        firstServer[session] = first
        if first != server { moves += 1 }
        if keepsAnswers {
            acknowledgedUploads[session, default: []].append(
                AcknowledgedUpload(fixIDs: fixIDs, body: delivery.body, server: server, moved: first != server))
        }
    }

    private func grow(to second: Int) {
        while perSecond.count <= second {
            perSecond.append(Array(repeating: 0, count: servers))
            failedPerSecond.append(0)
        }
    }

    var acknowledged: Int { fixes }

    func summary() -> LoadSummary {
        LoadSummary(
            latencies: latencies.sorted(), failures: failures, fixes: fixes, sentAgain: sentAgain, moves: moves,
            perSecond: perSecond, failedPerSecond: failedPerSecond)
    }
}

/// What a load run measured.
struct LoadSummary: Sendable {
    var latencies: [Double]
    var failures: Int
    var fixes: Int
    /// Uploads that reached a server only after another had failed.
    var sentAgain: Int = 0
    /// Uploads answered by another server than the session's first.
    var moves: Int = 0
    var perSecond: [[Int]] = []
    var failedPerSecond: [Int] = []
    var uploads: Int { latencies.count }

    func percentile(_ share: Double) -> Double? {
        guard !latencies.isEmpty else { return nil }
        return latencies[min(latencies.count - 1, Int((Double(latencies.count) * share).rounded(.down)))]
    }
}

/// A progress bar on stderr (when it is a terminal) while the phones stream.
struct LoadProgress: Sendable {
    let total: Int

    func run(start: ContinuousClock.Instant, clock: ContinuousClock, recorder: LoadRecorder) async {
        var bar = ProgressBar(label: "load", total: total)
        for second in 1...total {
            try? await Task.sleep(until: start.advanced(by: .seconds(second)), clock: clock)
            bar.update(second, detail: "\(await recorder.acknowledged) fixes acknowledged")
        }
        bar.finish()
    }
}
