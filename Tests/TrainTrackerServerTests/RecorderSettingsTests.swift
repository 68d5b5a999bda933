import Foundation
import Testing
import TrainTrackerCore
import TrainTrackerServer
import TrainTrackerTestSupport

/// The recorder settings file: the defaults, overrides, and each mistake named.
@Suite struct RecorderSettingsTests {
    func parse(_ json: String) throws(ServerError) -> TrackingModeSettings {
        try RecorderSettings.parse(Data(json.utf8), path: "recorder.json")
    }

    @Test func theServersDefaultsAreTheTravelDiaryDefaults() throws {
        let parsed = try parse(RemoteConfiguration.defaultTracking)
        #expect(parsed == TrackingModeSettings())
        #expect(try parse("{}") == TrackingModeSettings())
    }

    @Test func givenValuesOverrideTheDefaults() throws {
        let parsed = try parse(
            #"{"thresholds": {"fastSpeedKilometresPerHour": 100, "activelyMovingTime": 30}, "modes": {"stopped": {"desiredAccuracy": 50}}}"#
        )
        #expect(abs(parsed.fastSpeed - 100 / 3.6) < 1e-9)
        #expect(parsed.activelyMovingTime == 30)
        #expect(parsed.desiredAccuracy[.stopped] == 50)
        #expect(parsed.startedTravellingDistance == 250, "the rest stay")
    }

    @Test(arguments: [
        (
            #"{"thresholds": {"fastSpeedKilometresPerHour": -5}}"#,
            "thresholds.fastSpeedKilometresPerHour must be a positive number"
        ),
        (#"{"thresholds": {"fastSpeed": 80}}"#, "thresholds.fastSpeed is not a setting"),
        (#"{"thresholds": {"activelyMovingTime": "twenty"}}"#, "thresholds.activelyMovingTime must be a positive number"),
        (#"{"modes": {"flying": {"desiredAccuracy": 5}}}"#, "modes.flying is not a mode"),
        (#"{"modes": {"stopped": {"desiredAccuracy": true}}}"#, "modes.stopped.desiredAccuracy must be a positive number"),
        (#"{"modes": []}"#, "modes must be an object"),
        (#"{"upload": {}}"#, "upload is not a setting"),
        (#"[1]"#, "not a JSON object"),
        (#"{"thresholds": "#, "not JSON"),
    ])
    func eachMistakeIsNamed(json: String, problem: String) {
        #expect {
            try parse(json)
        } throws: { error in
            "\(error)".hasPrefix("recorder.json: \(problem)")
        }
    }

    @Test func theServerRefusesASettingsFileWithABadThreshold() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("recorder.json")
        try #"{"thresholds": {"sameLocationDistance": 0}}"#.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(
            throws: ServerError.badConfiguration(path: path, problem: "thresholds.sameLocationDistance must be a positive number")
        ) {
            try RemoteConfiguration(path: path, limits: UploadLimits())
        }
    }
}
