import Foundation
import Logging
import Synchronization
import TrainTrackerCore
import TrainTrackerStorage

/// What the server needs to answer: the prepared network, the store, the live trackers, the
/// remote configuration, and a cache of the tokens seen.
public struct ServerSettings: Sendable {
    /// The network and its timetables, prepared for the tracker (the timetable compiled).
    public var model: TrackerModel
    /// The session store (`SessionDatabase.openStore`).
    public var store: any SessionStore
    /// What `GET /v1/config` returns.
    public var configuration: RemoteConfiguration
    /// Where Leaflet's files are (Debian's `libjs-leaflet`).
    public var leafletDirectory: String
    /// Leaflet's script and style sheet, the files the viewer serves from `leafletDirectory`.
    public static let leafletScript = "leaflet.js"
    public static let leafletStyle = "leaflet.css"
    /// Elevation data and named peaks for `GET /v1/sight`, if the server has them.
    public var terrain: TileSet?
    public var peaks: [Peak] = []
    /// What one client may hold, and the timeouts.
    public var limits = ServerLimits()
    /// Whether the viewer's login cookie is marked `Secure` (behind HTTPS).
    public var secureCookies = false
    /// The viewer's base map tiles; without, the viewer draws the loaded network alone.
    public var tiles: TileSource?
    /// The operator feeds it polls and the feed it publishes from riders.
    public var realtime = RealtimeSettings()
    /// The trip model's constants: sessions run the default tracker (`TripTracker`, the trip
    /// model over the railway tracker) with them; nil: the railway tracker alone
    /// (`serve --algorithm railway`).
    public var trips: TripModelParameters? = TripModelParameters()
    /// How much the server logs (standard error): each request with its id, and session
    /// changes with the session and device (never a token) at `info`; each upload at `debug`.
    public var logLevel: Logger.Level = .info
    /// Where the log goes: the process's logging system (standard error), unless a handler
    /// is given (a test's, to read what was logged).
    public var logHandler: (@Sendable (String) -> any LogHandler)?

    /// The settings; Leaflet from Debian's package location.
    public init(
        model: TrackerModel, store: any SessionStore, configuration: RemoteConfiguration,
        leafletDirectory: String = "/usr/share/javascript/leaflet"
    ) {
        self.model = model
        self.store = store
        self.configuration = configuration
        self.leafletDirectory = leafletDirectory
    }

    /// The settings for `dataset`, prepared for the tracker here.
    public init(
        dataset: TransitDataset, store: any SessionStore, configuration: RemoteConfiguration,
        leafletDirectory: String = "/usr/share/javascript/leaflet"
    ) {
        self.init(
            model: TrackerModel(dataset: dataset), store: store, configuration: configuration,
            leafletDirectory: leafletDirectory)
    }
}

/// Shared by every request handler.
final class ServerState: Sendable {
    let settings: ServerSettings
    let model: TrackerModel
    let live: LiveSessions
    let board: LiveBoard
    let writer: GroupCommit
    let viewerLogins: ViewerLogins
    let requestsInFlight = RequestsInFlight()
    let metrics = ServerMetrics()
    let logger: Logger
    /// Session → the device that created it, for sessions already looked up (owners never change).
    private let owners = Mutex<[String: String]>([:])
    /// Session → the railway the tracker named most often, with the fix count it was found at.
    private let detected = Mutex<[String: (fixes: Int, railway: String?)]>([:])
    /// `GET /v1/network`'s answer, once worked out.
    private let wholeNetwork = Mutex<String?>(nil)

    init(settings: ServerSettings) {
        self.settings = settings
        model = settings.model
        board = LiveBoard(model: model, settings: settings.realtime, trips: settings.trips)
        live = LiveSessions(settings: settings, board: board)
        writer = GroupCommit(store: settings.store, metrics: metrics)
        viewerLogins = ViewerLogins(lifetime: settings.limits.viewerLoginSeconds)
        var logger = settings.logHandler.map { Logger(label: "traintracker", factory: $0) } ?? Logger(label: "traintracker")
        logger.logLevel = settings.logLevel
        self.logger = logger
    }

    var store: any SessionStore { settings.store }
    var uploadLimits: UploadLimits { settings.configuration.limits }
    var limits: ServerLimits { settings.limits }

    /// The railway detected for session `id`, and the fix count it was found at, if worked out before.
    func detectedRailway(of id: String) -> (fixes: Int, railway: String?)? {
        detected.withLock { $0[id] }
    }

    /// Remembers the railway detected for session `id` at `fixes` fixes.
    func remember(railway: String?, of id: String, fixes: Int) {
        detected.withLock { $0[id] = (fixes, railway) }
    }

    /// The whole network for the viewer's base map (`SessionResults.wholeNetwork`), worked out once.
    var baseMap: String {
        if let known = wholeNetwork.withLock({ $0 }) { return known }
        let made = SessionResults(state: self).wholeNetwork()
        wholeNetwork.withLock { $0 = made }
        return made
    }

    /// Remembers that device `owner` created session `id` now (replacing what a deleted
    /// session of that id left).
    func remember(owner: String, ofSession id: String) {
        owners.withLock { $0[id] = owner }
        detected.withLock { $0[id] = nil }
    }

    /// Forgets what was cached of session `id` (it was deleted).
    func forget(session id: String) {
        owners.withLock { $0[id] = nil }
        detected.withLock { $0[id] = nil }
    }

    /// The device that created session `id` on this server, from the cache or the store.
    func owner(ofSession id: String) async throws(StorageError) -> String? {
        if let owner = owners.withLock({ $0[id] }) { return owner }
        guard let owner = try await store.owner(ofSession: id) else { return nil }
        owners.withLock { $0[id] = owner }
        return owner
    }
}
