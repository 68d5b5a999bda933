import Foundation
import TrainTrackerCore

/// Imports a GTFS feed: one railway per rail route, its stations in line order (parent
/// stations, not platforms), its track from `shapes.txt`, and every trip as a timetabled train.
public enum GTFSImporter {
    /// What to import.
    public struct Options: Hashable, Sendable {
        /// The `route_type`s to import; `nil` for rail: 0 (tram), 1 (subway), 2 (rail) and 100–199.
        public var routeTypes: Set<Int>?

        /// Rail routes only.
        public init(routeTypes: Set<Int>? = nil) { self.routeTypes = routeTypes }

        func includes(_ type: Int) -> Bool {
            routeTypes?.contains(type) ?? ([0, 1, 2].contains(type) || (100...199).contains(type))
        }
    }

    /// Platforms without a parent station that share a name within this distance are one station.
    static let platformMergeDistance: Meters = 300

    /// Loads the feed at `path` (a folder or a zip file).
    ///
    /// - Parameter warn: told of what was guessed, e.g. a route drawn station to station for want of a shape.
    /// - Throws: `ImportError` naming the file, the line and the field of the first problem:
    ///   a missing required file or column, a bad number or time, a `route_type` or sequence
    ///   that is not a whole number, a `direction_id` other than 0 or 1, a route or trip id
    ///   listed twice, a stop time for an unknown trip or stop, a shape with one point, a feed
    ///   without routes of the chosen types, a table cut short or beyond `CSVTable`'s limits.
    public static func load(path: String, options: Options = Options(), warn: (String) -> Void = { _ in }) throws(ImportError)
        -> TransitDataset
    {
        let feed = try GTFSFeed(path: path)
        let routes = try readRoutes(feed, options: options)
        let stops = try readStops(feed)
        let trips = try readTrips(feed, routes: routes)
        let calls = try readStopTimes(feed, trips: trips.selected, knownTrips: trips.all, stops: stops)
        let shapes = try readShapes(feed)
        let directionNames = try readDirections(feed)

        var railways: [Railway] = []
        var stations: [Station] = []
        var trains: [TimetabledTrain] = []
        var trainTypes: [TrainType] = []
        for route in routes.ordered {
            let routeTrips = trips.selected.values.filter { $0.routeID == route.id }.sorted { $0.id < $1.id }
            guard !routeTrips.isEmpty else {
                warn("warning: \(feed.path): route \(route.id) has no trips; left out")
                continue
            }
            let order = stationOrder(routeTrips, calls: calls)
            guard order.count >= 2 else {
                warn("warning: \(feed.path): route \(route.id) serves fewer than two stations; left out")
                continue
            }
            let names = directionNamesFor(route: route.id, trips: routeTrips, order: order, given: directionNames, stops: stops)
            let scoped = { (station: String) in "\(route.id).\(station)" }
            for stationKey in order {
                let station = stops.stations[stationKey]
                stations.append(
                    Station(
                        id: scoped(stationKey), railwayID: route.id, name: station?.name ?? stationKey,
                        coordinate: station?.coordinate ?? Coordinate(latitude: 0, longitude: 0)))
            }
            let track = try routeTrack(
                route: route.id, trips: routeTrips, shapes: shapes, order: order, stops: stops, feed: feed, warn: warn)
            railways.append(
                Railway(
                    id: route.id, name: route.name, color: route.color, stationIDs: order.map(scoped),
                    ascendingName: names.ascending, descendingName: names.descending, track: track))
            trainTypes.append(TrainType(id: route.id, name: route.shortName ?? route.name))
            let onLine = Set(order)
            var branchTrips = 0
            for trip in routeTrips {
                guard var tripCalls = calls[trip.id] else { continue }
                let before = tripCalls.count
                tripCalls.removeAll { !onLine.contains($0.station) }
                if tripCalls.count < before { branchTrips += 1 }
                guard tripCalls.count >= 2 else { continue }
                trains.append(
                    TimetabledTrain(
                        id: trip.id, railwayID: route.id, number: trip.shortName, trainTypeID: route.id,
                        directionName: trip.directionID == 1 ? names.descending : names.ascending, service: trip.serviceID,
                        name: trip.headsign,
                        stops: tripCalls.map {
                            TimetableStop(stationID: scoped($0.station), arrival: $0.arrival, departure: $0.departure)
                        }
                    ))
            }
            if branchTrips > 0 {
                warn(
                    "warning: \(feed.path): \(branchTrips) trips of route \(route.id) run onto a branch; their calls there are left out"
                )
            }
        }
        guard !railways.isEmpty else {
            let types = options.routeTypes.map { $0.sorted().map(String.init).joined(separator: ", ") } ?? "0, 1, 2, 100–199"
            throw ImportError(file: "\(feed.path)/routes.txt", problem: "no routes with trips of route type \(types)")
        }
        let network: RailwayNetwork
        do {
            network = try RailwayNetwork(railways: railways, stations: stations)
        } catch {
            throw ImportError(file: feed.path, problem: error.description)
        }
        for railway in network.railways {
            for station in network.stations(of: railway)
            where (railway.track.polyline.distance(to: station.coordinate) ?? 0) > 150 {
                warn("warning: \(feed.path): station \(station.name) lies more than 150 m from the track of route \(railway.id)")
            }
        }
        let calendar = try readCalendar(feed)
        let zone = try agencyZone(feed, calendar: calendar)
        return TransitDataset(
            network: network, timetable: Timetable(trainTypes: trainTypes, trains: trains, zone: zone, calendar: calendar))
    }

    // MARK: Reading the tables

    /// The rules of the feed's `agency_timezone`, daylight saving included, compiled for the
    /// years around the calendar's dates; UTC when the feed names none.
    private static func agencyZone(_ feed: GTFSFeed, calendar: ServiceCalendar) throws(ImportError) -> TimeZoneRules {
        guard let table = try feed.table("agency.txt"), let column = table.column("agency_timezone"),
            let name = table.rows.indices.lazy.compactMap({ table.text($0, column) }).first
        else { return .utc }
        guard let zone = TimeZoneCompiler.rules(for: name, around: calendar) else {
            throw ImportError(
                file: table.path, location: table.line(0), field: "agency_timezone", problem: "unknown time zone '\(name)'")
        }
        return zone
    }

    struct Route {
        var id: String
        var name: String
        var shortName: String?
        var color: String
    }

    private static func readRoutes(_ feed: GTFSFeed, options: Options) throws(ImportError) -> (ordered: [Route], all: Set<String>)
    {
        let table = try feed.requiredTable("routes.txt")
        let idColumn = try table.requiredColumn("route_id")
        let typeColumn = try table.requiredColumn("route_type")
        let short = table.column("route_short_name")
        let long = table.column("route_long_name")
        let color = table.column("route_color")
        var routes: [Route] = []
        var all = Set<String>()
        var firstRows: [String: Int] = [:]
        for row in table.rows.indices {
            let id = try table.requiredText(row, idColumn)
            try requireUnique(id, row: row, column: "route_id", in: table, firstRows: &firstRows)
            all.insert(id)
            guard let type = try table.number(row, typeColumn).flatMap(Int.init(wholeNumber:)) else {
                throw ImportError(
                    file: table.path, location: table.line(row), field: "route_type",
                    problem: "not a route type '\(table.text(row, typeColumn) ?? "")'")
            }
            guard options.includes(type) else { continue }
            let shortName = table.text(row, short)
            let name = table.text(row, long) ?? shortName ?? id
            let hex = table.text(row, color).map { "#" + $0.uppercased() }
            routes.append(
                Route(id: id, name: name, shortName: shortName, color: hex.flatMap { $0.count == 7 ? $0 : nil } ?? "#888888"))
        }
        return (routes, all)
    }

    struct Stops {
        /// Stop id → the key of the station it belongs to.
        var stationOf: [String: String] = [:]
        /// Station key → name and position.
        var stations: [String: (name: String, coordinate: Coordinate)] = [:]
    }

    private static func readStops(_ feed: GTFSFeed) throws(ImportError) -> Stops {
        let table = try feed.requiredTable("stops.txt")
        let idColumn = try table.requiredColumn("stop_id")
        let nameColumn = table.column("stop_name")
        let latitudeColumn = try table.requiredColumn("stop_lat")
        let longitudeColumn = try table.requiredColumn("stop_lon")
        let parentColumn = table.column("parent_station")
        var records: [(id: String, name: String, coordinate: Coordinate?, parent: String?)] = []
        for row in table.rows.indices {
            let id = try table.requiredText(row, idColumn)
            var coordinate: Coordinate?
            if let latitude = try table.number(row, latitudeColumn), let longitude = try table.number(row, longitudeColumn) {
                coordinate = Coordinate(latitude: latitude, longitude: longitude)
                guard coordinate?.isValid == true else {
                    throw ImportError(
                        file: table.path, location: table.line(row), field: "stop_lat",
                        problem: "not a position (\(latitude), \(longitude))")
                }
            }
            records.append((id, table.text(row, nameColumn) ?? id, coordinate, table.text(row, parentColumn)))
        }
        let byID = Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var stops = Stops()
        var byName: [String: [String]] = [:]
        for record in records {
            // Parent stations stand for their platforms.
            if let parent = record.parent, let station = byID[parent], let coordinate = station.coordinate ?? record.coordinate {
                stops.stationOf[record.id] = parent
                stops.stations[parent] = (station.name, coordinate)
                continue
            }
            guard let coordinate = record.coordinate else { continue }
            // Platforms without a parent: one station per name within a few hundred metres.
            let twin = byName[record.name]?.first { key in
                (stops.stations[key]?.coordinate.distance(to: coordinate) ?? .infinity) <= platformMergeDistance
            }
            if let twin {
                stops.stationOf[record.id] = twin
            } else {
                stops.stationOf[record.id] = record.id
                if stops.stations[record.id] == nil { stops.stations[record.id] = (record.name, coordinate) }
                byName[record.name, default: []].append(record.id)
            }
        }
        return stops
    }

    struct Trip {
        var id: String
        var routeID: String
        var serviceID: String
        var headsign: String?
        var shortName: String?
        var directionID: Int
        var shapeID: String?
    }

    private static func readTrips(
        _ feed: GTFSFeed, routes: (ordered: [Route], all: Set<String>)
    ) throws(ImportError) -> (selected: [String: Trip], all: Set<String>) {
        let table = try feed.requiredTable("trips.txt")
        let routeColumn = try table.requiredColumn("route_id")
        let tripColumn = try table.requiredColumn("trip_id")
        let serviceColumn = try table.requiredColumn("service_id")
        let headsign = table.column("trip_headsign")
        let shortName = table.column("trip_short_name")
        let direction = table.column("direction_id")
        let shape = table.column("shape_id")
        let selected = Set(routes.ordered.map(\.id))
        var trips: [String: Trip] = [:]
        var all = Set<String>()
        var firstRows: [String: Int] = [:]
        for row in table.rows.indices {
            let routeID = try table.requiredText(row, routeColumn)
            guard routes.all.contains(routeID) else {
                throw ImportError(
                    file: table.path, location: table.line(row), field: "route_id", problem: "unknown route '\(routeID)'")
            }
            let id = try table.requiredText(row, tripColumn)
            try requireUnique(id, row: row, column: "trip_id", in: table, firstRows: &firstRows)
            all.insert(id)
            let directionID = try self.direction(table, row, direction) ?? 0
            guard selected.contains(routeID) else { continue }
            trips[id] = Trip(
                id: id, routeID: routeID, serviceID: try table.requiredText(row, serviceColumn),
                headsign: table.text(row, headsign),
                shortName: table.text(row, shortName), directionID: directionID, shapeID: table.text(row, shape))
        }
        return (trips, all)
    }

    struct Call {
        var sequence: Int
        var station: String
        var arrival: Seconds?
        var departure: Seconds?
    }

    private static func readStopTimes(
        _ feed: GTFSFeed, trips: [String: Trip], knownTrips: Set<String>, stops: Stops
    ) throws(ImportError) -> [String: [Call]] {
        let table = try feed.requiredTable("stop_times.txt")
        let tripColumn = try table.requiredColumn("trip_id")
        let stopColumn = try table.requiredColumn("stop_id")
        let sequenceColumn = try table.requiredColumn("stop_sequence")
        let arrivalColumn = try table.requiredColumn("arrival_time")
        let departureColumn = try table.requiredColumn("departure_time")
        var calls: [String: [Call]] = [:]
        for row in table.rows.indices {
            let tripID = try table.requiredText(row, tripColumn)
            let stopID = try table.requiredText(row, stopColumn)
            guard let station = stops.stationOf[stopID] else {
                throw ImportError(
                    file: table.path, location: table.line(row), field: "stop_id", problem: "unknown stop '\(stopID)'")
            }
            guard trips[tripID] != nil else {
                if !knownTrips.contains(tripID) {
                    throw ImportError(
                        file: table.path, location: table.line(row), field: "trip_id", problem: "unknown trip '\(tripID)'")
                }
                continue
            }
            let sequence = try self.sequence(table, row, sequenceColumn)
            func time(_ column: Int) throws(ImportError) -> Seconds? {
                guard let text = table.text(row, column) else { return nil }
                guard let seconds = TimetableStop.seconds(fromClock: text) else {
                    throw ImportError(
                        file: table.path, location: table.line(row), field: table.header[column], problem: "not a time '\(text)'")
                }
                return seconds
            }
            calls[tripID, default: []].append(
                Call(sequence: sequence, station: station, arrival: try time(arrivalColumn), departure: try time(departureColumn))
            )
        }
        for (trip, list) in calls {
            // In stop_sequence order, one call per station (platforms of one station fold together).
            var ordered: [Call] = []
            for call in list.sorted(by: { $0.sequence < $1.sequence }) {
                if let last = ordered.last, last.station == call.station {
                    ordered[ordered.count - 1].departure = call.departure ?? last.departure
                } else {
                    ordered.append(call)
                }
            }
            calls[trip] = ordered
        }
        return calls
    }

    private static func readShapes(_ feed: GTFSFeed) throws(ImportError) -> [String: [Coordinate]]? {
        guard let table = try feed.table("shapes.txt") else { return nil }
        let idColumn = try table.requiredColumn("shape_id")
        let latitudeColumn = try table.requiredColumn("shape_pt_lat")
        let longitudeColumn = try table.requiredColumn("shape_pt_lon")
        let sequenceColumn = try table.requiredColumn("shape_pt_sequence")
        var points: [String: [(sequence: Int, coordinate: Coordinate, line: Int)]] = [:]
        for row in table.rows.indices {
            let id = try table.requiredText(row, idColumn)
            guard let latitude = try table.number(row, latitudeColumn), let longitude = try table.number(row, longitudeColumn),
                Coordinate(latitude: latitude, longitude: longitude).isValid
            else {
                throw ImportError(file: table.path, location: table.line(row), field: "shape_pt_lat", problem: "not a position")
            }
            let sequence = try self.sequence(table, row, sequenceColumn)
            points[id, default: []].append((sequence, Coordinate(latitude: latitude, longitude: longitude), row))
        }
        var shapes: [String: [Coordinate]] = [:]
        for (id, list) in points {
            let line = Polyline(list.sorted { $0.sequence < $1.sequence }.map(\.coordinate))
            guard line.coordinates.count >= 2 else {
                throw ImportError(
                    file: table.path, location: "shape '\(id)'", field: "shape_pt_lat",
                    problem: "a shape needs at least two distinct points")
            }
            shapes[id] = line.coordinates
        }
        return shapes
    }

    private static func readDirections(_ feed: GTFSFeed) throws(ImportError) -> [String: [Int: String]] {
        guard let table = try feed.table("directions.txt") else { return [:] }
        let routeColumn = try table.requiredColumn("route_id")
        let directionColumn = try table.requiredColumn("direction_id")
        let nameColumn = try table.requiredColumn("direction")
        var names: [String: [Int: String]] = [:]
        for row in table.rows.indices {
            guard let direction = try direction(table, row, directionColumn), let name = table.text(row, nameColumn) else {
                continue
            }
            names[try table.requiredText(row, routeColumn), default: [:]][direction] = name
        }
        return names
    }

    /// A `direction_id`: 0 or 1; `nil` when empty.
    ///
    /// - Throws: `ImportError` naming the line for anything else (0.5, 2, 1e20).
    private static func direction(_ table: CSVTable, _ row: Int, _ column: Int?) throws(ImportError) -> Int? {
        guard let value = try table.number(row, column) else { return nil }
        guard let direction = Int(wholeNumber: value), direction == 0 || direction == 1 else {
            throw ImportError(
                file: table.path, location: table.line(row), field: "direction_id",
                problem: "must be 0 or 1, not '\(table.text(row, column) ?? "")'")
        }
        return direction
    }

    /// A `stop_sequence` or `shape_pt_sequence`: a whole number, 0 or more.
    ///
    /// - Throws: `ImportError` naming the line when it is empty or not such a number.
    private static func sequence(_ table: CSVTable, _ row: Int, _ column: Int) throws(ImportError) -> Int {
        guard let value = try table.number(row, column) else {
            throw ImportError(file: table.path, location: table.line(row), field: table.header[column], problem: "empty")
        }
        guard let sequence = Int(wholeNumber: value), sequence >= 0 else {
            throw ImportError(
                file: table.path, location: table.line(row), field: table.header[column],
                problem: "not a whole number, 0 or more '\(table.text(row, column) ?? "")'")
        }
        return sequence
    }

    /// Checks that `id` (of `column`) appears once: an id listed twice would make two
    /// railways or trains of one id, refused only later against the output file.
    private static func requireUnique(
        _ id: String, row: Int, column: String, in table: CSVTable, firstRows: inout [String: Int]
    ) throws(ImportError) {
        if let first = firstRows[id] {
            throw ImportError(
                file: table.path, location: table.line(row), field: column,
                problem: "'\(id)' is listed twice (first on \(table.line(first)))")
        }
        firstRows[id] = row
    }

    // MARK: Building a railway

    /// The stations of a route in line order: the longest stop pattern, with every other
    /// pattern's stations merged in where they fall. Direction 1 patterns are reversed.
    static func stationOrder(_ trips: [Trip], calls: [String: [Call]]) -> [String] {
        var patterns: [[String]] = []
        var seen = Set<[String]>()
        for trip in trips {
            guard let list = calls[trip.id] else { continue }
            let pattern = trip.directionID == 1 ? list.map(\.station).reversed() : list.map(\.station)
            if seen.insert(pattern).inserted { patterns.append(pattern) }
        }
        patterns.sort { $0.count != $1.count ? $0.count > $1.count : $0.lexicographicallyPrecedes($1) }
        guard var order = patterns.first else { return [] }
        for pattern in patterns.dropFirst() {
            order = merge(order, pattern)
        }
        return order
    }

    /// `base` with the stations of `other` missing from it inserted between their neighbours.
    ///
    /// Stations before `other`'s first shared station are added only where that station
    /// begins `base` (the line is extended), likewise after its last; elsewhere they form a
    /// branch, which a railway (one line of stations) cannot hold, and are left out.
    static func merge(_ base: [String], _ other: [String]) -> [String] {
        var result = base
        var anchor: Int?
        var pending: [String] = []
        for station in other {
            guard let position = result.firstIndex(of: station) else {
                pending.append(station)
                continue
            }
            if let anchor {
                result.insert(contentsOf: pending, at: min(max(anchor + 1, position), result.count))
            } else if position == 0 {
                result.insert(contentsOf: pending, at: 0)
            }
            anchor = result.firstIndex(of: station)
            pending = []
        }
        if let anchor, anchor == result.count - 1 {
            result.append(contentsOf: pending)
        }
        return result
    }

    private static func directionNamesFor(
        route: String, trips: [Trip], order: [String], given: [String: [Int: String]], stops: Stops
    ) -> (ascending: String, descending: String) {
        func headsign(_ direction: Int) -> String? {
            var counts: [String: Int] = [:]
            for trip in trips where trip.directionID == direction {
                if let headsign = trip.headsign { counts[headsign, default: 0] += 1 }
            }
            return counts.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key
        }
        let terminal = { (key: String?) in key.flatMap { stops.stations[$0]?.name }.map { "to \($0)" } }
        var ascending = given[route]?[0] ?? headsign(0) ?? terminal(order.last) ?? "Direction 0"
        var descending = given[route]?[1] ?? headsign(1) ?? terminal(order.first) ?? "Direction 1"
        if ascending == descending {
            ascending += " (0)"
            descending += " (1)"
        }
        return (ascending, descending)
    }

    private static func routeTrack(
        route: String, trips: [Trip], shapes: [String: [Coordinate]]?, order: [String], stops: Stops, feed: GTFSFeed,
        warn: (String) -> Void
    ) throws(ImportError) -> Track {
        // The shape passing most of the route's stations (within 150 m), then the longest.
        let positions = order.compactMap { stops.stations[$0]?.coordinate }
        let candidates = Set(trips.compactMap(\.shapeID)).sorted().compactMap { id -> (coverage: Int, line: Polyline)? in
            guard let points = shapes?[id] else { return nil }
            let line = Polyline(points)
            return (positions.filter { line.distance(to: $0, within: 150) != nil }.count, line)
        }
        if let best = candidates.max(by: { ($0.coverage, $0.line.length) < ($1.coverage, $1.line.length) }) {
            return Track(pieces: [(best.line.coordinates, false)])
        }
        if let shapeID = trips.compactMap(\.shapeID).first, shapes != nil {
            throw ImportError(
                file: "\(feed.path)/trips.txt", location: "route '\(route)'", field: "shape_id",
                problem: "unknown shape '\(shapeID)'")
        }
        warn("warning: \(feed.path): route \(route) has no shape; its track is drawn station to station")
        return Track(pieces: [(order.compactMap { stops.stations[$0]?.coordinate }, false)])
    }
}
