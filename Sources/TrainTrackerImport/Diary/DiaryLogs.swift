import Foundation
import TrainTrackerCore

/// Reads the travel-diary ground truth and reference outputs of the Helsinki dataset
/// (`manual_log.csv`, `recognised-summary.csv`) and rail station lists.
public enum DiaryLogs {
    /// The logged vehicle legs of `manual_log.csv`: device, departure to arrival, line type.
    /// Times are local, `utcOffset` seconds ahead of UTC. Rows without both times are skipped
    /// (a leg nobody timed cannot be scored).
    ///
    /// - Throws: `ImportError` naming the file, line and field.
    public static func manualLog(path: String, utcOffset: Seconds) throws(ImportError) -> [LoggedLeg] {
        let table = try CSVTable(path: path)
        let device = try table.requiredColumn("device_id")
        let type = try table.requiredColumn("line_type")
        let departure = try table.requiredColumn("vehicle_dep_time")
        let arrival = try table.requiredColumn("vehicle_arr_time")
        let line = table.column("line_name")
        let from = table.column("vehicle_dep_stop")
        let to = table.column("vehicle_arr_stop")
        var legs: [LoggedLeg] = []
        for row in table.rows.indices {
            guard let start = table.text(row, departure), let end = table.text(row, arrival) else { continue }
            legs.append(
                LoggedLeg(
                    device: try integer(table, row, device), start: try time(table, row, departure, start, utcOffset),
                    end: try time(table, row, arrival, end, utcOffset), kind: .of(lineType: table.text(row, type)),
                    label: [table.text(row, type), table.text(row, line)].compactMap { $0 }.joined(separator: " "),
                    line: table.text(row, line), from: table.text(row, from), to: table.text(row, to)))
        }
        return legs
    }

    /// The legs `recognised-summary.csv` found: device, start to end, activity and the line
    /// type it matched, if any. Only vehicle legs (`IN_VEHICLE`) are returned.
    ///
    /// - Throws: `ImportError` naming the file, line and field.
    public static func recognisedSummary(path: String, utcOffset: Seconds) throws(ImportError) -> [LoggedLeg] {
        let table = try CSVTable(path: path)
        let device = try table.requiredColumn("device_id")
        let start = try table.requiredColumn("time_start")
        let end = try table.requiredColumn("time_end")
        let activity = try table.requiredColumn("activity")
        let types = ["st_line_type", "nl_line_type", "ol_line_type"].compactMap { table.column($0) }
        var legs: [LoggedLeg] = []
        for row in table.rows.indices where table.text(row, activity) == "IN_VEHICLE" {
            let type = types.lazy.compactMap { table.text(row, $0) }.first
            legs.append(
                LoggedLeg(
                    device: try integer(table, row, device),
                    start: try time(table, row, start, try table.requiredText(row, start), utcOffset),
                    end: try time(table, row, end, try table.requiredText(row, end), utcOffset), kind: .of(lineType: type),
                    label: type ?? "IN_VEHICLE"))
        }
        return legs
    }

    /// Rail stations from a JSON array of objects with `latitude` and `longitude` (Finland's
    /// `trainStations.json`; entries with `"passengerTraffic": false` are left out).
    ///
    /// - Throws: `ImportError` naming the file and the problem.
    public static func stations(path: String) throws(ImportError) -> [Coordinate] {
        guard let items = try JSONFile.value(path: path) as? [[String: Any]] else {
            throw ImportError(file: path, problem: "not a JSON array of stations")
        }
        var stations: [Coordinate] = []
        for (index, item) in items.enumerated() where item["passengerTraffic"] as? Bool != false {
            guard let latitude = (item["latitude"] as? NSNumber)?.doubleValue,
                let longitude = (item["longitude"] as? NSNumber)?.doubleValue,
                Coordinate(latitude: latitude, longitude: longitude).isValid
            else { throw ImportError(file: path, location: "record \(index + 1)", field: "latitude", problem: "not a position") }
            stations.append(Coordinate(latitude: latitude, longitude: longitude))
        }
        return stations
    }

    private static func integer(_ table: CSVTable, _ row: Int, _ column: Int) throws(ImportError) -> Int {
        guard let value = try table.number(row, column), let integer = Int(wholeNumber: value) else {
            throw ImportError(
                file: table.path, location: table.line(row), field: table.header[column], problem: "not a device id")
        }
        return integer
    }

    private static func time(_ table: CSVTable, _ row: Int, _ column: Int, _ text: String, _ utcOffset: Seconds)
        throws(ImportError)
        -> Timestamp
    {
        guard let time = JourneyFile.timestamp(text, utcOffset: utcOffset) else {
            throw ImportError(
                file: table.path, location: table.line(row), field: table.header[column], problem: "not a time '\(text)'")
        }
        return time
    }
}
