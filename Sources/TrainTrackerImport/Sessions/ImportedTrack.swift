import Foundation
import TrainTrackerCore

/// One journey read from a GPX, CSV or GeoJSON file: it becomes one recorded session.
public struct ImportedTrack: Sendable {
    /// The file it came from.
    public var file: String
    /// The track's name, if the file gives one.
    public var name: String?
    /// The fixes, in file order.
    public var locations: [Location]
    /// Activity-recognition samples recorded with the fixes (CSV `activity` columns), with
    /// the recogniser's confidence, 0 ... 100.
    public var activities: [(reading: ActivityReading, confidence: Double)] = []

    /// Creates a track.
    public init(
        file: String, name: String?, locations: [Location], activities: [(reading: ActivityReading, confidence: Double)] = []
    ) {
        self.file = file
        self.name = name
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
    ///   first problem: a bad number, a point without a timestamp, a file of another shape.
    public static func read(path: String, utcOffset: Seconds = 0) throws(ImportError) -> [ImportedTrack] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ImportError(file: path, problem: "no such file")
        }
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
        if let parsed = Timestamp(parsing: trimmed) {
            let timestamp = hasZone(trimmed) ? parsed : parsed.adding(-utcOffset)
            return timestamp.isInDomainRange ? timestamp : nil
        }
        guard let number = Double(trimmed), number > 0 else { return nil }
        return Timestamp(epoch: number)
    }

    /// Whether a date-time text ends in `Z` or a `±HH:MM` / `±HHMM` offset.
    private static func hasZone(_ text: String) -> Bool {
        if text.hasSuffix("Z") || text.hasSuffix("z") { return true }
        guard let timeStart = text.firstIndex(where: { $0 == "T" || $0 == " " }) else { return false }
        return text[timeStart...].contains { $0 == "+" || $0 == "-" }
    }
}
