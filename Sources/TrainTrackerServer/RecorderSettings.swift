import Foundation
import TrainTrackerCore

/// The recorder's settings file, the object `GET /v1/config` hands out as `tracking`:
///
///     {"modes": {"activelyMoving": {"desiredAccuracy": 10, "fixInterval": 1, "milliwatts": 130}, ...},
///      "thresholds": {"startedTravellingDistance": 250, "fastSpeedKilometresPerHour": 80, ...},
///      "energy": {"alwaysOnMilliwatts": 160, "modeChangeMilliwattHours": 0.4}}
///
/// Every part is optional (the travel-diary defaults fill in); a part that is there must be
/// right, or the file is refused with the key at fault.
public enum RecorderSettings {
    /// The longest interval between fixes a mode may ask for: an hour.
    static let longestFixInterval: Seconds = 3_600

    /// The threshold keys, with how each is read from and written into the settings.
    static let thresholds:
        [(
            key: String, read: @Sendable (TrackingModeSettings) -> Double,
            apply: @Sendable (inout TrackingModeSettings, Double) -> Void
        )] = [
            ("startedTravellingDistance", { $0.startedTravellingDistance }, { $0.startedTravellingDistance = $1 }),
            ("stoppedMovingStationaryTime", { $0.stoppedMovingStationaryTime }, { $0.stoppedMovingStationaryTime = $1 }),
            ("sameLocationDistance", { $0.sameLocationDistance }, { $0.sameLocationDistance = $1 }),
            ("stopMovingSameLocationTime", { $0.stopMovingSameLocationTime }, { $0.stopMovingSameLocationTime = $1 }),
            ("fastSpeedKilometresPerHour", { $0.fastSpeed * 3.6 }, { $0.fastSpeed = $1 / 3.6 }),
            ("inVehicleOrStationaryTime", { $0.inVehicleOrStationaryTime }, { $0.inVehicleOrStationaryTime = $1 }),
            ("activelyMovingTime", { $0.activelyMovingTime }, { $0.activelyMovingTime = $1 }),
            ("modeMinimumTime", { $0.modeMinimumTime }, { $0.modeMinimumTime = $1 }),
            ("stoppedConfirmationTime", { $0.stoppedConfirmationTime }, { $0.stoppedConfirmationTime = $1 }),
            ("stoppedRadius", { $0.stoppedRadius }, { $0.stoppedRadius = $1 }),
        ]

    /// `settings` as a settings file: every mode, threshold and the energy model, in a fixed
    /// order, whole numbers without a decimal point.
    public static func json(_ settings: TrackingModeSettings) -> String {
        func number(_ value: Double) -> String {
            let rounded = (value * 1_000_000).rounded() / 1_000_000
            return rounded == rounded.rounded() && abs(rounded) < 1e15 ? "\(Int(rounded))" : "\(rounded)"
        }
        let modes = TrackingMode.allCases.map { mode in
            "\"\(mode.rawValue)\":{\"desiredAccuracy\":\(number(settings.desiredAccuracy[mode] ?? 0)),"
                + "\"fixInterval\":\(number(settings.fixInterval[mode] ?? 1)),"
                + "\"milliwatts\":\(number(settings.milliwatts[mode] ?? 0))}"
        }
        let thresholds = thresholds.map { "\"\($0.key)\":\(number($0.read(settings)))" }
        return "{\"modes\":{" + modes.joined(separator: ",") + "},\"thresholds\":{" + thresholds.joined(separator: ",")
            + "},\"energy\":{\"alwaysOnMilliwatts\":\(number(settings.alwaysOnMilliwatts)),"
            + "\"modeChangeMilliwattHours\":\(number(settings.modeChangeMilliwattHours))}}"
    }

    /// Reads and checks the settings file at `path`.
    ///
    /// - Throws: `ServerError.badConfiguration` naming the file and the key at fault.
    public static func load(path: String) throws(ServerError) -> TrackingModeSettings {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .badConfiguration(path: path, problem: "no such file")
        }
        return try parse(data, path: path)
    }

    /// Checks settings given as JSON; `path` names them in errors.
    public static func parse(_ data: Data, path: String) throws(ServerError) -> TrackingModeSettings {
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw ServerError.badConfiguration(path: path, problem: "not a JSON object")
            }
            object = parsed
        } catch let error as ServerError {
            throw error
        } catch {
            throw .badConfiguration(path: path, problem: "not JSON")
        }
        func fail(_ problem: String) -> ServerError { .badConfiguration(path: path, problem: problem) }
        func positive(_ value: Any?, _ key: String) throws(ServerError) -> Double {
            guard let number = value as? NSNumber, !(value is Bool), number.doubleValue > 0, number.doubleValue.isFinite else {
                throw fail("\(key) must be a positive number")
            }
            return number.doubleValue
        }
        func section(_ name: String) throws(ServerError) -> [String: Any] {
            guard let value = object[name] else { return [:] }
            guard let dictionary = value as? [String: Any] else { throw fail("\(name) must be an object") }
            return dictionary
        }
        if let unknown = object.keys.sorted().first(where: { !["modes", "thresholds", "energy"].contains($0) }) {
            throw fail("\(unknown) is not a setting (known: modes, thresholds, energy)")
        }
        var settings = TrackingModeSettings()
        var repriced: Set<TrackingMode> = []
        for (name, value) in try section("modes").sorted(by: { $0.key < $1.key }) {
            guard let mode = TrackingMode(rawValue: name) else {
                throw fail(
                    "modes.\(name) is not a mode (known: \(TrackingMode.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            guard let fields = value as? [String: Any] else { throw fail("modes.\(name) must be an object") }
            // A request given without its price is priced by the power model.
            if fields["milliwatts"] == nil, fields["desiredAccuracy"] != nil || fields["fixInterval"] != nil {
                repriced.insert(mode)
            }
            for (field, number) in fields.sorted(by: { $0.key < $1.key }) {
                switch field {
                case "desiredAccuracy": settings.desiredAccuracy[mode] = try positive(number, "modes.\(name).desiredAccuracy")
                case "milliwatts": settings.milliwatts[mode] = try positive(number, "modes.\(name).milliwatts")
                case "fixInterval":
                    let interval = try positive(number, "modes.\(name).fixInterval")
                    guard interval <= Self.longestFixInterval else {
                        throw fail("modes.\(name).fixInterval must be at most \(Int(Self.longestFixInterval)) s")
                    }
                    settings.fixInterval[mode] = interval
                default: throw fail("modes.\(name).\(field) is not a setting (known: desiredAccuracy, fixInterval, milliwatts)")
                }
            }
        }
        let prices = settings.priced(by: LocationPowerModel())
        for mode in repriced { settings.milliwatts[mode] = prices[mode] }
        let given = try section("thresholds")
        for key in given.keys.sorted() where !thresholds.contains(where: { $0.key == key }) {
            throw fail("thresholds.\(key) is not a setting (known: \(thresholds.map(\.key).joined(separator: ", ")))")
        }
        for threshold in thresholds {
            if let value = given[threshold.key] { threshold.apply(&settings, try positive(value, "thresholds.\(threshold.key)")) }
        }
        for (key, value) in try section("energy").sorted(by: { $0.key < $1.key }) {
            switch key {
            case "alwaysOnMilliwatts": settings.alwaysOnMilliwatts = try positive(value, "energy.alwaysOnMilliwatts")
            case "modeChangeMilliwattHours":
                settings.modeChangeMilliwattHours = try positive(value, "energy.modeChangeMilliwattHours")
            default: throw fail("energy.\(key) is not a setting (known: alwaysOnMilliwatts, modeChangeMilliwattHours)")
            }
        }
        return settings
    }
}
