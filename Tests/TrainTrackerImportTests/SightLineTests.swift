import Foundation
import Testing
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerTestSupport

/// Lines of sight over the real SRTM tiles of the Pyrenees around Andorra, named from the
/// real OpenStreetMap peaks.
@Suite(.tags(.sharedData)) struct SightLineTests {
    static var dem: String { SharedPaths.data.appendingPathComponent("dem").path }
    static let terrain = Result { () throws(ImportError) in try TerrainFiles.tiles(path: dem) }
    static let peaks = Result { () throws -> [Peak] in
        try TerrainFiles.peaks(path: dem + "/andorra-peaks.geojson", terrain: try terrain.get())
    }
    /// On the slopes above Andorra la Vella, eyes 1.6 m above the ground.
    static let observer = Coordinate(latitude: 42.5400, longitude: 1.4900)

    /// The heading and pitch from the observer's eye to a peak's summit on the terrain.
    static func aim(at peak: Peak, terrain: TileSet) throws -> SightQuery {
        let eye = try #require(terrain.elevation(at: observer)) + 1.6
        let summit = try #require(terrain.elevation(at: peak.coordinate))
        let range = observer.distance(to: peak.coordinate)
        let rise = summit - eye - (1 - 0.13) * range * range / (2 * 6_371_008.8)
        // Just below the summit, so that the line meets the mountain rather than grazing it.
        let pitch = atan(rise / range) * 180 / .pi - 0.05
        return SightQuery(observer: observer, heading: observer.bearing(to: peak.coordinate), pitch: pitch)
    }

    @Test func tilesAreReadZippedAndTheirVoidsNeverReadAsMinus32768() throws {
        let terrain = try Self.terrain.get()
        #expect(terrain.count == 2)
        let andorra = try #require(terrain.elevation(at: Coordinate(latitude: 42.5063, longitude: 1.5218)))
        #expect(andorra > 950 && andorra < 1_150, "Andorra la Vella lies at about 1,020 m")
        let estats = try #require(terrain.elevation(at: Coordinate(latitude: 42.666952, longitude: 1.3978986)))
        #expect(estats > 3_000 && estats < 3_200, "Pica d'Estats, 3,143 m")
        // Sampled across both tiles, nothing reads as a void value.
        var lowest = Double.infinity
        for step in 0..<2_000 {
            let point = Coordinate(latitude: 42.0 + Double(step % 40) / 40, longitude: 1.0 + Double(step / 40) / 50)
            if let value = terrain.elevation(at: point) { lowest = min(lowest, value) }
        }
        #expect(lowest > -500)
        #expect(terrain.elevation(at: Coordinate(latitude: 10, longitude: 10)) == nil, "outside the tiles: unknown")
    }

    @Test func anUnzippedTileReadsTheSameAsTheZippedOne() throws {
        let directory = try TemporaryDirectory()
        let unzip = Process()
        unzip.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
        unzip.arguments = ["-q", Self.dem + "/N43E007.hgt.zip", "-d", directory.path("")]
        try unzip.run()
        unzip.waitUntilExit()
        let plain = try TerrainFiles.tiles(path: directory.path("N43E007.hgt"))
        let zipped = try Self.terrain.get()
        for step in 0..<50 {
            let point = Coordinate(latitude: 43.01 + Double(step) / 51, longitude: 7.02 + Double(step % 7) / 7.5)
            #expect(plain.elevation(at: point) == zipped.elevation(at: point))
        }
    }

    @Test func aOneArcSecondTileIsReadAndInterpolated() throws {
        // 3601 × 3601 samples whose elevation is the row number from the north, with a void.
        let size = 3_601
        var bytes = [UInt8](repeating: 0, count: size * size * 2)
        for row in 0..<size {
            for column in 0..<size {
                let value = UInt16(row)
                bytes[2 * (row * size + column)] = UInt8(value >> 8)
                bytes[2 * (row * size + column) + 1] = UInt8(value & 0xff)
            }
        }
        let hole = 1_000 * size + 1_000
        (bytes[2 * hole], bytes[2 * hole + 1]) = (0x80, 0x00)
        let tile = try ElevationTile(latitude: 10, longitude: 20, bytes: bytes, name: "N10E020.hgt")
        #expect(tile.size == 3_601 && tile.filledVoids == 1 && tile.unknownVoids == 0)
        // Halfway between rows 1800 and 1801: 1800.5 m; the filled void reads as its neighbours.
        let point = Coordinate(latitude: 11 - 1_800.5 / 3_600, longitude: 20.5)
        #expect(abs((tile.elevation(at: point) ?? 0) - 1_800.5) < 1e-6)
        let void = Coordinate(latitude: 11 - 1_000.0 / 3_600, longitude: 20 + 1_000.0 / 3_600)
        #expect(abs((tile.elevation(at: void) ?? 0) - 1_000) < 1e-6)
    }

    @Test func aimingAtAVisiblePeakGivesThatPeakBack() throws {
        let terrain = try Self.terrain.get()
        let peaks = try Self.peaks.get()
        var checked = 0
        for peak in peaks where (3_000...25_000).contains(Self.observer.distance(to: peak.coordinate)) {
            let result = try SightLine.resolve(try Self.aim(at: peak, terrain: terrain), terrain: terrain, peaks: peaks)
            // Visible: the line reaches the summit rather than a nearer ridge.
            guard !result.fallback, result.hit.distance(to: peak.coordinate) < 400 else { continue }
            #expect(result.peak?.name == peak.name, "aimed at \(peak.name), named \(result.peak?.name ?? "none")")
            #expect((result.peakOffsetDegrees ?? 90) < 1)
            checked += 1
        }
        #expect(checked >= 3, "at least three peaks in view from above Andorra la Vella")
    }

    @Test func aPeakHiddenBehindANearerRidgeGivesTheRidge() throws {
        let terrain = try Self.terrain.get()
        let peaks = try Self.peaks.get()
        var hidden = 0
        for peak in peaks where (5_000...30_000).contains(Self.observer.distance(to: peak.coordinate)) {
            let result = try SightLine.resolve(try Self.aim(at: peak, terrain: terrain), terrain: terrain, peaks: peaks)
            let range = Self.observer.distance(to: peak.coordinate)
            guard !result.fallback, result.distance < range * 0.7 else { continue }
            // The line stops on the ridge in between, and does not name the hidden peak.
            #expect(result.peak?.name != peak.name)
            #expect(result.elevation > 1_500)
            hidden += 1
        }
        #expect(hidden >= 1)
    }

    @Test func aLineAboveTheHorizonFallsBackToTheHighestPointInView() throws {
        let terrain = try Self.terrain.get()
        var query = SightQuery(observer: Self.observer, heading: 10, pitch: 20)
        query.maximumDistance = 30_000
        let result = try SightLine.resolve(query, terrain: terrain)
        #expect(result.fallback)
        // No point along the heading appears higher than the one chosen.
        let eye = try #require(terrain.elevation(at: Self.observer)) + 1.6
        func angle(_ distance: Double, _ elevation: Double) -> Double {
            (elevation - eye - (1 - 0.13) * distance * distance / (2 * 6_371_008.8)) / distance
        }
        let chosen = angle(result.distance, result.elevation)
        for distance in stride(from: 50.0, through: 30_000, by: 50) {
            let point = Self.observer.destination(distance: distance, bearing: 10)
            guard let elevation = terrain.elevation(at: point) else { break }
            #expect(angle(distance, elevation) <= chosen + 1e-4)
        }
    }

    @Test func aLineThatLeavesTheTilesSaysSo() throws {
        let terrain = try Self.terrain.get()
        // Near the north edge of the N42E001 tile, looking north over the horizon.
        let query = SightQuery(observer: Coordinate(latitude: 42.97, longitude: 1.30), heading: 0, pitch: 10)
        let result = try SightLine.resolve(query, terrain: terrain)
        #expect(result.leftCoverage && result.fallback)
    }

    @Test func overTheCurvedEarthALongLineMeetsTheGroundFartherAway() throws {
        let terrain = try Self.terrain.get()
        // From 4,000 m looking south 4° down: the ground is met some 30 km away, where the
        // earth has curved away by about 90 m.
        var curved = SightQuery(observer: Self.observer, altitude: 4_000, heading: 180, pitch: -4)
        curved.maximumDistance = 50_000
        var flat = curved
        flat.refraction = 0
        let a = try SightLine.resolve(curved, terrain: terrain)
        let b = try SightLine.resolve(flat, terrain: terrain)
        #expect(!a.fallback && !b.fallback)
        #expect(b.distance > 20_000)
        #expect(a.distance - b.distance > 300, "curved \(a.distance) m, flat \(b.distance) m")
    }

    @Test func aTapRightOfCentreLooksRightAndUp() {
        var query = SightQuery(observer: Self.observer, heading: 90, pitch: 0)
        query.tap = SightQuery.Tap(x: 1, y: 0)
        query.fieldOfView = 60
        query.aspectRatio = 1
        let (heading, pitch) = query.direction
        #expect(abs(heading - 120) < 1e-9 && abs(pitch - 30) < 1e-9)
    }

    @Test func badArgumentsAndMissingTilesAreNamed() throws {
        let terrain = try Self.terrain.get()
        #expect(throws: TerrainError.self) {
            try SightLine.resolve(SightQuery(observer: Self.observer, heading: 0, pitch: 95), terrain: terrain)
        }
        #expect(throws: TerrainError.self) {
            try SightLine.resolve(
                SightQuery(observer: Coordinate(latitude: 10, longitude: 10), heading: 0, pitch: 0), terrain: terrain)
        }
        let directory = try TemporaryDirectory()
        #expect(throws: ImportError.self) { try TerrainFiles.tiles(path: directory.path("")) }
        let wrong = directory.path("N42E001.hgt")
        try Data(repeating: 0, count: 1_000).write(to: URL(fileURLWithPath: wrong))
        #expect {
            try TerrainFiles.tiles(path: wrong)
        } throws: { error in
            "\(error)".contains("neither a 1 nor a 3 arc-second tile")
        }
    }
}
