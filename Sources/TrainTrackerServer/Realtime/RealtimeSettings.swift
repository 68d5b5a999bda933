import TrainTrackerCore
import TrainTrackerRealtime

/// Live delays in and out: the operators' GTFS-realtime feeds the server polls, and the feed
/// it publishes from its riders.
public struct RealtimeSettings: Sendable {
    /// The feeds to poll (http or https URLs), in the order given.
    public var sources: [String] = []
    /// How often each is polled.
    public var pollSeconds: Seconds = 30
    /// A feed whose header is older than this is dropped (and says so in `/metrics`).
    public var maximumAge: Seconds = 300
    /// After a failed poll, the next waits this long, doubling with each failure up to
    /// `longestBackoff`.
    public var firstBackoff: Seconds = 30
    /// The longest wait between polls of a failing feed.
    public var longestBackoff: Seconds = 600
    /// A train is published only when at least this many riders (devices) agree on it.
    public var minimumRiders = 2
    /// Riders' trains are given to other riders' trackers when at least this many riders
    /// agree on one (0: not shared).
    public var sharingRiders = 1
    /// Whether anyone may read the published feed; otherwise an admin's or a reader's token.
    public var isPublic = false
    /// A rider's answer counts this long after its fix.
    public var riderFreshness: Seconds = 120
    /// A rider counts for a train once its tracker has named it, sure of the line, this long.
    public var riderSteadiness: Seconds = 300
    /// A feed counts for fixes at most this old when they reach the server (older ones, an
    /// upload of a day's recording, are tracked as if no feed had been read).
    public var freshestFix: Seconds = 120
    /// The clock the feeds' ages, riders' sightings and the published feed go by (a test's,
    /// to serve a recorded day as if it were now).
    public var clock: @Sendable () -> Timestamp = { .now }

    /// The defaults: no feeds polled, riders' trains published from 2 riders for readers.
    public init() {}

    /// Whether a feed made at `time` speaks for the trains at `now`: no older than
    /// `maximumAge`, and not dated ahead of the clock by more than a clock's error (a feed from
    /// a clock gone wrong would otherwise never age out).
    public func isFresh(_ time: Timestamp, at now: Timestamp) -> Bool {
        !Self.isAhead(time, of: now) && now.seconds(since: time) <= maximumAge
    }

    /// Whether a feed made at `time` is dated ahead of the clock's `now` by more than a clock's
    /// error (`RealtimeFeedReader.clockTolerance`).
    public static func isAhead(_ time: Timestamp, of now: Timestamp) -> Bool {
        time.seconds(since: now) > RealtimeFeedReader.clockTolerance
    }
}

/// How a feed's URL is shown in logs, `/metrics` and errors: scheme, host and path, without
/// the query or credentials, which may hold an operator's key.
public enum LiveFeedLabel {
    /// `url` without its query, fragment and user info.
    public static func label(of url: String) -> String {
        var text = url
        if let query = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = String(text[..<query]) }
        if let scheme = text.range(of: "://") {
            // User info ends at the last "@" before the path (a password may hold "@").
            let authority = text[scheme.upperBound...].prefix { $0 != "/" }
            if let at = authority.lastIndex(of: "@") { text.removeSubrange(scheme.upperBound...at) }
        }
        return text
    }
}
