import Foundation
import Testing
import TrainTrackerTestSupport

/// `traintracker sight` on the real Pyrenees tiles.
@Suite(.tags(.sharedData)) struct SightCommandTests {
    static var dem: String { SharedPaths.data.appendingPathComponent("dem").path }

    @Test func theJSONAnswerHasExactlyTheAgreedKeys() throws {
        let outcome = try ToolRunner.run([
            "sight", "--lat", "42.54", "--lon", "1.49", "--heading", "35", "--pitch", "2", "--dem", Self.dem, "--peaks",
            Self.dem + "/andorra-peaks.geojson", "--format", "json",
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["hit", "distance", "fallback", "peak"])
        let hit = try #require(object["hit"] as? [String: Any])
        #expect(Set(hit.keys) == ["latitude", "longitude", "elevation"])
        #expect(object["fallback"] is Bool)
        if let peak = object["peak"] as? [String: Any] {
            #expect(Set(peak.keys) == ["name", "latitude", "longitude", "elevation", "offsetDegrees"])
        } else {
            #expect(object["peak"] is NSNull)
        }
    }

    @Test func theTextAnswerSaysWhereAndWhatAndATapTurnsTheLine() throws {
        let base = ["sight", "--lat", "42.54", "--lon", "1.49", "--heading", "35", "--pitch", "-1", "--dem", Self.dem]
        let centre = try ToolRunner.run(base)
        #expect(centre.status == 0)
        #expect(centre.standardOutput.hasPrefix("looking at "))
        // A tap at the top right corner of the view looks right and up: somewhere else.
        let tapped = try ToolRunner.run(base + ["--tap-x", "1", "--tap-y", "0", "--fov", "60", "--aspect", "1.5"])
        #expect(tapped.status == 0 && tapped.standardOutput != centre.standardOutput)
    }

    @Test func badArgumentsAndMissingTilesAreNamed() throws {
        let pitch = try ToolRunner.run([
            "sight", "--lat", "42.5", "--lon", "1.5", "--heading", "0", "--pitch", "95", "--dem", Self.dem,
        ])
        #expect(pitch.status != 0 && pitch.status != 2)
        #expect(pitch.standardError.contains("--pitch must be -90 to 90 degrees"))
        let directory = try TemporaryDirectory()
        let empty = try ToolRunner.run([
            "sight", "--lat", "42.5", "--lon", "1.5", "--heading", "0", "--pitch", "0", "--dem", directory.path(""),
        ])
        #expect(empty.status == 2)
        #expect(empty.standardError.contains("no SRTM tiles"))
        let outside = try ToolRunner.run([
            "sight", "--lat", "10", "--lon", "10", "--heading", "0", "--pitch", "0", "--dem", Self.dem,
        ])
        #expect(outside.status == 2)
        #expect(outside.standardError.contains("observer has no elevation data under it"))
    }
}
