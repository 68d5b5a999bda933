import Foundation
import TrainTrackerCore

/// One journey read from a GPX, CSV or GeoJSON file: it becomes one recorded session.
public struct ImportedTrack: Sendable {
    /// The file it came from.
    public var file: String
    /// The track's name, if the file gives one.
    public var name: String?
    /// The value of the file's device, session or track column that gathered this track's
    /// rows, if it has one: the file's own name for the session.
    public var key: String?
    /// The fixes, in file order.
    public var locations: [Location]
    /// Activity-recognition samples recorded with the fixes (CSV `activity` columns), with
    /// the recogniser's confidence, 0 ... 100.
    public var activities: [(reading: ActivityReading, confidence: Double)] = []

    /// Creates a track.
    public init(
        file: String, name: String?, key: String? = nil, locations: [Location],
        activities: [(reading: ActivityReading, confidence: Double)] = []
    ) {
        self.file = file
        self.name = name
        self.key = key
        self.locations = locations
        self.activities = activities
    }
}

/// Reads journeys from GPX 1.1, CSV and GeoJSON files, detected by their extension.
public enum JourneyFile {
    /// The tracks in the file at `path`: one per GPX `<trk>`, one per CSV file (or per
    /// device, session or track column value), one per GeoJSON file. Times without a zone
    /// are taken as `utcOffset` seconds ahead of UTC.
    ///
    /// - Throws: `ImportError` naming the file, the line or record and the field of the
    ///   first problem: a missing file or a directory, a bad number, a point without a
    ///   timestamp or with one outside 1900 to 2199, a file cut short, a file of another shape.
    public static func read(path: String, utcOffset: Seconds = 0) throws(ImportError) -> [ImportedTrack] {
        let data = try InputFile.read(path)
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "gpx": return try GPXReader.read(data: data, path: path, utcOffset: utcOffset)
        case "csv", "txt": return try CSVJourneyReader.read(data: data, path: path, utcOffset: utcOffset)
        case "geojson", "json": return [try GeoJSONJourneyReader.read(data: data, path: path, utcOffset: utcOffset)]
        default: throw ImportError(file: path, problem: "unknown journey format; expected .gpx, .csv or .geojson")
        }
    }

    /// Parses a timestamp: ISO 8601, the Eki text form, or seconds (or milliseconds) since
    /// 1970. A text time without a zone (`Z` or `±HH:MM`) is `utcOffset` seconds ahead of UTC.
    /// `nil` for a time outside `DomainRange.secondsSince1970` (1900 to 2199).
    static func timestamp(_ text: String, utcOffset: Seconds = 0) -> Timestamp? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let time = Timestamp(parsing: trimmed, utcOffset: utcOffset) { return time }
        guard Timestamp(parsing: trimmed) == nil, let number = Double(trimmed), number > 0 else { return nil }
        return Timestamp(epoch: number)
    }
}

/// The optional numbers of a journey's fix, each checked against `DomainRange` as it is read,
/// so an impossible one (a speed of 1e20) is an error naming the line, not a stored fix.
enum FixMeasure {
    case accuracy, speed, course, altitude

    /// `value` as a fix holds it: `.some(nil)` for "none" (a negative speed or course is Core
    /// Location's "unknown"), `nil` when it is out of range.
    func checked(_ value: Double) -> Double?? {
        if self == .speed || self == .course, value < 0 { return .some(nil) }
        return switch self {
        case .accuracy: value.within(DomainRange.horizontalAccuracy).map { .some($0) }
        case .speed: value.within(DomainRange.speed).map { .some($0) }
        case .course: value.within(DomainRange.course).map { .some($0) }
        case .altitude: value.within(DomainRange.altitude).map { .some($0) }
        }
    }

    /// What the value must be, for messages: "a speed of 0 to 1000 m/s".
    var expectation: String {
        switch self {
        case .accuracy: "an accuracy of 0 to 100000 m"
        case .speed: "a speed of 0 to 1000 m/s"
        case .course: "a course of 0 to 360 degrees"
        case .altitude: "an altitude of -12000 to 100000 m"
        }
    }
}
