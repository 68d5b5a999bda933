import Foundation
import TrainTrackerCore
import TrainTrackerStorage
import TrainTrackerTestSupport

/// What a run of the built `traintracker` printed and how it exited.
struct ToolOutcome {
    var status: Int32
    var standardOutput: String
    var standardError: String
}

/// Runs the `traintracker` executable built beside the test bundle.
enum ToolRunner {
    static var executable: URL {
        let bundle = URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0])
        return bundle.deletingLastPathComponent().appendingPathComponent("traintracker")
    }

    static func run(_ arguments: [String]) throws -> ToolOutcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        // A fixed width, so help text wraps the same everywhere.
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "100"
        process.environment = environment
        try process.run()
        // Read both pipes to the end before waiting, so a full pipe cannot block the tool.
        let errorData = Thread.detachNewThreadAndRead(error)
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ToolOutcome(
            status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData.wait(), as: UTF8.self))
    }
}

/// Reads a pipe on another thread; `wait()` returns its data once it is closed.
final class PipeReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ pipe: Pipe) {
        Thread.detachNewThread { [self] in
            data = pipe.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}

extension Thread {
    static func detachNewThreadAndRead(_ pipe: Pipe) -> PipeReader { PipeReader(pipe) }
}

/// Writes a session file with one simulated Toyoko ride (Hiyoshi → Kikuna) on the real network.
func writeToyokoSession(to path: String, network: RailwayNetwork, id: String = "TOYOKO-1") throws -> Int {
    let start = Timestamp(secondsSince1970: 1_758_355_200)
    let fixes = try JourneySimulator(network: network).journey(
        on: "Tokyu.Toyoko", from: "Tokyu.Toyoko.Hiyoshi", to: "Tokyu.Toyoko.Kikuna", start: start)
    let database = try SessionDatabase.create(path: path)
    try database.insert(
        Session(id: id, startDate: start, isOnTrain: true),
        fixes: fixes.enumerated().map { RecordedFix(id: "\(id)-\($0.offset)", location: $0.element) })
    return fixes.count
}
