import ArgumentParser
import Foundation
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerLab
import TrainTrackerStorage

/// `traintracker diary`: a travel diary of each recorded day, scored against a manual log.
struct DiaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diary",
        abstract: "Segment each session's day into stays and trips, with a mode per leg, and score it against a manual log.",
        discussion: """
            Modes: stay, walking (on foot or by bike), vehicle, and rail (a vehicle leg that starts and ends \
            within 200 m of a rail station, given with --stations, a JSON array such as Finland's \
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

    @Option(
        help: ArgumentHelp(
            "Metro and commuter-rail lines to name rail legs by, such as docs/helsinki/rail-lines-2016.json.",
            discussion: "Their stations are rail stations too; codes not in the file are looked up in --stations.",
            valueName: "file"))
    var lines: String?

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
        try validateUTCOffset(utcOffset)
        if recognised != nil, log == nil { throw ValidationError("--recognised is scored against --log; give both") }
        if crossValidate, log == nil { throw ValidationError("--cross-validate scores against --log; give both") }
        if let fold, Self.devices(in: fold) == nil {
            throw ValidationError("--fold must be device numbers separated by commas, such as 1,2,5; got '\(fold)'")
        }
    }

    @Option(
        help: ArgumentHelp(
            "Draw each phone's legs, under its logged legs with --log, on one time axis (SVG).", valueName: "file"))
    var svg: String?

    @Flag(
        help: ArgumentHelp(
            "Choose every threshold on one half of the phones and score it on the other, both ways (needs --log).",
            discussion: "The halves have about as many logged legs each; --fold names one of them."))
    var crossValidate = false

    @Option(
        help: ArgumentHelp("With --cross-validate: one half's devices, e.g. 1,2,5 (the rest are the other).", valueName: "list"))
    var fold: String?

    func run() throws {
        let offset = parseUTCOffset(utcOffset) ?? 0
        let railLines =
            try lines.map { path in
                try CommandFailure.wrapping { () throws(ImportError) in try RailLinesFile.lines(path: path, stationList: stations)
                }
            } ?? []
        let railStations = try loadRailStations()
        let diaries = try loadDiaries()
        let days = diaries.map { DiaryDay(device: $0.device ?? 0, fixes: $0.fixes, activities: $0.activities) }
        let output = OutputSink.standardOutput()
        defer { output.flush() }
        if crossValidate, let log {
            let logged = try CommandFailure.wrapping { () throws(ImportError) in
                try DiaryLogs.manualLog(path: log, utcOffset: offset)
            }
            try requireDevices(diaries)
            output.line(
                try Self.crossValidation(days: days, log: logged, railStations: railStations, railLines: railLines, fold: fold))
            return
        }
        let legs = days.map {
            TravelDiary.legs(fixes: $0.fixes, activities: $0.activities, railStations: railStations, railLines: railLines)
        }
        let names = legs.map { RailLineNaming.names(of: $0, lines: railLines) }
        switch format {
        case .table:
            output.line(Self.table(zip(diaries, legs).map { ($0.id, $0.device, $1) }, names: names, offset: offset))
        case .geojson: output.line(Self.geoJSON(zip(diaries, legs).map { ($0.id, $1) }, names: names))
        }
        let logged =
            try log.map { log in
                try CommandFailure.wrapping { () throws(ImportError) in try DiaryLogs.manualLog(path: log, utcOffset: offset) }
            } ?? []
        if let svg {
            let pictured = zip(days, zip(legs, names)).map { day, diary in
                DiaryTimeline.Day(
                    device: day.device, logged: logged.filter { $0.device == day.device }, legs: diary.0, names: diary.1)
            }
            let picture = DiaryTimeline.svg(days: pictured.sorted { $0.device < $1.device }, utcOffset: offset)
            try CommandFailure.wrapping { () throws(StorageError) in try StagedFile.write(Data(picture.utf8), to: svg) }
        }
        guard log != nil else { return }
        try requireDevices(diaries)
        let detected = zip(days, legs).flatMap { DiaryTuning.vehicleLegs($1, device: $0.device) }
        let scoredLog = logged.filter { Set(days.map(\.device)).contains($0.device) }
        var rows = [["method", "logged legs", "found", "found %", "right kind", "right kind %", "spurious"]]
        rows.append(Self.scoreRow("traintracker diary", DiaryScore(detected: detected, log: scoredLog)))
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
            rows.append(Self.scoreRow("recognised-summary", DiaryScore(detected: renumbered, log: scoredLog)))
        }
        output.line("")
        output.line(alignedTable(rows))
        if !railLines.isEmpty {
            let named = zip(days, zip(legs, names)).flatMap { day, diary in
                zip(diary.0, diary.1).compactMap { leg, name in
                    name.map { (DiaryTuning.vehicleLegs([leg], device: day.device)[0], $0) }
                }
            }
            output.line("")
            output.line(Self.namingTable(RailNamingScore(detected: named, log: scoredLog)))
        }
    }

    private func loadRailStations() throws -> [Coordinate] {
        var railStations: [Coordinate] = []
        if let stations {
            railStations += try CommandFailure.wrapping { () throws(ImportError) in try DiaryLogs.stations(path: stations) }
        }
        if let railways { railStations += try RailwaysOption.parse(["--railways", railways]).load().stations.map(\.coordinate) }
        return railStations
    }

    private typealias Diary = (id: String, device: Int?, fixes: [Location], activities: [ActivityReading])

    private func loadDiaries() throws -> [Diary] {
        let database = try CommandFailure.wrapping { () throws(StorageError) in try SessionDatabase.open(path: sessions) }
        var summaries = try CommandFailure.wrapping { () throws(StorageError) in try database.sessions() }
        if !sessionIDs.isEmpty {
            for id in sessionIDs where !summaries.contains(where: { $0.session.id == id }) {
                throw CommandFailure(StorageError.unknownSession(path: sessions, id: id))
            }
            summaries = summaries.filter { sessionIDs.contains($0.session.id) }
        }
        var diaries: [Diary] = []
        var progress = ProgressBar(label: "diary", total: summaries.count)
        for (index, summary) in summaries.enumerated() {
            let id = summary.session.id
            let fixes = try CommandFailure.wrapping { () throws(StorageError) in try database.fixes(sessionID: id).fixes }
            let activities = try CommandFailure.wrapping { () throws(StorageError) in try database.motionActivities(sessionID: id)
            }
            diaries.append(
                (
                    id, Self.device(in: summary.session.notes), fixes.map(\.location),
                    activities.map { ActivityReading(timestamp: $0.startDate, kind: $0.kind) }
                ))
            progress.update(index + 1)
        }
        progress.finish()
        return diaries
    }

    private func requireDevices(_ diaries: [Diary]) throws {
        if let unnamed = diaries.first(where: { $0.device == nil }) {
            throw CommandFailure("\(sessions): session \(unnamed.id) names no device_id in its notes")
        }
    }

    static func scoreRow(_ name: String, _ score: DiaryScore) -> [String] {
        [
            name, "\(score.logged)", "\(score.found)", String(format: "%.0f %%", score.foundShare * 100), "\(score.rightKind)",
            String(format: "%.0f %%", score.rightKindShare * 100), "\(score.spurious)",
        ]
    }

    /// The device number in notes such as "imported from device_data.csv (device_id 8)": a
    /// whole number of up to nine digits ("device_id 1.5" names no device).
    static func device(in notes: String?) -> Int? {
        guard let notes, let range = notes.range(of: #"device_id (\d{1,9})(?![\d.,])"#, options: .regularExpression) else {
            return nil
        }
        return Int(notes[range].split(separator: " ").last ?? "")
    }

    static func table(_ diaries: [(session: String, device: Int?, legs: [DiaryLeg])], names: [[RailLegName?]], offset: Seconds)
        -> String
    {
        let clock = ReplayFormatter.clockName(offset)
        var rows = [["session", "device", "from (\(clock))", "to (\(clock))", "mode", "minutes", "km", "line"]]
        for (diary, names) in zip(diaries, names) {
            for (leg, name) in zip(diary.legs, names) {
                rows.append([
                    String(diary.session.prefix(8)), diary.device.map { "\($0)" } ?? "-", leg.start.timeOfDay(utcOffset: offset),
                    leg.end.timeOfDay(utcOffset: offset), leg.mode.rawValue, String(format: "%.1f", leg.duration / 60),
                    String(format: "%.2f", leg.distance / 1_000), name?.description ?? "",
                ])
            }
        }
        return alignedTable(rows)
    }

    static func namingTable(_ score: RailNamingScore) -> String {
        func share(_ count: Int) -> String {
            "\(count) (" + String(format: "%.0f %%", Double(count) / Double(max(1, score.logged)) * 100) + ")"
        }
        return alignedTable([
            ["logged rail legs", "named", "line right", "line alone", "stations right"],
            ["\(score.logged)", share(score.named), share(score.lineRight), share(score.lineAlone), share(score.stationsRight)],
        ])
    }

    static func geoJSON(_ diaries: [(session: String, legs: [DiaryLeg])], names: [[RailLegName?]]) -> String {
        var collection = GeoJSONWriter()
        for (diary, names) in zip(diaries, names) {
            for (leg, name) in zip(diary.legs, names) {
                var properties = JSONObjectWriter()
                properties.string("session", diary.session)
                properties.string("mode", leg.mode.rawValue)
                properties.string("start", leg.start.iso8601)
                properties.string("end", leg.end.iso8601)
                properties.number("meters", leg.distance)
                if let name {
                    properties.string("line", name.lines.joined(separator: "/"))
                    properties.string("fromStation", name.from.name)
                    properties.string("toStation", name.to.name)
                }
                collection.lineString(leg.path, properties: properties)
            }
        }
        return collection.finish()
    }
}
