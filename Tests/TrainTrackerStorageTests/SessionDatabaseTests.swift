import Foundation
import GRDB
import Testing
import TrainTrackerCore
import TrainTrackerTestSupport

@testable import TrainTrackerStorage

@Suite(.tags(.sharedData)) struct SessionDatabaseTests {
    let start = Timestamp(secondsSince1970: 1_758_355_200)

    func fixes(_ count: Int) -> [RecordedFix] {
        (0..<count).map { (index: Int) -> RecordedFix in
            let offset = Double(index)
            let moving = index > 0
            let coordinate = Coordinate(latitude: 35.6 + offset * 0.0001, longitude: 139.7)
            let location = Location(
                coordinate: coordinate, timestamp: start.adding(offset), horizontalAccuracy: 8,
                speed: moving ? 12.5 : nil, course: moving ? 3 : nil, altitude: 12)
            return RecordedFix(id: "fix-\(index)", location: location)
        }
    }

    @Test func aWrittenSessionReadsBackTheSame() throws {
        let directory = try TemporaryDirectory()
        let database = try SessionDatabase.create(path: directory.path("sessions.sqlite"))
        let session = Session(id: "S1", startDate: start, endDate: start.adding(60), notes: "test ride", isOnTrain: true)
        let activity = MotionActivity(id: "M1", startDate: start, confidence: .high, automotive: true, sessionID: "S1")
        try database.insert(session, fixes: fixes(3), motionActivities: [activity])

        let reopened = try SessionDatabase.open(path: directory.path("sessions.sqlite"))
        let summaries = try reopened.sessions()
        #expect(summaries.map(\.session) == [session])
        #expect(summaries.first?.locationCount == 3)
        #expect(summaries.first?.duration == 60)
        let (read, report) = try reopened.fixes(sessionID: "S1")
        #expect(report.isClean)
        #expect(read == fixes(3))
        #expect(try reopened.motionActivities(sessionID: "S1") == [activity])
    }

    @Test func zeroOneAndManySessionsAreListedInStartOrder() throws {
        let directory = try TemporaryDirectory()
        let database = try SessionDatabase.create(path: directory.path("sessions.sqlite"))
        #expect(try database.sessions().isEmpty)
        try database.insert(Session(id: "later", startDate: start), fixes: fixes(2))
        #expect(try database.sessions().map(\.session.id) == ["later"])
        try database.insert(Session(id: "earlier", startDate: start.adding(-3_600)), fixes: [])
        let summaries = try database.sessions()
        #expect(summaries.map(\.session.id) == ["earlier", "later"])
        #expect(summaries.first?.duration == nil && summaries.first?.locationCount == 0)
        #expect(summaries.last?.duration == 1)
    }

    @Test func createRefusesToOverwriteAFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("sessions.sqlite")
        _ = try SessionDatabase.create(path: path)
        #expect(throws: StorageError.fileExists(path: path)) { try SessionDatabase.create(path: path) }
    }

    @Test func aDuplicateSessionWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let database = try SessionDatabase.create(path: directory.path("sessions.sqlite"))
        try database.insert(Session(id: "S1", startDate: start), fixes: fixes(2))
        #expect(throws: StorageError.self) { try database.insert(Session(id: "S1", startDate: start), fixes: fixes(5)) }
        #expect(try database.sessions().first?.locationCount == 2)
    }

    /// The session schema without STRICT types, keys or `motionActivities`, as older or
    /// other tools write it.
    func createLooseSchema(_ db: Database, locations: Bool) throws {
        try db.execute(sql: "CREATE TABLE sessions (id, startDate, endDate, notes, isFromColdLaunch, isOnTrain)")
        if locations {
            try db.execute(
                sql: """
                    CREATE TABLE locations (id, latitude, longitude, altitude, timestamp, horizontalAccuracy,
                      verticalAccuracy, course, speed, sessionID)
                    """)
        }
    }

    @Test func olderFilesWithoutMotionActivitiesAreRead() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("old.sqlite")
        try DatabaseQueue(path: path).write { db in
            try createLooseSchema(db, locations: true)
            try db.execute(sql: "INSERT INTO sessions VALUES ('S', '2025-09-20T08:00:00Z', NULL, NULL, 0, 1)")
        }
        let database = try SessionDatabase.open(path: path)
        #expect(try database.sessions().map(\.session.isOnTrain) == [true])
        #expect(try database.motionActivities(sessionID: "S").isEmpty)
    }

    @Test func aSessionFileWithoutLocationsIsRejected() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("no-locations.sqlite")
        try DatabaseQueue(path: path).write { db in
            try createLooseSchema(db, locations: false)
        }
        #expect(throws: StorageError.missingTable(path: path, table: "locations")) { try SessionDatabase.open(path: path) }
        #expect(throws: StorageError.missingTable(path: SharedPaths.tokyoRailways, table: "locations")) {
            try SessionDatabase.open(path: SharedPaths.tokyoRailways)
        }
    }

    /// A non-STRICT file, as other tools may write it, with every kind of malformed fix.
    @Test func malformedFixesAreSkippedOrOrderedAndCounted() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("messy.sqlite")
        try DatabaseQueue(path: path).write { db in
            try createLooseSchema(db, locations: true)
            try db.execute(sql: "INSERT INTO sessions VALUES ('S', '2025-09-20 08:00:00.000', NULL, NULL, 0, 0)")
            let rows: [(String, DatabaseValueConvertible?, DatabaseValueConvertible?, String, Double?)] = [
                ("ok-2", 35.6, 139.7, "2025-09-20 08:00:02.000", 5),
                ("ok-0", 35.6, 139.7, "2025-09-20 08:00:00.000", 5),  // out of order
                ("ok-1", 35.6, 139.7, "2025-09-20 08:00:01.000", 5),
                ("ok-1", 35.6, 139.7, "2025-09-20 08:00:09.000", 5),  // duplicate id
                ("same-time", 35.6, 139.7, "2025-09-20 08:00:02.000", 5),  // duplicate timestamp
                ("text-latitude", "north", 139.7, "2025-09-20 08:00:03.000", 5),
                ("out-of-range", 135.6, 139.7, "2025-09-20 08:00:04.000", 5),
                ("null-longitude", 35.6, nil, "2025-09-20 08:00:05.000", 5),
                ("negative-accuracy", 35.6, 139.7, "2025-09-20 08:00:06.000", -1),
                ("bad-time", 35.6, 139.7, "2025-09-20 8am", 5),
            ]
            for row in rows {
                try db.execute(
                    sql:
                        "INSERT INTO locations (id, latitude, longitude, timestamp, horizontalAccuracy, speed, course, sessionID) VALUES (?, ?, ?, ?, ?, -1, -1, 'S')",
                    arguments: [row.0, row.1, row.2, row.3, row.4])
            }
        }
        let (fixes, report) = try SessionDatabase.open(path: path).fixes(sessionID: "S")
        #expect(fixes.map(\.id) == ["ok-0", "ok-1", "ok-2"])
        #expect(fixes.allSatisfy { $0.location.speed == nil && $0.location.course == nil })
        #expect(report.invalidCoordinate == 3)
        #expect(report.invalidAccuracy == 1)
        #expect(report.unreadableTimestamp == 1)
        #expect(report.duplicateID == 1)
        #expect(report.duplicateTimestamp == 1)
        #expect(report.reordered == 2)
    }
}
