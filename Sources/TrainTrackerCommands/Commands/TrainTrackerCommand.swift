import ArgumentParser
import Foundation
import TrainTrackerCore
import TrainTrackerStorage

/// `traintracker`: which railway, which direction, which station next, from GPS alone.
public struct TrainTrackerCommand: ParsableCommand {
    /// The command's name, summary and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "traintracker",
        abstract:
            "Tells a train rider which railway they are on, which way it goes and what the next station is, from GPS fixes alone.",
        subcommands: [
            DemoCommand.self, ReplayCommand.self, SessionsCommand.self, NetworkCommand.self, BenchCommand.self,
            JourneyCommand.self,
        ]
    )

    /// The root command, as ArgumentParser creates it.
    public init() {}

    /// Parses the process arguments and runs the command: bad input is one line on stderr
    /// and exit status 2; usage errors are ArgumentParser's.
    public static func runMain() -> Never {
        do {
            var command = try parseAsRoot()
            try command.run()
            Foundation.exit(0)
        } catch let failure as CommandFailure {
            StandardError.line("traintracker: error: \(failure)")
            Foundation.exit(CommandFailure.exitStatus)
        } catch {
            exit(withError: error)
        }
    }
}

/// The `--railways PATH` option and loading the network it names.
struct RailwaysOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("An Eki railway SQLite file.", valueName: "path"))
    var railways: String

    func load() throws(CommandFailure) -> RailwayNetwork {
        try CommandFailure.wrapping { () throws(StorageError) in try RailwayDatabase.load(path: railways) }
    }
}

extension TrackingAlgorithmName: ExpressibleByArgument {}
extension ReplayFormat: ExpressibleByArgument {}

/// Parses `+09:00`, `-05:30` or `9` into seconds.
func parseUTCOffset(_ text: String) -> Seconds? {
    let sign: Double = text.hasPrefix("-") ? -1 : 1
    let body = text.trimmingCharacters(in: CharacterSet(charactersIn: "+-"))
    let parts = body.split(separator: ":")
    guard (1...2).contains(parts.count), let hours = Double(parts[0]), hours <= 14 else { return nil }
    let minutes = parts.count == 2 ? Double(parts[1]) : 0
    guard let minutes, minutes < 60 else { return nil }
    return sign * (hours * 3600 + minutes * 60)
}
