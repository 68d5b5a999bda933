import TrainTrackerCore
import TrainTrackerStorage

/// `POST /v1/sessions`: all fields optional; the server fills in an id and now.
struct SessionCreation: Decodable {
    var id: String?
    var startDate: String?
    var notes: String?
}

/// One fix as a phone uploads it: the Eki `locations` columns. Fields a phone could not
/// measure are absent or null. Decoding never fails on a field: a value of the wrong type
/// reads as missing, so a malformed fix is skipped and counted, not the whole batch refused.
struct LocationPayload: Decodable {
    var id: String?
    var latitude: Double?
    var longitude: Double?
    var altitude: Double?
    var timestamp: String?
    var horizontalAccuracy: Double?
    var course: Double?
    var speed: Double?

    private enum CodingKeys: String, CodingKey {
        case id, latitude, longitude, altitude, timestamp, horizontalAccuracy, course, speed
    }

    init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: CodingKeys.self) else { return }
        id = try? container.decodeIfPresent(String.self, forKey: .id)
        latitude = try? container.decodeIfPresent(Double.self, forKey: .latitude)
        longitude = try? container.decodeIfPresent(Double.self, forKey: .longitude)
        altitude = try? container.decodeIfPresent(Double.self, forKey: .altitude)
        timestamp = try? container.decodeIfPresent(String.self, forKey: .timestamp)
        horizontalAccuracy = try? container.decodeIfPresent(Double.self, forKey: .horizontalAccuracy)
        course = try? container.decodeIfPresent(Double.self, forKey: .course)
        speed = try? container.decodeIfPresent(Double.self, forKey: .speed)
    }

    /// The fix for the sanitizer, or nil without an id (nothing to store it under).
    var raw: RawFix? {
        guard let id, !id.isEmpty else { return nil }
        return RawFix(
            id: id, latitude: latitude, longitude: longitude, timestamp: timestamp ?? "",
            horizontalAccuracy: horizontalAccuracy, speed: speed, course: course, altitude: altitude)
    }
}

/// `POST /v1/sessions/{id}/locations`.
struct LocationBatch: Decodable {
    var locations: [LocationPayload]
}

/// One motion activity sample as uploaded (the Eki `motionActivities` columns), decoded as
/// leniently as a fix: a sample without a readable id, start date or confidence is skipped
/// and counted.
struct MotionActivityPayload: Decodable {
    var id: String?
    var startDate: String?
    var confidence: String?
    var flags: [String: Bool] = [:]

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    static let activities = ["stationary", "walking", "running", "automotive", "cycling", "unknown"]

    init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: Key.self) else { return }
        id = try? container.decodeIfPresent(String.self, forKey: Key(stringValue: "id"))
        startDate = try? container.decodeIfPresent(String.self, forKey: Key(stringValue: "startDate"))
        confidence = try? container.decodeIfPresent(String.self, forKey: Key(stringValue: "confidence"))
        for name in Self.activities {
            flags[name] = (try? container.decodeIfPresent(Bool.self, forKey: Key(stringValue: name))) ?? false
        }
    }

    /// The sample of session `sessionID`, or nil when it cannot be used.
    func activity(sessionID: String) -> MotionActivity? {
        guard let id, !id.isEmpty, let start = startDate.flatMap({ Timestamp(parsing: $0) }),
            let confidence = confidence.flatMap({ MotionConfidence(rawValue: $0) })
        else { return nil }
        return MotionActivity(
            id: id, startDate: start, confidence: confidence, stationary: flags["stationary"] ?? false,
            walking: flags["walking"] ?? false, running: flags["running"] ?? false, automotive: flags["automotive"] ?? false,
            cycling: flags["cycling"] ?? false, unknown: flags["unknown"] ?? false, sessionID: sessionID)
    }
}

/// `POST /v1/sessions/{id}/motion-activities`.
struct MotionActivityBatch: Decodable {
    var motionActivities: [MotionActivityPayload]
}
