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
        let sparse = try parse(#"{"modes": {"inFastVehicle": {"fixInterval": 30, "desiredAccuracy": 100}}}"#)
        #expect(sparse.fixInterval[.inFastVehicle] == 30 && sparse.desiredAccuracy[.inFastVehicle] == 100)
        // Written out and read back, the settings are the same.
        #expect(try parse(RecorderSettings.json(sparse)) == sparse)
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
        (#"{"modes": {"inFastVehicle": {"fixInterval": 0}}}"#, "modes.inFastVehicle.fixInterval must be a positive number"),
        (#"{"modes": {"inFastVehicle": {"fixInterval": 86400}}}"#, "modes.inFastVehicle.fixInterval must be at most 3600 s"),
        (#"{"modes": {"stopped": {"interval": 10}}}"#, "modes.stopped.interval is not a setting"),
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
