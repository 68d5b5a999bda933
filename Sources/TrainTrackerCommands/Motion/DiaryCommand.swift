import ArgumentParser
import Foundation
import TrainTrackerCore
import TrainTrackerLab
import TrainTrackerImport
import TrainTrackerStorage

/// `traintracker diary`: a travel diary of each recorded day, scored against a manual log.
struct DiaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diary",
        abstract: "Segment each session's day into stays and trips, with a mode per leg, and score it against a manual log.",
        discussion: """
            Modes: stay, walking (on foot or by bike), vehicle, and rail (a vehicle leg that starts and ends \
            within 400 m of a rail station, given with --stations, a JSON array such as Finland's \
            trainStations.json, or --railways). Prints a table, or GeoJSON with --format geojson (a \
            LineString per leg). With --log (a manual log like the Helsinki dataset's manual_log.csv, times \
            local at --utc-offset): the share of logged vehicle legs found (a vehicle leg covering at least \
            half of it) and found as the right kind (rail: metro, train; road: bus, tram, car); with \
            --recognised (recognised-summary.csv) the same for that output, its phones matched to the log's \
            by overlap. Sessions name their device by "device_id N" in their notes, as import-sessions writes.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, geojson
    }

    @Option(help: ArgumentHelp("An Eki session SQLite file.", valueName: "path"))
    var sessions: String

    @Option(name: .customLong("session"), help: ArgumentHelp("Only these sessions (repeatable).", valueName: "id"))
    var sessionIDs: [String] = []

    @Option(help: ArgumentHelp("Rail stations, a JSON array of objects with latitude and longitude.", valueName: "file"))
    var stations: String?

    @Option(help: ArgumentHelp("Railway data whose stations are rail stations.", valueName: "path"))
    var railways: String?

    // Unconditional: a western offset such as -07:00 starts with a dash.
    @Option(
        parsing: .unconditional, help: ArgumentHelp("Local time of the table and the logs, e.g. +03:00.", valueName: "offset"))
    var utcOffset: String = "+00:00"

    @Option(help: "table or geojson.")
    var format: Format = .table

    @Option(help: ArgumentHelp("A manual log to score against.", valueName: "file"))
    var log: String?

    @Option(help: ArgumentHelp("Another method's recognised legs, scored the same way (needs --log).", valueName: "file"))
    var recognised: String?

    func validate() throws {
        guard parseUTCOffset(utcOffset) != nil else {
            throw ValidationError("--utc-offset must look like +09:00 or -05:30, got '\(utcOffset)'")
        }
        if recognised != nil, log == nil { throw ValidationError("--recognised is scored against --log; give both") }
    }

    func run() throws {
        let offset = parseUTCOffset(utcOffset) ?? 0
        var railStations: [Coordinate] = []
        if let stations {
            railStations += try CommandFailure.wrapping { () throws(ImportError) in try DiaryLogs.stations(path: stations) }
        }
        if let railways { railStations += try RailwaysOption.parse(["--railways", railways]).load().stations.map(\.coordinate) }
        let database = try CommandFailure.wrapping { () throws(StorageError) in try SessionDatabase.open(path: sessions) }
        var summaries = try CommandFailure.wrapping { () throws(StorageError) in try database.sessions() }
        if !sessionIDs.isEmpty {
            for id in sessionIDs where !summaries.contains(where: { $0.session.id == id }) {
                throw CommandFailure(StorageError.unknownSession(path: sessions, id: id))
            }
            summaries = summaries.filter { sessionIDs.contains($0.session.id) }
        }
        var diaries: [(summary: SessionSummary, device: Int?, legs: [DiaryLeg])] = []
        var progress = ProgressBar(label: "diary", total: summaries.count)
        for (index, summary) in summaries.enumerated() {
            let id = summary.session.id
            let fixes = try CommandFailure.wrapping { () throws(StorageError) in try database.fixes(sessionID: id).fixes }
            let activities = try CommandFailure.wrapping { () throws(StorageError) in try database.motionActivities(sessionID: id)
            }
            let legs = TravelDiary.legs(
                fixes: fixes.map(\.location),
                activities: activities.map { ActivityReading(timestamp: $0.startDate, kind: $0.kind) }, railStations: railStations
            )
            diaries.append((summary, Self.device(in: summary.session.notes), legs))
            progress.update(index + 1)
        }
        progress.finish()
        let output = OutputSink.standardOutput()
        switch format {
        case .table: output.line(Self.table(diaries.map { ($0.summary.session.id, $0.device, $0.legs) }, offset: offset))
        case .geojson: output.line(Self.geoJSON(diaries.map { ($0.summary.session.id, $0.legs) }))
        }
        if let log {
            let logged = try CommandFailure.wrapping { () throws(ImportError) in
                try DiaryLogs.manualLog(path: log, utcOffset: offset)
            }
            var detected: [LoggedLeg] = []
            for diary in diaries {
                guard let device = diary.device else {
                    throw CommandFailure("\(sessions): session \(diary.summary.session.id) names no device_id in its notes")
                }
                for leg in diary.legs where leg.mode == .vehicle || leg.mode == .rail {
                    detected.append(
                        LoggedLeg(
                            device: device, start: leg.start, end: leg.end, kind: leg.mode == .rail ? .rail : .road,
                            label: leg.mode.rawValue))
                }
            }
            let devices = Set(diaries.compactMap(\.device))
            let scoredLog = logged.filter { devices.contains($0.device) }
            var rows = [["method", "logged legs", "found", "found %", "right kind", "right kind %"]]
            func row(_ name: String, _ score: DiaryScore) -> [String] {
                [
                    name, "\(score.logged)", "\(score.found)", String(format: "%.0f %%", score.foundShare * 100),
                    "\(score.rightKind)",
                    String(format: "%.0f %%", score.rightKindShare * 100),
                ]
            }
            rows.append(row("traintracker diary", DiaryScore(detected: detected, log: scoredLog)))
            if let recognised {
                let theirs = try CommandFailure.wrapping { () throws(ImportError) in
                    try DiaryLogs.recognisedSummary(path: recognised, utcOffset: offset)
                }
                let mapping = DiaryScore.matchDevices(theirs, to: logged)
                let renumbered = theirs.compactMap { leg -> LoggedLeg? in
                    guard let device = mapping[leg.device] else { return nil }
                    var copy = leg
                    copy.device = device
                    return copy
                }
                rows.append(row("recognised-summary", DiaryScore(detected: renumbered, log: scoredLog)))
            }
            output.line("")
            output.line(alignedTable(rows))
        }
        output.flush()
    }

    /// The device number in notes such as "imported from device_data.csv (device_id 8)".
    static func device(in notes: String?) -> Int? {
        guard let notes, let range = notes.range(of: #"device_id (\d+)"#, options: .regularExpression) else { return nil }
        return Int(notes[range].split(separator: " ").last ?? "")
    }

    static func table(_ diaries: [(session: String, device: Int?, legs: [DiaryLeg])], offset: Seconds) -> String {
        var rows = [["session", "device", "from", "to", "mode", "minutes", "km"]]
        for diary in diaries {
            for leg in diary.legs {
                rows.append([
                    String(diary.session.prefix(8)), diary.device.map { "\($0)" } ?? "-", leg.start.timeOfDay(utcOffset: offset),
                    leg.end.timeOfDay(utcOffset: offset), leg.mode.rawValue, String(format: "%.1f", leg.duration / 60),
                    String(format: "%.2f", leg.distance / 1_000),
                ])
            }
        }
        return alignedTable(rows)
    }

    static func geoJSON(_ diaries: [(session: String, legs: [DiaryLeg])]) -> String {
        var features: [String] = []
        for diary in diaries {
            for leg in diary.legs {
                var properties = JSONObjectWriter()
                properties.string("session", diary.session)
                properties.string("mode", leg.mode.rawValue)
                properties.string("start", leg.start.iso8601)
                properties.string("end", leg.end.iso8601)
                properties.number("meters", leg.distance)
                let coordinates = (leg.path.count == 1 ? leg.path + leg.path : leg.path).map {
                    "[\($0.longitude),\($0.latitude)]"
                }
                features.append(
                    "{\"type\":\"Feature\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":"
                        + JSONObjectWriter.array(coordinates) + "},\"properties\":" + properties.finish() + "}")
            }
        }
        return "{\"type\":\"FeatureCollection\",\"features\":" + JSONObjectWriter.array(features) + "}"
    }
}
