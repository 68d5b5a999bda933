import Foundation
import TrainTrackerCore

/// What the server accepts from a phone in one request.
public struct UploadLimits: Hashable, Sendable, Codable {
    /// The most fixes (or motion activities) in one batch.
    public var maximumBatch: Int
    /// The largest request body, in bytes.
    public var maximumBodyBytes: Int

    /// The limits: 1,000 items and 1 MiB per request.
    public init(maximumBatch: Int = 1_000, maximumBodyBytes: Int = 1 << 20) {
        self.maximumBatch = maximumBatch
        self.maximumBodyBytes = maximumBodyBytes
    }
}

/// What one client may hold of the server, and how long anything waits. Each has a reason a
/// client gets when it goes over (413 or 429 with the limit named).
public struct ServerLimits: Hashable, Sendable {
    /// The most sessions a device may have open (not ended, with an upload in the last
    /// `sessionIdleSeconds`); one more is refused with 429.
    public var openSessionsPerDevice = 16
    /// A session with no upload for this long no longer counts as open, and its tracker
    /// leaves memory (it is rebuilt from the store when needed).
    public var sessionIdleSeconds: Seconds = 3_600
    /// The most sessions a device may create in 24 hours, ended or not.
    public var sessionsPerDevicePerDay = 500
    /// The most fixes one session may hold (55 hours at one a second); more is refused with 413.
    public var fixesPerSession = 200_000
    /// The most trackers held in memory at once; the least recently used leave first.
    public var trackersInMemory = 10_000
    /// The longest session, fix or motion activity id, in UTF-8 bytes.
    public var maximumIDBytes = 128
    /// The most requests one token may have in flight at once.
    public var requestsPerToken = 32
    /// The most live streams one token may have open at once.
    public var streamsPerToken = 4
    /// The most connections the server holds; more wait in the backlog.
    public var connections = 4_096
    /// A connection that sends nothing for this long is closed (idle and read timeout).
    public var idleTimeoutSeconds: Seconds = 30
    /// A live stream sends a comment this often, so a client that vanished without closing
    /// its connection is noticed.
    public var heartbeatSeconds: Seconds = 15
    /// How long a viewer login lasts.
    public var viewerLoginSeconds: Seconds = 43_200

    /// The defaults.
    public init() {}
}

/// The recorder's settings that `GET /v1/config` hands to phones, so their behaviour changes
/// without an app release: the tracking-mode thresholds (from the `--config` file) and the
/// server's upload limits.
public struct RemoteConfiguration: Sendable {
    /// The settings file's JSON object, as given (or the defaults).
    public let tracking: String
    /// The limits the server enforces.
    public let limits: UploadLimits

    /// The travel-diary recorder's defaults: accuracy asked for per mode and the thresholds
    /// between modes.
    public static let defaultTracking = RecorderSettings.json(TrackingModeSettings())

    /// The defaults with `limits`.
    public init(limits: UploadLimits) {
        self.tracking = Self.defaultTracking
        self.limits = limits
    }

    /// Reads the settings file at `path`: a JSON object.
    ///
    /// - Throws: `ServerError.badConfiguration` naming the file when it cannot be read or is
    ///   not a JSON object.
    public init(path: String, limits: UploadLimits) throws(ServerError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .badConfiguration(path: path, problem: "no such file")
        }
        // Checked as the recorder will read it: the modes, thresholds and energy model.
        _ = try RecorderSettings.parse(data, path: path)
        self.tracking = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        self.limits = limits
    }

    /// The body of `GET /v1/config`, with the limits a phone must keep to.
    func json(_ server: ServerLimits) -> String {
        """
        {"tracking":\(tracking),"upload":{"maximumBatch":\(limits.maximumBatch),\
        "maximumBodyBytes":\(limits.maximumBodyBytes),"maximumIDBytes":\(server.maximumIDBytes),\
        "openSessionsPerDevice":\(server.openSessionsPerDevice),"requestsPerToken":\(server.requestsPerToken)}}
        """
    }
}

/// Why the server cannot start or a request cannot be served.
public enum ServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The `--config` file cannot be used.
    case badConfiguration(path: String, problem: String)
    /// The `--tiles` template cannot be used.
    case badTiles(template: String, problem: String)

    /// One line saying what is wrong.
    public var description: String {
        switch self {
        case .badConfiguration(let path, let problem): "\(path): \(problem)"
        case .badTiles(let template, let problem): "--tiles \(template): \(problem)"
        }
    }
}
