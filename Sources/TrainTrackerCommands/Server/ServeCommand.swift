import ArgumentParser
import Foundation
import Logging
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerServer
import TrainTrackerStorage

/// `traintracker serve`: the live tracking server and the Session Viewer.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the live tracking server and the Session Viewer.",
        discussion: """
            Phones upload fixes in batches and get the tracker's answer back; operators follow sessions \
            live (server-sent events) and look at them in the Session Viewer at /. Sessions are stored in \
            the Eki session schema (a file recorded on a phone can be served as it is), in WAL mode: a \
            batch is acknowledged only once committed. Tokens come from `traintracker token create`. \
            Prints "listening on http://HOST:PORT" on stderr once it accepts connections. SIGTERM or \
            SIGINT stops it within moments: live streams get a last `end` event, uploads in flight finish.
            """
    )

    @OptionGroup var railways: RailwaysOption

    @Option(
        help: ArgumentHelp(
            "The tracking algorithm each session runs: default (the trip model over the railway tracker; with timetables it names the rider's train and weighs each trip by what the --realtime operator feeds report of it), or railway (the railway tracker alone: about an eighth of the cost a fix).",
            valueName: "algorithm"))
    var algorithm: TrackingAlgorithmName = .default

    @OptionGroup var tripModel: TripParametersOption

    @Option(
        help: ArgumentHelp(
            "The session store: an SQLite file (created when missing) or a postgres://user@host/db address (several instances may share it).",
            valueName: "path-or-url"))
    var db: String

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port).")
    var port = 8080

    @Option(help: ArgumentHelp("The recorder settings JSON that GET /v1/config returns.", valueName: "file"))
    var config: String?

    @Option(help: "The most fixes or motion activities in one upload.")
    var maximumBatch = 1_000

    @Option(help: "The largest request body, in bytes.")
    var maximumBodyBytes = 1 << 20

    @Option(help: ArgumentHelp("Where Leaflet's leaflet.js and leaflet.css are.", valueName: "directory"))
    var leaflet = "/usr/share/javascript/leaflet"

    @Option(help: "The most sessions one device may have open at once.")
    var openSessionsPerDevice = 16

    @Option(help: ArgumentHelp("The most sessions one device may create in 24 hours.", valueName: "count"))
    var sessionsPerDevicePerDay = 500

    @Option(help: ArgumentHelp("The most requests one token may have in flight at once.", valueName: "count"))
    var requestsPerToken = 32

    @Option(help: ArgumentHelp("The most live streams one token may have open at once.", valueName: "count"))
    var streamsPerToken = 4

    @Option(help: ArgumentHelp("The most connections the server holds at once.", valueName: "count"))
    var maximumConnections = 4_096

    @Option(help: ArgumentHelp("Seconds a connection may stay silent before it is closed.", valueName: "seconds"))
    var idleTimeout = 30.0

    @Option(help: ArgumentHelp("How often a live stream sends a heartbeat comment.", valueName: "seconds"))
    var heartbeat = 15.0

    @Flag(help: "Mark the viewer's login cookie Secure (when the server is behind HTTPS).")
    var secureCookies = false

    @Option(help: ArgumentHelp("SRTM tiles for GET /v1/sight.", valueName: "directory"))
    var dem: String?

    @Option(help: ArgumentHelp("Named peaks (GeoJSON points) for GET /v1/sight.", valueName: "file"))
    var peaks: String?

    @Option(
        help: ArgumentHelp(
            "The viewer's base map: an XYZ tile server, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png (without: the loaded network alone, offline).",
            valueName: "url-template"))
    var tiles: String?

    @Option(help: ArgumentHelp("Who the --tiles map is by, shown on the map (its licence asks for it).", valueName: "text"))
    var tilesAttribution = ""

    @Option(
        help: ArgumentHelp(
            "How much to log on stderr: trace, debug (every upload), info (requests' errors, sessions created, ended, deleted), notice, warning, error, critical.",
            valueName: "level"))
    var logLevel = "info"

    @Option(
        help: ArgumentHelp(
            "An operator's GTFS-realtime feed to poll (repeatable): its delays and cancellations go to every session's tracker.",
            valueName: "url"))
    var realtime: [String] = []

    @Option(help: ArgumentHelp("How often each --realtime feed is polled.", valueName: "seconds"))
    var realtimeEvery = 30.0

    @Option(help: ArgumentHelp("A --realtime feed older than this (by its header) is dropped.", valueName: "seconds"))
    var realtimeMaxAge = 300.0

    @Option(
        help: ArgumentHelp(
            "A train is published at /v1/realtime/... only when at least this many riders (devices) agree on it.",
            valueName: "count"))
    var realtimeMinRiders = 2

    @Option(
        help: ArgumentHelp(
            "Riders' trains and delays are given to other riders' trackers when at least this many agree (0: not shared).",
            valueName: "count"))
    var realtimeShareRiders = 1

    @Option(
        help: ArgumentHelp(
            "A rider counts for its train once its tracker has named it, at least 90 % sure, for this long.",
            valueName: "seconds"))
    var realtimeSteadySeconds = 300.0

    @Flag(help: "Anyone may read the published feed (/v1/realtime/...); without, an admin's or a reader's token.")
    var realtimePublic = false

    @Option(
        help: ArgumentHelp(
            "Run the realtime clock (riders' fixes counted as live, feeds' ages) from this moment (ISO 8601) instead of now: a past day served as live, for demonstrations and load tests.",
            valueName: "time"))
    var realtimeClockFrom: String?

    func validate() throws {
        guard [.default, .railway].contains(algorithm) else {
            throw ValidationError(
                "--algorithm must be default or railway for serve (eki and schedule are baselines for replay and evaluate)")
        }
        try tripModel.validate(algorithms: [algorithm])
        if let realtimeClockFrom, Timestamp(parsing: realtimeClockFrom) == nil {
            throw ValidationError("--realtime-clock-from must be an ISO 8601 time, e.g. 2025-09-22T06:00:00Z")
        }
        for url in realtime {
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""),
                parsed.host?.isEmpty == false
            else { throw ValidationError("--realtime \(LiveFeedLabel.label(of: url)): not an http or https URL") }
        }
        guard (1...86_400).contains(realtimeEvery) else { throw ValidationError("--realtime-every must be 1 to 86400 seconds") }
        guard (1...86_400).contains(realtimeMaxAge) else {
            throw ValidationError("--realtime-max-age must be 1 to 86400 seconds")
        }
        guard (0...3_600).contains(realtimeSteadySeconds) else {
            throw ValidationError("--realtime-steady-seconds must be 0 to 3600 seconds")
        }
        guard (1...1_000).contains(realtimeMinRiders) else { throw ValidationError("--realtime-min-riders must be 1 to 1000") }
        guard (0...1_000).contains(realtimeShareRiders) else {
            throw ValidationError("--realtime-share-riders must be 0 to 1000")
        }
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard maximumBatch > 0 else { throw ValidationError("--maximum-batch must be positive") }
        guard maximumBodyBytes >= 1_024 else { throw ValidationError("--maximum-body-bytes must be at least 1024") }
        guard (1...100_000).contains(openSessionsPerDevice) else {
            throw ValidationError("--open-sessions-per-device must be 1 to 100000")
        }
        guard (1...10_000_000).contains(sessionsPerDevicePerDay) else {
            throw ValidationError("--sessions-per-device-per-day must be 1 to 10000000")
        }
        guard (1...10_000).contains(requestsPerToken) else { throw ValidationError("--requests-per-token must be 1 to 10000") }
        guard (1...1_000).contains(streamsPerToken) else { throw ValidationError("--streams-per-token must be 1 to 1000") }
        guard (1...1_000_000).contains(maximumConnections) else {
            throw ValidationError("--maximum-connections must be 1 to 1000000")
        }
        guard (1...86_400).contains(idleTimeout) else { throw ValidationError("--idle-timeout must be 1 to 86400 seconds") }
        guard (0.1...3_600).contains(heartbeat) else { throw ValidationError("--heartbeat must be 0.1 to 3600 seconds") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be trace, debug, info, notice, warning, error or critical")
        }
        if let tiles {
            do throws(ServerError) {
                _ = try TileSource(template: tiles, attribution: tilesAttribution)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    /// The `--tiles` source, checked.
    private var tileSource: TileSource? {
        get throws {
            guard let tiles else { return nil }
            return try CommandFailure.wrapping { () throws(ServerError) in
                try TileSource(template: tiles, attribution: tilesAttribution)
            }
        }
    }

    func run() async throws {
        let limits = UploadLimits(maximumBatch: maximumBatch, maximumBodyBytes: maximumBodyBytes)
        let remote: RemoteConfiguration
        if let config {
            remote = try CommandFailure.wrapping { () throws(ServerError) in
                try RemoteConfiguration(path: config, limits: limits)
            }
        } else {
            remote = RemoteConfiguration(limits: limits)
        }
        // Everything read and checked before the session file is opened (or created).
        var terrain: TileSet?
        var namedPeaks: [Peak] = []
        if let dem {
            let tiles = try CommandFailure.wrapping { () throws(ImportError) in try TerrainFiles.tiles(path: dem) }
            terrain = tiles
            if let peaks {
                namedPeaks = try CommandFailure.wrapping { () throws(ImportError) in
                    try TerrainFiles.peaks(path: peaks, terrain: tiles)
                }
            }
        }
        let trips = algorithm == .default ? try tripModel.load() : nil
        let model = try railways.loadModel(timetables: true)
        if tripModel.parameters != nil, !model.hasTimetable {
            StandardError.line(
                "warning: \(railways.railways) has no timetable: the trip model's --parameters go unused (the railway tracker answers)"
            )
        }
        let store = try await SessionStores.open(db)
        var settings = ServerSettings(model: model, store: store, configuration: remote, leafletDirectory: leaflet)
        settings.terrain = terrain
        settings.trips = trips
        settings.peaks = namedPeaks
        settings.limits.openSessionsPerDevice = openSessionsPerDevice
        settings.limits.requestsPerToken = requestsPerToken
        settings.limits.sessionsPerDevicePerDay = sessionsPerDevicePerDay
        settings.limits.streamsPerToken = streamsPerToken
        settings.limits.connections = maximumConnections
        settings.limits.idleTimeoutSeconds = idleTimeout
        settings.limits.heartbeatSeconds = heartbeat
        settings.secureCookies = secureCookies
        settings.tiles = try tileSource
        settings.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        settings.realtime.sources = realtime
        settings.realtime.pollSeconds = realtimeEvery
        settings.realtime.maximumAge = realtimeMaxAge
        settings.realtime.minimumRiders = realtimeMinRiders
        settings.realtime.riderSteadiness = realtimeSteadySeconds
        settings.realtime.sharingRiders = realtimeShareRiders
        settings.realtime.isPublic = realtimePublic
        if let start = realtimeClockFrom.flatMap(Timestamp.init(parsing:)) {
            // The clock runs on from `start` as the machine's does.
            let offset = start.seconds(since: .now)
            settings.realtime.clock = { Timestamp.now.adding(offset) }
        }
        let script = leaflet + "/" + ServerSettings.leafletScript
        if !FileManager.default.fileExists(atPath: script) {
            // Phones are served either way; only the viewer's map needs it.
            StandardError.line(
                "warning: \(script) not found: the Session Viewer will show no map (install libjs-leaflet or pass --leaflet)")
        }
        let host = host
        try await runServer(settings, host: host, port: port) { port in
            StandardError.line("listening on http://\(host):\(port)")
        }
    }
}
