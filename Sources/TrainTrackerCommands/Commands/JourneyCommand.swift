import ArgumentParser
import Foundation
import TrainTrackerCore
import TrainTrackerLab
import TrainTrackerStorage

/// `traintracker journey`: writes a simulated ride on real track as an Eki session.
struct JourneyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journey",
        abstract: "Simulate a ride along a railway's real track and write it to an Eki session file.",
        discussion: """
            The ride accelerates, cruises and brakes into each stop, dwells 30 s and passes the stations \
            left out of --stops. The file is created, or extended with --append.
            """
    )

    @OptionGroup var railways: RailwaysOption

    @Option(help: ArgumentHelp("The railway's id or name, e.g. Tokyu.Toyoko or \"Local Weekday\".", valueName: "railway"))
    var railway: String

    @Option(help: ArgumentHelp("The station to start at: its id, its name or the start of its name.", valueName: "station"))
    var from: String

    @Option(help: ArgumentHelp("The station to end at: its id, its name or the start of its name.", valueName: "station"))
    var to: String

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp("Stations to stop at between the two (default: every station).", valueName: "station")
    )
    var stops: [String] = []

    @Option(help: ArgumentHelp("Start time, ISO 8601.", valueName: "time"))
    var start = "2025-09-20T08:00:00Z"

    @Option(help: ArgumentHelp("Standard deviation of the GPS error in metres.", valueName: "meters"))
    var noise: Double = 0

    @Option(help: "Seed of the noise and of the ids.")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("The session file to write.", valueName: "path"))
    var out: String

    @Flag(help: "Add the session to an existing file instead of creating one.")
    var append = false

    func validate() throws {
        guard Timestamp(parsing: start) != nil else { throw ValidationError("--start must be an ISO 8601 time, got '\(start)'") }
        guard (0...1_000).contains(noise) else { throw ValidationError("--noise must be 0 to 1000 metres") }
    }

    func run() throws {
        if !append {
            _ = try CommandFailure.wrapping { () throws(StorageError) in try StagedFile(destination: out, replacing: false) }
        }
        let network = try railways.load()
        var parameters = JourneySimulator.Parameters()
        parameters.positionNoise = noise
        parameters.seed = seed
        let simulator = JourneySimulator(network: network, parameters: parameters)
        // Named as a person names them: by id or by name.
        let line = try railways.railway(railway, in: network, option: "--railway")
        let origin = try railways.station(from, on: line, in: network, option: "--from")
        let destination = try railways.station(to, on: line, in: network, option: "--to")
        var stopSet = Set<String>()
        for stop in stops { stopSet.insert(try railways.station(stop, on: line, in: network, option: "--stops").id) }
        let startTime = Timestamp(parsing: start) ?? Timestamp(secondsSince1970: 0)
        let fixes: [Location]
        do {
            fixes = try simulator.journey(
                on: line.id, from: origin.id, to: destination.id, stopsAt: stops.isEmpty ? nil : { stopSet.contains($0.id) },
                start: startTime)
        } catch {
            throw CommandFailure("\(railways.railways): \(error)")
        }
        // Ids depend on the whole ride as asked, so different rides appended to one file never collide.
        var ids = SeededGenerator(seed: stableHash("\(railway)|\(from)|\(to)|\(start)|\(stops)|\(noise)|\(seed)"))
        let session = Session(
            id: makeUUID(&ids), startDate: startTime, endDate: fixes.last?.timestamp,
            notes: "simulated: \(line.id) \(origin.id) → \(destination.id)", isOnTrain: true
        )
        let recorded = fixes.map { RecordedFix(id: makeUUID(&ids), location: $0) }
        // A new file appears complete or not at all; an appended ride is one transaction.
        try CommandFailure.wrapping { () throws(StorageError) in
            if append {
                try SessionDatabase.openForWriting(path: out).insert(session, fixes: recorded)
            } else {
                try SessionDatabase.create(path: out, sessions: [(session, recorded)])
            }
        }
        StandardError.line("wrote session \(session.id) with \(recorded.count) fixes to \(out)")
    }
}

/// A version-4-shaped UUID string from a seeded generator, so simulated files are reproducible.
func makeUUID(_ generator: inout SeededGenerator) -> String {
    let high = generator.next()
    let low = generator.next()
    let hex = String(high, radix: 16, uppercase: true).leftPadded(16) + String(low, radix: 16, uppercase: true).leftPadded(16)
    let characters = Array(hex)
    var text = ""
    for (index, character) in characters.enumerated() {
        if [8, 12, 16, 20].contains(index) { text += "-" }
        text.append(index == 12 ? "4" : character)
    }
    return text
}

/// FNV-1a over the UTF-8 bytes: a hash that is the same in every process (unlike `Hasher`).
func stableHash(_ text: String) -> UInt64 {
    text.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
}
