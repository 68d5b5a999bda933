/// A fix as it was stored, before any check: every field may be missing or wrong.
public struct RawFix: Sendable {
    /// The record's id (a UUID string in Eki files).
    public var id: String
    /// Latitude in degrees, if the column held a number.
    public var latitude: Double?
    /// Longitude in degrees, if the column held a number.
    public var longitude: Double?
    /// The timestamp text as stored.
    public var timestamp: String
    /// The horizontal accuracy, if stored.
    public var horizontalAccuracy: Double?
    /// The speed, if stored (negative means invalid).
    public var speed: Double?
    /// The course, if stored (negative means invalid).
    public var course: Double?
    /// The altitude, if stored.
    public var altitude: Double?

    /// Creates a raw fix.
    public init(
        id: String, latitude: Double?, longitude: Double?, timestamp: String,
        horizontalAccuracy: Double? = nil, speed: Double? = nil, course: Double? = nil, altitude: Double? = nil
    ) {
        self.id = id
        self.latitude = latitude
        self.longitude = longitude
        self.timestamp = timestamp
        self.horizontalAccuracy = horizontalAccuracy
        self.speed = speed
        self.course = course
        self.altitude = altitude
    }
}

/// A checked fix with the id it was stored under.
public struct RecordedFix: Hashable, Sendable {
    /// The record's id.
    public var id: String
    /// The fix.
    public var location: Location

    /// Creates a recorded fix.
    public init(id: String, location: Location) {
        self.id = id
        self.location = location
    }
}

/// How many fixes were skipped or reordered, and why. A noisy fix is data, not an error.
public struct FixSanitizerReport: Hashable, Sendable {
    /// Fixes with a missing, NaN or out-of-range latitude or longitude.
    public var invalidCoordinate = 0
    /// Fixes with a negative or NaN horizontal accuracy.
    public var negativeAccuracy = 0
    /// Fixes whose timestamp could not be read.
    public var unreadableTimestamp = 0
    /// Fixes whose id was already used by an earlier fix.
    public var duplicateID = 0
    /// Fixes with the same timestamp as the fix kept before them.
    public var duplicateTimestamp = 0
    /// Fixes that were stored out of timestamp order and have been put back in order.
    public var reordered = 0

    /// Creates an empty report.
    public init() {}

    /// All skipped fixes.
    public var skipped: Int { invalidCoordinate + negativeAccuracy + unreadableTimestamp + duplicateID + duplicateTimestamp }

    /// Whether nothing was skipped or reordered.
    public var isClean: Bool { skipped == 0 && reordered == 0 }

    /// One line for a warning, e.g. `skipped 3 fixes (2 invalid coordinate, 1 duplicate id); reordered 4 fixes`.
    public var summary: String {
        let reasons = [
            (invalidCoordinate, "invalid coordinate"), (negativeAccuracy, "negative accuracy"),
            (unreadableTimestamp, "unreadable timestamp"), (duplicateID, "duplicate id"),
            (duplicateTimestamp, "duplicate timestamp"),
        ].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        var parts: [String] = []
        if skipped > 0 { parts.append("skipped \(skipped) fix\(skipped == 1 ? "" : "es") (\(reasons.joined(separator: ", ")))") }
        if reordered > 0 { parts.append("reordered \(reordered) out-of-order fix\(reordered == 1 ? "" : "es")") }
        return parts.isEmpty ? "all fixes valid" : parts.joined(separator: "; ")
    }

    /// Adds the counts of `other`.
    public mutating func add(_ other: FixSanitizerReport) {
        invalidCoordinate += other.invalidCoordinate
        negativeAccuracy += other.negativeAccuracy
        unreadableTimestamp += other.unreadableTimestamp
        duplicateID += other.duplicateID
        duplicateTimestamp += other.duplicateTimestamp
        reordered += other.reordered
    }
}

/// Turns stored fixes into a clean, strictly time-ordered sequence for the tracker.
public enum FixSanitizer {
    /// Checks every fix, skips the malformed ones, puts the rest in timestamp order and
    /// drops all but the first of fixes sharing a timestamp.
    ///
    ///     let (fixes, report) = FixSanitizer.clean(rows)
    ///     if !report.isClean { warn(report.summary) }
    ///
    /// Rows are taken in storage order: of two rows with one id the first is kept.
    /// - Complexity: O(n log n).
    public static func clean(_ rows: [RawFix]) -> (fixes: [RecordedFix], report: FixSanitizerReport) {
        var report = FixSanitizerReport()
        var seenIDs = Set<String>()
        var fixes: [RecordedFix] = []
        fixes.reserveCapacity(rows.count)
        for row in rows {
            guard seenIDs.insert(row.id).inserted else {
                report.duplicateID += 1
                continue
            }
            guard let latitude = row.latitude, let longitude = row.longitude,
                Coordinate(latitude: latitude, longitude: longitude).isValid
            else {
                report.invalidCoordinate += 1
                continue
            }
            if let accuracy = row.horizontalAccuracy, !(accuracy >= 0) {
                report.negativeAccuracy += 1
                continue
            }
            guard let timestamp = Timestamp(parsing: row.timestamp) else {
                report.unreadableTimestamp += 1
                continue
            }
            let location = Location(
                coordinate: Coordinate(latitude: latitude, longitude: longitude), timestamp: timestamp,
                horizontalAccuracy: row.horizontalAccuracy, speed: row.speed, course: row.course, altitude: row.altitude
            )
            fixes.append(RecordedFix(id: row.id, location: location))
        }
        var latest = -Double.infinity
        for fix in fixes {
            if fix.location.timestamp.secondsSince1970 < latest { report.reordered += 1 }
            latest = max(latest, fix.location.timestamp.secondsSince1970)
        }
        if report.reordered > 0 {
            // Stable: fixes with equal timestamps keep their stored order.
            fixes = fixes.enumerated()
                .sorted { ($0.element.location.timestamp, $0.offset) < ($1.element.location.timestamp, $1.offset) }
                .map(\.element)
        }
        var unique: [RecordedFix] = []
        unique.reserveCapacity(fixes.count)
        for fix in fixes {
            if let previous = unique.last, previous.location.timestamp == fix.location.timestamp {
                report.duplicateTimestamp += 1
                continue
            }
            unique.append(fix)
        }
        return (unique, report)
    }
}
