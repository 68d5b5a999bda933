import Foundation

/// Buffered writing to standard output and unbuffered messages on standard error.
public final class OutputSink: @unchecked Sendable {
    private var buffer: [UInt8] = []
    private let write: ([UInt8]) -> Void
    private let lock = NSLock()
    /// Bytes held before they are written out.
    private static let chunk = 1 << 16

    /// A sink that hands text to `write` in chunks.
    public convenience init(write: @escaping (String) -> Void) {
        self.init(bytes: { write(String(decoding: $0, as: UTF8.self)) })
    }

    /// A sink that hands UTF-8 bytes to `write` in chunks.
    public init(bytes write: @escaping ([UInt8]) -> Void) {
        self.write = write
        buffer.reserveCapacity(Self.chunk + 4_096)
    }

    /// A sink writing to standard output.
    public static func standardOutput() -> OutputSink {
        OutputSink(bytes: { bytes in bytes.withUnsafeBytes { FileHandle.standardOutput.write(Data($0)) } })
    }

    /// Appends a line.
    public func line(_ text: String) { append(text.utf8, newline: true) }

    /// Appends text already in UTF-8, as it is.
    public func write(utf8 bytes: some Collection<UInt8>) { append(bytes, newline: false) }

    /// Appends `bytes` (and a newline) at once, and writes out a full buffer.
    private func append(_ bytes: some Collection<UInt8>, newline: Bool) {
        lock.lock()
        buffer.append(contentsOf: bytes)
        if newline { buffer.append(UInt8(ascii: "\n")) }
        let full = buffer.count >= Self.chunk
        lock.unlock()
        if full { flush() }
    }

    /// Writes out what is buffered.
    public func flush() {
        lock.lock()
        let bytes = buffer
        buffer.removeAll(keepingCapacity: true)
        lock.unlock()
        if !bytes.isEmpty { write(bytes) }
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

    /// Draws `done` of `total` (kept within 0...total: a total may be an estimate).
    mutating func update(_ done: Int, detail: String = "") {
        guard enabled else { return }
        let done = min(max(done, 0), total)
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
