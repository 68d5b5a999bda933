import Foundation
import TrainTrackerCore

/// Reads a file of metro and commuter-rail lines for naming a diary's rail legs, such as
/// `docs/helsinki/rail-lines-2016.json`: its own `stations` (code, name, aliases, latitude,
/// longitude) and `lines` (name, kind, station codes in order, bothWays). A code that is not
/// among its own stations is a `stationShortCode` of the station list given beside it
/// (Finland's `trainStations.json`); `stationAliases` gives such stations other names.
public enum RailLinesFile {
    private struct File: Decodable {
        var stations: [Station]?
        var lines: [Line]
        var stationAliases: [String: [String]]?
    }

    private struct Station: Decodable {
        var code: String
        var name: String
        var aliases: [String]?
        var latitude: Double
        var longitude: Double
    }

    private struct Line: Decodable {
        var name: String
        var kind: String
        var stations: [String]
        var bothWays: Bool
    }

    /// The lines of the file at `path`, with station codes looked up in `stationList` too.
    ///
    /// - Throws: `ImportError` naming the file, the line or station, and the problem.
    public static func lines(path: String, stationList: String?) throws(ImportError) -> [RailLine] {
        let file = try JSONFile.decode(File.self, path: path)
        var stations: [String: RailStation] = [:]
        if let stationList { stations = try DiaryLogs.namedStations(path: stationList) }
        var ownCodes = Set<String>()
        for (index, station) in (file.stations ?? []).enumerated() {
            guard ownCodes.insert(station.code).inserted else {
                throw ImportError(
                    file: path, location: "station \(index + 1)", field: "code", problem: "code '\(station.code)' is used twice")
            }
            let coordinate = Coordinate(latitude: station.latitude, longitude: station.longitude)
            guard coordinate.isValid else {
                throw ImportError(file: path, location: "station \(index + 1)", field: "latitude", problem: "not a position")
            }
            guard Self.isName(station.code), Self.isName(station.name) else {
                throw ImportError(
                    file: path, location: "station \(index + 1)", field: "code",
                    problem: "code and name must be 1-80 characters, no control characters")
            }
            stations[station.code] = RailStation(
                code: station.code, name: station.name, aliases: (station.aliases ?? []).filter(Self.isName),
                coordinate: coordinate)
        }
        for (code, aliases) in file.stationAliases ?? [:] {
            stations[code]?.aliases += aliases.filter(Self.isName)
        }
        guard !file.lines.isEmpty else { throw ImportError(file: path, field: "lines", problem: "no lines") }
        var lines: [RailLine] = []
        var namedEnds: [String: Int] = [:]
        for (index, line) in file.lines.enumerated() {
            let location = "line \(index + 1) of \"lines\""
            guard Self.isName(line.name), Self.isName(line.kind) else {
                throw ImportError(
                    file: path, location: location, field: "name",
                    problem: "name and kind must be 1-80 characters, no control characters")
            }
            guard line.stations.count >= 2 else {
                throw ImportError(
                    file: path, location: location, field: "stations", problem: "a line needs at least two stations")
            }
            // A station once in a line, but for a ring (four or more stations, ending where it
            // starts), which may pass a station twice on its way out and back (Helsinki's I
            // and P through Pasila); never twice in a row.
            let isRing = line.stations.count > 3 && line.stations.first == line.stations.last
            var listed = Set<String>()
            for (position, code) in line.stations.enumerated() {
                let again = position > 0 && line.stations[position - 1] == code
                guard again || isRing || listed.insert(code).inserted else {
                    throw ImportError(
                        file: path, location: location, field: "stations", problem: "station '\(code)' is listed twice")
                }
                if again {
                    throw ImportError(
                        file: path, location: location, field: "stations", problem: "station '\(code)' is listed twice in a row")
                }
            }
            let ends = "\(line.name)\u{0}\(line.stations.first ?? "")\u{0}\(line.stations.last ?? "")"
            if let earlier = namedEnds.updateValue(index + 1, forKey: ends) {
                throw ImportError(
                    file: path, location: location, field: "name",
                    problem: "line \(earlier) has the same name and ends; give one of them another name")
            }
            var stops: [RailStation] = []
            for code in line.stations {
                guard let station = stations[code] else {
                    let elsewhere = stationList.map { " nor in \($0)" } ?? " (give the station list with --stations)"
                    throw ImportError(
                        file: path, location: location, field: "stations",
                        problem: "station '\(code)' is not in this file\(elsewhere)")
                }
                stops.append(station)
            }
            lines.append(RailLine(name: line.name, kind: line.kind, stations: stops, bothWays: line.bothWays))
        }
        return lines
    }

    /// 1-80 characters, none of them a control character (they break SVG and the terminal).
    private static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 80 && !text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}

extension DiaryLogs {
    /// The passenger stations of a JSON array such as Finland's `trainStations.json`, by
    /// `stationShortCode`, named by `stationName` without a trailing " asema" ("station").
    ///
    /// - Throws: `ImportError` naming the file and the problem.
    public static func namedStations(path: String) throws(ImportError) -> [String: RailStation] {
        guard let items = try JSONFile.value(path: path) as? [[String: Any]] else {
            throw ImportError(file: path, problem: "not a JSON array of stations")
        }
        var stations: [String: RailStation] = [:]
        for item in items where item["passengerTraffic"] as? Bool != false {
            guard let code = item["stationShortCode"] as? String, let name = item["stationName"] as? String,
                let latitude = (item["latitude"] as? NSNumber)?.doubleValue,
                let longitude = (item["longitude"] as? NSNumber)?.doubleValue,
                Coordinate(latitude: latitude, longitude: longitude).isValid
            else { continue }
            let shortName = name.hasSuffix(" asema") ? String(name.dropLast(" asema".count)) : name
            stations[code] = RailStation(
                code: code, name: shortName, coordinate: Coordinate(latitude: latitude, longitude: longitude))
        }
        return stations
    }
}
