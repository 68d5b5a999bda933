import TrainTrackerStorage

/// A failure the tool reports as one line on stderr with exit status 2.
public struct CommandFailure: Error, CustomStringConvertible, Sendable {
    /// The line to print, naming the file or argument at fault.
    public var description: String

    /// A failure with a message.
    public init(_ description: String) { self.description = description }

    /// A failure from a storage error.
    public init(_ error: StorageError) { self.description = error.description }

    /// The exit status for bad input.
    public static let exitStatus: Int32 = 2
}

extension CommandFailure {
    /// Runs `body`, turning storage errors into command failures.
    static func wrapping<T>(_ body: () throws(StorageError) -> T) throws(CommandFailure) -> T {
        do {
            return try body()
        } catch {
            throw CommandFailure(error)
        }
    }
}

extension CommandFailure {
    /// Runs `body`, turning any error that describes itself in one line (import, server
    /// settings) into a command failure with that line.
    static func wrapping<T, Failure: Error & CustomStringConvertible>(_ body: () throws(Failure) -> T) throws(CommandFailure)
        -> T
    {
        do {
            return try body()
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
