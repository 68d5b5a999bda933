import Foundation

/// Buffered writing to standard output and unbuffered messages on standard error.
public final class OutputSink: @unchecked Sendable {
    private var buffer = ""
    private let write: (String) -> Void
    private let lock = NSLock()

    /// A sink that hands text to `write` in chunks.
    public init(write: @escaping (String) -> Void) { self.write = write }

    /// A sink writing to standard output.
    public static func standardOutput() -> OutputSink {
        OutputSink { FileHandle.standardOutput.write(Data($0.utf8)) }
    }

    /// Appends a line.
    public func line(_ text: String) {
        lock.lock()
        buffer += text
        buffer += "\n"
        let full = buffer.utf8.count >= 1 << 16
        lock.unlock()
        if full { flush() }
    }

    /// Writes out what is buffered.
    public func flush() {
        lock.lock()
        let text = buffer
        buffer = ""
        lock.unlock()
        if !text.isEmpty { write(text) }
    }

    deinit { if !buffer.isEmpty { write(buffer) } }
}

/// Messages and progress on standard error.
enum StandardError {
    /// Whether standard error is a terminal (progress is shown only then).
    static var isTerminal: Bool { isatty(STDERR_FILENO) != 0 }

    /// Writes one line.
    static func line(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

/// A one-line progress bar on standard error, drawn only when it is a terminal.
struct ProgressBar {
    let label: String
    let total: Int
    private let enabled = StandardError.isTerminal
    private var lastDrawn = -1

    init(label: String, total: Int) {
        self.label = label
        self.total = max(total, 1)
    }

    mutating func update(_ done: Int, detail: String = "") {
        guard enabled else { return }
        let percent = done * 100 / total
        guard percent != lastDrawn || done == total else { return }
        lastDrawn = percent
        let width = 30
        let filled = width * done / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) \(bar) \(percent)% \(detail)\u{1B}[K".utf8))
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
