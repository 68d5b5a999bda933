import Foundation

/// What a run of the built `traintracker` printed and how it exited.
public struct ToolOutcome: Sendable {
    /// The exit status.
    public var status: Int32
    /// What it printed on stdout.
    public var standardOutput: String
    /// What it printed on stderr.
    public var standardError: String
}

/// Runs the `traintracker` executable built beside the test bundle.
public enum ToolRunner {
    /// The built executable.
    public static var executable: URL {
        let bundle = URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0])
        return bundle.deletingLastPathComponent().appendingPathComponent("traintracker")
    }

    /// The tool's process with `arguments`, not yet started, and its output and error pipes.
    static func prepared(_ arguments: [String]) -> (process: Process, output: Pipe, error: Pipe) {
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
        return (process, output, error)
    }

    /// Runs it with `arguments` to the end.
    public static func run(_ arguments: [String]) throws -> ToolOutcome {
        let (process, output, error) = prepared(arguments)
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

extension ToolRunner {
    /// Runs it with `arguments` to the end without holding a thread of the shared pool while
    /// it runs (the synchronous `run` blocks one: on two cores, two long runs side by side
    /// starve every other test, and time limits fire on tests that never ran). For tests that
    /// run the tool for long (fits, evaluations of recordings).
    public static func run(_ arguments: [String]) async throws -> ToolOutcome {
        let (process, output, error) = prepared(arguments)
        // Both pipes read to the end on threads of their own, so a full pipe cannot block the tool.
        let outputData = PipeReader(output)
        let errorData = PipeReader(error)
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        // (The tool has exited: its pipes are closed or about to be, so these waits are short.)
        return ToolOutcome(
            status: status, standardOutput: String(decoding: outputData.wait(), as: UTF8.self),
            standardError: String(decoding: errorData.wait(), as: UTF8.self))
    }
}

/// Reads a pipe on another thread; `wait()` returns its data once it is closed.
public final class PipeReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    /// Starts reading `pipe`.
    public init(_ pipe: Pipe) {
        Thread.detachNewThread { [self] in
            data = pipe.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
    }

    /// The data, once the pipe is closed.
    public func wait() -> Data {
        done.wait()
        return data
    }
}

extension Thread {
    /// A reader of `pipe` on a new thread.
    public static func detachNewThreadAndRead(_ pipe: Pipe) -> PipeReader { PipeReader(pipe) }
}
