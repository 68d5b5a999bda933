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

/// Why a fix was skipped. A noisy fix is data, not an error: it is counted and named.
public enum FixProblem: String, CaseIterable, Hashable, Sendable, Error {
    /// No id to store the fix under.
    case missingID = "missing id"
    /// An id longer than the reader takes (`FixSanitizer.maximumIDLength` on the server).
    case overlongID = "id too long"
    /// A missing, NaN or out-of-range latitude or longitude.
    case invalidCoordinate = "invalid coordinate"
    /// A negative, NaN or larger than 100 km horizontal accuracy (a negative one is Core
    /// Location's "no position").
    case invalidAccuracy = "invalid accuracy"
    /// A speed that is NaN, infinite or beyond `DomainRange.speed`.
    case invalidSpeed = "speed out of range"
    /// A course that is NaN, infinite or beyond 360°.
    case invalidCourse = "course out of range"
    /// An altitude that is NaN, infinite or beyond `DomainRange.altitude`.
    case invalidAltitude = "altitude out of range"
    /// A timestamp that could not be read.
    case unreadableTimestamp = "unreadable timestamp"
    /// A field holding a value of another type (a string for a number, a number for an id).
    case wrongType = "wrong type"
    /// A timestamp before 1900 or after 2199.
    case timestampOutOfRange = "timestamp out of range"
    /// An id already used by an earlier fix.
    case duplicateID = "duplicate id"
    /// The same timestamp as the fix kept before it.
    case duplicateTimestamp = "duplicate timestamp"
}

/// A fix that was skipped, and why.
public struct SkippedFix: Hashable, Sendable {
    /// The fix's id as given (possibly empty).
    public var id: String
    /// Why it was skipped.
    public var problem: FixProblem

    /// A skipped fix.
    public init(id: String, problem: FixProblem) {
        self.id = id
        self.problem = problem
    }
}

/// How many fixes were skipped or reordered, and why. A noisy fix is data, not an error.
public struct FixSanitizerReport: Hashable, Sendable {
    /// The fixes skipped, in the order they were met (at most `FixSanitizer.maximumListedSkips`
    /// listed; `counts` has them all).
    public private(set) var skippedFixes: [SkippedFix] = []
    /// How many fixes each problem skipped.
    public private(set) var counts: [FixProblem: Int] = [:]
    /// Fixes that were stored out of timestamp order and have been put back in order.
    public var reordered = 0

    /// Creates an empty report.
    public init() {}

    /// Counts one skipped fix.
    public mutating func skip(_ id: String, _ problem: FixProblem) {
        counts[problem, default: 0] += 1
        if skippedFixes.count < FixSanitizer.maximumListedSkips { skippedFixes.append(SkippedFix(id: id, problem: problem)) }
    }

    /// Fixes skipped for `problem`.
    public func count(_ problem: FixProblem) -> Int { counts[problem] ?? 0 }

    /// Fixes with a missing, NaN or out-of-range latitude or longitude.
    public var invalidCoordinate: Int { count(.invalidCoordinate) }
    /// Fixes with a negative, NaN or implausibly large horizontal accuracy.
    public var invalidAccuracy: Int { count(.invalidAccuracy) }
    /// Fixes whose timestamp could not be read.
    public var unreadableTimestamp: Int { count(.unreadableTimestamp) }
    /// Fixes whose id was already used by an earlier fix.
    public var duplicateID: Int { count(.duplicateID) }
    /// Fixes with the same timestamp as the fix kept before them.
    public var duplicateTimestamp: Int { count(.duplicateTimestamp) }

    /// All skipped fixes.
    public var skipped: Int { counts.values.reduce(0, +) }

    /// Whether nothing was skipped or reordered.
    public var isClean: Bool { skipped == 0 && reordered == 0 }

    /// One line for a warning, e.g. `skipped 3 fixes (2 invalid coordinate, 1 duplicate id); reordered 4 fixes`.
    public var summary: String {
        let reasons = FixProblem.allCases.compactMap { problem in
            counts[problem].map { "\($0) \(problem.rawValue)" }
        }
        var parts: [String] = []
        if skipped > 0 { parts.append("skipped \(skipped) fix\(skipped == 1 ? "" : "es") (\(reasons.joined(separator: ", ")))") }
        if reordered > 0 { parts.append("reordered \(reordered) out-of-order fix\(reordered == 1 ? "" : "es")") }
        return parts.isEmpty ? "all fixes valid" : parts.joined(separator: "; ")
    }

    /// Adds the counts of `other`.
    public mutating func add(_ other: FixSanitizerReport) {
        for item in other.skippedFixes where skippedFixes.count < FixSanitizer.maximumListedSkips {
            skippedFixes.append(item)
        }
        counts.merge(other.counts, uniquingKeysWith: +)
        reordered += other.reordered
    }
}

/// Turns stored fixes into a clean, strictly time-ordered sequence for the tracker.
public enum FixSanitizer {
    /// The most skipped fixes a report lists by id (all are counted).
    public static let maximumListedSkips = 100

    /// The fix a row describes, or the problem that makes it unusable. Every number is checked
    /// against `DomainRange`; a negative speed or course is Core Location's "unknown" and
    /// reads as missing.
    ///
    /// - Complexity: O(n) in the length of the timestamp text.
    public static func location(of row: RawFix) -> Result<Location, FixProblem> {
        guard let latitude = row.latitude?.within(DomainRange.latitude),
            let longitude = row.longitude?.within(DomainRange.longitude)
        else { return .failure(.invalidCoordinate) }
        if let accuracy = row.horizontalAccuracy, accuracy.within(DomainRange.horizontalAccuracy) == nil {
            return .failure(.invalidAccuracy)
        }
        if let speed = row.speed, !(speed < 0), speed.within(DomainRange.speed) == nil { return .failure(.invalidSpeed) }
        if let course = row.course, !(course < 0), course.within(DomainRange.course) == nil {
            return .failure(.invalidCourse)
        }
        if let altitude = row.altitude, altitude.within(DomainRange.altitude) == nil { return .failure(.invalidAltitude) }
        guard let timestamp = Timestamp(parsing: row.timestamp) else { return .failure(.unreadableTimestamp) }
        guard timestamp.isInDomainRange else { return .failure(.timestampOutOfRange) }
        return .success(
            Location(
                coordinate: Coordinate(latitude: latitude, longitude: longitude), timestamp: timestamp,
                horizontalAccuracy: row.horizontalAccuracy, speed: row.speed, course: row.course, altitude: row.altitude))
    }

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
                report.skip(row.id, .duplicateID)
                continue
            }
            switch location(of: row) {
            case .success(let location): fixes.append(RecordedFix(id: row.id, location: location))
            case .failure(let problem): report.skip(row.id, problem)
            }
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
                report.skip(fix.id, .duplicateTimestamp)
                continue
            }
            unique.append(fix)
        }
        return (unique, report)
    }
}
