import Foundation
import Testing
import TrainTrackerCore
import TrainTrackerStorage
import TrainTrackerTestSupport

@testable import TrainTrackerImport
@testable import TrainTrackerLab

/// `evaluate --rides FOLDER`: rides recorded with an ordinary GPX logger, each with a note of
/// its trains (a CSV beside it, or the logger's own waypoints), scored as a session file and
/// a log are.
@Suite(.tags(.sharedData)) struct RideFolderEvaluationTests {
    /// A ride as a GPX logger writes it: its fixes as track points with speed, course and
    /// accuracy, and `waypoints` (time, name) as annotations.
    static func gpx(_ fixes: [Location], waypoints: [(Timestamp, String)] = []) -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?><gpx version="1.1" creator="a GPX logger">"#
        for (time, name) in waypoints {
            let escaped = name.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            xml += #"<wpt lat="37.0" lon="-122.0"><time>\#(time.iso8601)</time><name>\#(escaped)</name></wpt>"#
        }
        xml += "<trk><name>ride</name><trkseg>"
        for fix in fixes {
            xml +=
                #"<trkpt lat="\#(fix.coordinate.latitude)" lon="\#(fix.coordinate.longitude)"><time>\#(fix.timestamp.iso8601)</time>"#
            if let speed = fix.speed { xml += "<speed>\(speed)</speed>" }
            if let course = fix.course { xml += "<course>\(course)</course>" }
            if let accuracy = fix.horizontalAccuracy { xml += "<extensions><hAcc>\(accuracy)</hAcc></extensions>" }
            xml += "</trkpt>"
        }
        return xml + "</trkseg></trk></gpx>\n"
    }

    /// A log event as a rider types it into the logger's annotation: "departure San Jose
    /// Diridon, Caltrain, North".
    static func note(_ event: RiderLogEvent) -> String {
        event.kind.rawValue + " " + [event.station, event.railway, event.direction].compactMap { $0 }.joined(separator: ", ")
    }

    /// Five simulated Caltrain rides (seed 9) as a folder: rides 1 and 2 with a CSV log beside
    /// them, 3 to 5 with waypoints, a point of interest among them; and the same rides as a
    /// session file with one CSV log of them all.
    func folder(in directory: TemporaryDirectory) throws -> (folder: String, sessions: String, log: String) {
        let (sessions, cases) = try LogEvaluationTests.simulatedCases(in: directory)
        let database = try SessionDatabase.open(path: sessions)
        let folder = directory.path("rides")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (index, ride) in cases.enumerated() {
            let fixes = try database.fixes(sessionID: ride.sessionID).fixes.map(\.location)
            let log = ride.riderLog()
            let name = "ride-\(index + 1)"
            if index < 2 {
                try Self.gpx(fixes).write(toFile: "\(folder)/\(name).gpx", atomically: true, encoding: .utf8)
                try RiderLogCSV.text(log).write(toFile: "\(folder)/\(name).csv", atomically: true, encoding: .utf8)
            } else {
                let poi = (log[0].time.adding(-30), "Coffee & cake at the station")
                let waypoints = [poi] + log.map { ($0.time, Self.note($0)) }
                try Self.gpx(fixes, waypoints: waypoints).write(
                    toFile: "\(folder)/\(name).gpx", atomically: true, encoding: .utf8)
            }
        }
        let log = directory.path("log.csv")
        try RiderLogCSV.text(cases.flatMap { $0.riderLog() }).write(toFile: log, atomically: true, encoding: .utf8)
        return (folder, sessions, log)
    }

    @Test func aFolderOfGPXRidesWithTheirNotesScoresAsTheSessionFileAndItsLogDo() throws {
        let directory = try TemporaryDirectory()
        let (folder, sessions, log) = try folder(in: directory)
        let fromFolder = try ToolRunner.run([
            "evaluate", "--railways", SharedPaths.caltrain, "--rides", folder, "--algorithm", "railway", "--format", "json",
        ])
        #expect(fromFolder.status == 0, "\(fromFolder.standardError)")
        #expect(!fromFolder.standardError.contains("warning"), "\(fromFolder.standardError)")
        let fromLog = try ToolRunner.run([
            "evaluate", "--railways", SharedPaths.caltrain, "--sessions", sessions, "--log", log, "--algorithm", "railway",
            "--format", "json",
        ])
        #expect(fromLog.status == 0, "\(fromLog.standardError)")
        let folderReports = try JSONDecoder().decode(
            [LogEvaluationTests.Report].self, from: Data(fromFolder.standardOutput.utf8))
        let logReports = try JSONDecoder().decode([LogEvaluationTests.Report].self, from: Data(fromLog.standardOutput.utf8))
        let summary = try #require(folderReports.first?.summary)
        // Every departure and arrival noted, in the CSVs and the waypoints alike, is scored,
        // the point of interest passed over; and scored as the session file and its log are.
        #expect(summary.unscored == 0 && summary.departures >= 10 && summary.arrivals >= 10, "\(summary)")
        #expect(folderReports.first?.events.map(\.right) == logReports.first?.events.map(\.right))
        #expect(Double(summary.departuresRight) >= 0.9 * Double(summary.departures), "\(summary)")
        #expect(Double(summary.arrivalsRight) >= 0.9 * Double(summary.arrivals), "\(summary)")
        // The report says where each event was noted.
        let table = try ToolRunner.run([
            "evaluate", "--railways", SharedPaths.caltrain, "--rides", folder, "--algorithm", "railway",
        ])
        #expect(table.status == 0)
        let json = fromFolder.standardOutput
        #expect(json.contains("ride-1.csv line 2") && json.contains("ride-3.gpx waypoint 2"), "\(json.prefix(2_000))")
    }

    @Test func aRideWithoutANoteIsNamedAndTheOthersScored() throws {
        let directory = try TemporaryDirectory()
        let (folder, _, _) = try folder(in: directory)
        try FileManager.default.removeItem(atPath: "\(folder)/ride-2.csv")
        let outcome = try ToolRunner.run(["evaluate", "--railways", SharedPaths.caltrain, "--rides", folder])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("warning: \(folder): no note for ride-2.gpx"), "\(outcome.standardError)")
    }

    @Test func aFolderThatHoldsNoRidesOrABadOneIsRefusedNamingTheFile() throws {
        let directory = try TemporaryDirectory()
        func refused(_ arguments: [String], naming expected: [String], oneLine: Bool = true) throws {
            let outcome = try ToolRunner.run(["evaluate", "--railways", SharedPaths.caltrain] + arguments)
            #expect(outcome.status != 0, "\(arguments)")
            for text in expected { #expect(outcome.standardError.contains(text), "\(outcome.standardError)") }
            if oneLine { #expect(outcome.standardError.split(separator: "\n").count == 1, "\(outcome.standardError)") }
        }
        // Not a folder; a folder without GPX.
        try refused(["--rides", directory.path("none")], naming: [directory.path("none"), "not a folder"])
        let empty = directory.path("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        try "time,event\n".write(toFile: "\(empty)/notes.csv", atomically: true, encoding: .utf8)
        try refused(["--rides", empty], naming: [empty, "no .gpx file"])
        // A waypoint whose time is not one; a track point off the globe; notes with no train event.
        let fix = Location(
            coordinate: Coordinate(latitude: 37.4, longitude: -122.1), timestamp: try #require(Timestamp(epoch: 1_700_000_000)))
        let bad = directory.path("bad")
        try FileManager.default.createDirectory(atPath: bad, withIntermediateDirectories: true)
        let badTime = Self.gpx([fix]).replacingOccurrences(
            of: "<trk>", with: #"<wpt lat="1" lon="1"><time>yesterday</time><name>departure X</name></wpt><trk>"#)
        try badTime.write(toFile: "\(bad)/a.gpx", atomically: true, encoding: .utf8)
        try refused(["--rides", bad], naming: ["\(bad)/a.gpx", "waypoint 1", "not a time 'yesterday'"])
        try Self.gpx([fix]).replacingOccurrences(of: "lat=\"37.4\"", with: "lat=\"137.4\"")
            .write(toFile: "\(bad)/a.gpx", atomically: true, encoding: .utf8)
        try refused(["--rides", bad], naming: ["\(bad)/a.gpx", "not a position"])
        try Self.gpx([fix], waypoints: [(fix.timestamp, "walking to the station")])
            .write(toFile: "\(bad)/a.gpx", atomically: true, encoding: .utf8)
        try refused(["--rides", bad], naming: [bad, "no departure or arrival events"])
        // --rides is a mode of its own.
        try refused(["--rides", bad, "--log", directory.path("log.csv")], naming: ["--rides goes without"], oneLine: false)
    }

    @Test func aNoteIsAnEventWordThenThePlace() throws {
        let time = try #require(Timestamp(epoch: 1_700_000_000))
        let departure = RideFolder.event("Departure: Shinagawa, Tokaido Line for Yokohama", time: time)
        #expect(departure?.kind == .departure && departure?.notes == "Shinagawa, Tokaido Line for Yokohama")
        #expect(RideFolder.event("arr Kawasaki", time: time)?.kind == .arrival)
        #expect(RideFolder.event("trainArrival", time: time).map { $0.kind == .arrival && $0.notes == nil } == true)
        #expect(RideFolder.event("Coffee at Kawasaki", time: time) == nil)
        #expect(RideFolder.event("", time: time) == nil)
    }
}
