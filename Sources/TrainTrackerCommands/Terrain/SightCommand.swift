import ArgumentParser
import Foundation
import TrainTrackerCore
import TrainTrackerImport

/// `traintracker sight`: what the camera is looking at.
struct SightCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sight",
        abstract: "Find the point on the ground a camera looks at, over real terrain, and name the peak there.",
        discussion: """
            Marches along the line of sight (10 m steps, over the earth's curvature less refraction) until \
            it passes below the terrain of the SRTM tiles in --dem, and refines the crossing; beyond \
            --max-distance, or when the line leaves the tiles, it falls back to the highest point in view \
            along the heading (the largest elevation angle). --tap-x and --tap-y (0 to 1 from the left and \
            the top of the view) with --fov and --aspect turn the tapped point's direction into heading \
            and pitch. --format json prints exactly {"hit": {"latitude", "longitude", "elevation"}, \
            "distance", "fallback", "peak": {"name", "latitude", "longitude", "elevation", \
            "offsetDegrees"} or null}.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(parsing: .unconditional, help: "Observer latitude, degrees.") var lat: Double
    @Option(parsing: .unconditional, help: "Observer longitude, degrees.") var lon: Double
    @Option(parsing: .unconditional, help: "Eye altitude above sea level, metres (default: ground + 1.6 m).") var alt: Double?
    @Option(help: "Heading, degrees clockwise from true north.") var heading: Double
    @Option(parsing: .unconditional, help: "Pitch, degrees up from the horizontal (-90 to 90).") var pitch: Double
    @Option(help: "Tap position across the view, 0 (left) to 1 (right).") var tapX: Double?
    @Option(help: "Tap position down the view, 0 (top) to 1 (bottom).") var tapY: Double?
    @Option(help: "Horizontal field of view, degrees.") var fov: Double = 60
    @Option(help: "View width / height.") var aspect: Double = 4.0 / 3.0
    @Option(help: ArgumentHelp("A folder of SRTM tiles (.hgt or .hgt.zip).", valueName: "directory")) var dem: String
    @Option(help: ArgumentHelp("Named peaks, GeoJSON points.", valueName: "file")) var peaks: String?
    @Option(help: "March step, metres.") var step: Double = 10
    @Option(help: "Farthest distance followed, metres.") var maxDistance: Double = 50_000
    @Option(help: "Refraction coefficient (0: the flat model of the original app).") var refraction: Double = 0.13
    @Option(help: "text or json.") var format: Format = .text
    @Option(help: "Resolve the line this many times and print the time per line on stderr (a benchmark).")
    var repeatCount: Int = 1

    /// The options each of `SightQuery.check()`'s names stands for.
    static let optionNames = [
        "observer": "--lat and --lon", "heading": "--heading", "pitch": "--pitch", "altitude": "--alt",
        "tap": "--tap-x and --tap-y",
        "field of view": "--fov", "aspect ratio": "--aspect", "refraction": "--refraction", "step": "--step",
    ]

    /// A query's problem as the options to change: `--alt must be −12,000 to 100,000 m`.
    static func optionMessage(_ error: TerrainError) -> String {
        guard case .badArgument(let name, let problem) = error else { return error.description }
        return "\(optionNames[name] ?? name) \(problem)"
    }

    func validate() throws {
        guard (-90...90).contains(lat), (-180...180).contains(lon) else {
            throw ValidationError("--lat and --lon must be a position")
        }
        guard (-90...90).contains(pitch) else { throw ValidationError("--pitch must be -90 to 90 degrees, got \(pitch)") }
        guard heading.isFinite else { throw ValidationError("--heading must be a number of degrees") }
        guard (tapX == nil) == (tapY == nil) else { throw ValidationError("give both --tap-x and --tap-y, or neither") }
        if let tapX, let tapY, !((0...1).contains(tapX) && (0...1).contains(tapY)) {
            throw ValidationError("--tap-x and --tap-y must be 0 to 1")
        }
        guard fov > 0, fov < 180, aspect > 0 else {
            throw ValidationError("--fov must be 0 to 180 degrees and --aspect positive")
        }
        // At most a few hundred thousand steps: a step of 1e-300 m would march for ever.
        guard (0.5...1_000).contains(step), maxDistance > step else {
            throw ValidationError("--step must be 0.5 to 1000 metres and below --max-distance")
        }
        guard repeatCount > 0 else { throw ValidationError("--repeat-count must be at least 1") }
        guard (0..<1).contains(refraction) else { throw ValidationError("--refraction must be 0 to below 1") }
    }

    func run() throws {
        let terrain = try CommandFailure.wrapping { () throws(ImportError) in try TerrainFiles.tiles(path: dem) }
        let named =
            try peaks.map { path throws(CommandFailure) in
                try CommandFailure.wrapping { () throws(ImportError) in try TerrainFiles.peaks(path: path, terrain: terrain) }
            } ?? []
        var query = SightQuery(observer: Coordinate(latitude: lat, longitude: lon), altitude: alt, heading: heading, pitch: pitch)
        if let tapX, let tapY { query.tap = SightQuery.Tap(x: tapX, y: tapY) }
        query.fieldOfView = fov
        query.aspectRatio = aspect
        query.step = step
        query.maximumDistance = maxDistance
        query.refraction = refraction
        // What the command line gave, against the core's ranges (an altitude of nan or 1e300).
        do {
            try query.check()
        } catch {
            throw CommandFailure(Self.optionMessage(error))
        }
        var result: SightResult?
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            for _ in 0..<repeatCount {
                do {
                    result = try SightLine.resolve(query, terrain: terrain, peaks: named)
                } catch let error as TerrainError {
                    throw CommandFailure("\(dem): \(error)")
                }
            }
        }
        guard let result else { return }
        if repeatCount > 1 {
            let (seconds, attoseconds) = elapsed.components
            let microseconds = (Double(seconds) * 1e6 + Double(attoseconds) / 1e12) / Double(repeatCount)
            StandardError.line(
                String(format: "%.1f µs per line of sight (%d lines, %.0f m)", microseconds, repeatCount, result.distance))
        }
        let output = OutputSink.standardOutput()
        switch format {
        case .json: output.line(result.json)
        case .text:
            output.line(
                String(
                    format: "%@ %.5f, %.5f, ground %.0f m, %.0f m away",
                    result.fallback ? "highest point in view:" : "looking at",
                    result.hit.latitude, result.hit.longitude, result.elevation, result.distance))
            if result.leftCoverage { output.line("the line of sight left the elevation data (\(dem)) before meeting the ground") }
            if let peak = result.peak, let offset = result.peakOffsetDegrees {
                output.line(String(format: "peak: %@ (%.0f m), %.1f° off the line of sight", peak.name, peak.elevation, offset))
            } else if !named.isEmpty {
                output.line("no named peak near")
            }
        }
        output.flush()
    }
}
