import TrainTrackerCore
import TrainTrackerStorage

/// `POST /v1/sessions`: all fields optional; the server fills in an id and now.
struct SessionCreation: Decodable {
    var id: String?
    var startDate: UploadedTime?
    var notes: String?
}

/// A time as a phone uploads it: ISO 8601 (with `Z` or an offset), the Eki text form
/// (`YYYY-MM-DD HH:MM:SS.SSS`, UTC), or a number of seconds or milliseconds since 1970.
enum UploadedTime: Decodable, Sendable {
    case text(String)
    case number(Double)
    /// Neither text nor a number (a bool, an object, ...).
    case unreadable

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .text(text)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .unreadable
        }
    }

    /// The time, or the problem: unreadable, or outside 1900 to 2199.
    var timestamp: Result<Timestamp, FixProblem> {
        switch self {
        case .text(let text):
            guard let time = Timestamp(parsing: text) else { return .failure(.unreadableTimestamp) }
            return time.isInDomainRange ? .success(time) : .failure(.timestampOutOfRange)
        case .number(let number):
            guard let time = Timestamp(epoch: number) else { return .failure(.timestampOutOfRange) }
            return .success(time)
        case .unreadable: return .failure(.unreadableTimestamp)
        }
    }
}

/// One fix as a phone uploads it: the Eki `locations` columns. Fields a phone could not
/// measure are absent or null. Decoding never fails on a field: a value of the wrong type (a
/// string for a number, a number for the id) or a number no `Double` holds (`1e400`) makes
/// the fix one to skip and count, naming the field, not the whole batch refused.
struct LocationPayload: Decodable {
    var id: String?
    var latitude: Double?
    var longitude: Double?
    var altitude: Double?
    var timestamp: UploadedTime?
    var horizontalAccuracy: Double?
    var course: Double?
    var speed: Double?
    /// The first field that held something it cannot, and why the fix is skipped.
    var badField: (name: String, problem: FixProblem)?

    private enum CodingKeys: String, CodingKey {
        case id, latitude, longitude, altitude, timestamp, horizontalAccuracy, course, speed
    }

    init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: CodingKeys.self) else { return }
        id = read(String.self, .id, in: container, unreadable: .wrongType)
        latitude = read(Double.self, .latitude, in: container, unreadable: .invalidCoordinate)
        longitude = read(Double.self, .longitude, in: container, unreadable: .invalidCoordinate)
        altitude = read(Double.self, .altitude, in: container, unreadable: .invalidAltitude)
        timestamp = try? container.decodeIfPresent(UploadedTime.self, forKey: .timestamp)
        horizontalAccuracy = read(Double.self, .horizontalAccuracy, in: container, unreadable: .invalidAccuracy)
        course = read(Double.self, .course, in: container, unreadable: .invalidCourse)
        speed = read(Double.self, .speed, in: container, unreadable: .invalidSpeed)
    }

    /// The field `key` (nil when absent or null); a value of another JSON type is `.wrongType`,
    /// a number no `T` holds (`1e400`) is `unreadable`, noted as the fix's bad field.
    private mutating func read<T: Decodable>(
        _ type: T.Type, _ key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>, unreadable: FixProblem
    ) -> T? {
        guard container.contains(key), (try? container.decodeNil(forKey: key)) == false else { return nil }
        do {
            return try container.decode(T.self, forKey: key)
        } catch DecodingError.typeMismatch {
            if badField == nil { badField = (key.rawValue, .wrongType) }
        } catch {
            if badField == nil { badField = (key.rawValue, unreadable) }
        }
        return nil
    }

    /// The fix for the sanitizer (its time in the Eki text form), or why it cannot be one: a
    /// field of the wrong type or an unreadable number (`badField`), no id, an id longer than
    /// `maximumIDBytes`, or a time that is not one.
    func raw(maximumIDBytes: Int) -> Result<RawFix, FixProblem> {
        if let badField { return .failure(badField.problem) }
        guard let id, !id.isEmpty else { return .failure(.missingID) }
        guard id.utf8.count <= maximumIDBytes else { return .failure(.overlongID) }
        guard let timestamp else { return .failure(.unreadableTimestamp) }
        return timestamp.timestamp.map { time in
            RawFix(
                id: id, latitude: latitude, longitude: longitude, timestamp: time.ekiText,
                horizontalAccuracy: horizontalAccuracy, speed: speed, course: course, altitude: altitude)
        }
    }
}

/// `POST /v1/sessions/{id}/locations`.
struct LocationBatch: Decodable {
    var locations: BoundedArray<LocationPayload>
}

/// A JSON array whose first `UploadBody.maximumBatchKey` elements are decoded and the rest
/// only counted: a body of a million tiny items costs no more than the limit's worth.
struct BoundedArray<Element: Decodable>: Decodable {
    var elements: [Element] = []
    /// Elements in the array, decoded or not.
    var count = 0

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let limit = decoder.userInfo[UploadBody.maximumBatchKey] as? Int ?? Int.max
        while !container.isAtEnd {
            if count < limit {
                elements.append(try container.decode(Element.self))
            } else {
                _ = try container.decode(Counted.self)
            }
            count += 1
        }
    }

    /// An element passed over.
    private struct Counted: Decodable {
        init(from decoder: any Decoder) throws {}
    }
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

    /// The sample of session `sessionID`, or nil when it cannot be used (no id, one longer
    /// than `maximumIDBytes`, no start date between 1900 and 2199, no confidence).
    func activity(sessionID: String, maximumIDBytes: Int) -> MotionActivity? {
        guard let id, !id.isEmpty, id.utf8.count <= maximumIDBytes,
            let start = startDate.flatMap({ Timestamp(parsing: $0) }), start.isInDomainRange,
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
    var motionActivities: BoundedArray<MotionActivityPayload>
}
