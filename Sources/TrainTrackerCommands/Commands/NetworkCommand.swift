import ArgumentParser
import TrainTrackerCore
import TrainTrackerStorage

/// `traintracker network`: describes a railway network.
struct NetworkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "network",
        abstract: "Describe a railway network: railways, stations, track length, bounding box."
    )

    @OptionGroup var railways: RailwaysOption

    @Flag(help: "List every railway: its id, name, number of stations, track length and direction names.")
    var verbose = false

    @Flag(help: "List the stations of every railway (or of --railway) in line order: id and name.")
    var listStations = false

    @Option(help: ArgumentHelp("With --list-stations: only this railway (its id or name).", valueName: "railway"))
    var railway: String?

    @Flag(help: "Also read the timetables and count trains, calls and train types.")
    var timetables = false

    func validate() throws {
        if railway != nil, !listStations { throw ValidationError("--railway goes with --list-stations") }
    }

    func run() throws {
        let dataset = try railways.loadDataset(timetables: timetables)
        let output = OutputSink.standardOutput()
        if listStations {
            let network = dataset.network
            let chosen = try railway.map { [try railways.railway($0, in: network, option: "--railway")] } ?? network.railways
            output.line(Self.stationList(chosen, in: network))
            output.flush()
            return
        }
        output.line(Self.describe(dataset.network, verbose: verbose))
        if timetables {
            let timetable = dataset.timetable
            output.line("trains           \(timetable.trains.count)")
            output.line("calls            \(timetable.stopCount)")
            output.line("train types      \(Set(timetable.trains.compactMap(\.trainTypeID)).count)")
            output.line("services         \(Set(timetable.trains.map(\.service)).sorted().joined(separator: ", "))")
        }
        output.flush()
    }

    /// The summary text.
    static func describe(_ network: RailwayNetwork, verbose: Bool) -> String {
        let box = network.boundingBox
        func degrees(_ value: Double) -> String { String(format6(value)) }
        var lines = [
            "railways         \(network.railways.count)",
            "stations         \(network.stations.count)",
            "track length     \(formatKilometres(network.trackLength))",
            "underground      \(formatKilometres(network.railways.reduce(0) { $0 + $1.track.undergroundLength }))",
            "track vertices   \(network.trackVertexCount)",
            "loop lines       \(network.railways.filter(\.isLoop).count)",
            "bounding box     \(degrees(box.southWest.latitude)),\(degrees(box.southWest.longitude)) – \(degrees(box.northEast.latitude)),\(degrees(box.northEast.longitude))",
        ]
        if verbose {
            lines.append("")
            var rows = [["railway", "name", "stations", "track", "directions"]]
            for railway in network.railways {
                rows.append([
                    railway.id, railway.name, "\(railway.stationIDs.count)\(railway.isLoop ? " (loop)" : "")",
                    formatKilometres(railway.track.polyline.length),
                    "\(railway.ascendingName) / \(railway.descendingName)",
                ])
            }
            lines.append(alignedTable(rows))
        }
        return lines.joined(separator: "\n")
    }
}

extension NetworkCommand {
    /// Each railway's stations in line order, a table per railway under a line naming it:
    /// what `journey --from/--to/--stops` and the logs take.
    static func stationList(_ railways: [Railway], in network: RailwayNetwork) -> String {
        railways.map { railway in
            let stations = network.stations(of: railway)
            let heading =
                "\(railway.id.printable) (\(railway.name.printable)): \(stations.count) stations, "
                + "\(railway.ascendingName.printable) ↔ \(railway.descendingName.printable)\(railway.isLoop ? ", a loop" : "")"
            let rows = [["  station", "name"]] + stations.map { ["  " + $0.id.printable, $0.name.printable] }
            return heading + "\n" + alignedTable(rows)
        }.joined(separator: "\n\n")
    }
}

/// `12.3 km`.
func formatKilometres(_ meters: Meters) -> String {
    let tenths = Int(displaying: meters / 100)
    return "\(tenths / 10).\(tenths % 10) km"
}

/// A number with six decimals.
func format6(_ value: Double) -> String {
    let scaled = Int(displaying: abs(value) * 1_000_000)
    let fraction = String(scaled % 1_000_000)
    return (value < 0 ? "-" : "") + "\(scaled / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
}
