import Foundation
import TrainTrackerZlib

/// A ZIP archive read whole into memory, its entries stored or deflated, every offset and size
/// checked against the bytes there are. Inflating stops with an error when the compressed data
/// ends before its stream does, when the output passes its cap, and when the CRC-32 differs.
/// (ZIPFoundation, used before, looped forever on a deflate stream that ends early: fuzzing
/// found it with a GTFS zip.)
///
///     let archive = try ZipArchive(path: "feed.zip")
///     let stops = try archive.data(of: archive.entry(named: "stops.txt")!, maximumBytes: 1 << 29)
///
/// - Complexity: O(n) to list the entries; inflating is linear in the output.
struct ZipArchive {
    /// One file of the archive.
    struct Entry {
        /// Its path inside the archive.
        let path: String
        let method: UInt16
        let crc32: UInt32
        let compressedSize: Int
        let uncompressedSize: Int
        let localHeaderOffset: Int
    }

    /// The archive's path, for messages.
    let path: String
    /// Its files, in directory order.
    let entries: [Entry]
    private let bytes: [UInt8]

    /// The most entries an archive may list.
    static let maximumEntries = 65_535

    /// Reads the archive at `path` and its central directory.
    ///
    /// - Throws: `ImportError` naming the file when it cannot be read (`InputFile.read`), is not
    ///   a zip archive, or its directory points outside it.
    init(path: String) throws(ImportError) {
        self.path = path
        let bytes = [UInt8](try InputFile.read(path))
        self.bytes = bytes
        let notZip = ImportError(file: path, problem: "not a zip archive")
        // The end of central directory record: in the last 64 KiB + 22 bytes.
        let lowest = max(0, bytes.count - 65_557)
        guard bytes.count >= 22,
            let end = stride(from: bytes.count - 22, through: lowest, by: -1).first(where: {
                Self.read32(bytes, $0) == 0x0605_4B50
            })
        else { throw notZip }
        let count = Int(Self.read16(bytes, end + 10))
        let directorySize = Int(Self.read32(bytes, end + 12))
        let directoryOffset = Int(Self.read32(bytes, end + 16))
        guard count <= Self.maximumEntries, directoryOffset + directorySize <= end else {
            throw ImportError(file: path, problem: "the zip directory points outside the file (or is zip64, not supported)")
        }
        var entries: [Entry] = []
        var position = directoryOffset
        for _ in 0..<count {
            guard position + 46 <= end, Self.read32(bytes, position) == 0x0201_4B50 else {
                throw ImportError(file: path, problem: "a damaged zip directory")
            }
            let nameLength = Int(Self.read16(bytes, position + 28))
            let extraLength = Int(Self.read16(bytes, position + 30))
            let commentLength = Int(Self.read16(bytes, position + 32))
            let next = position + 46 + nameLength + extraLength + commentLength
            guard next <= end else { throw ImportError(file: path, problem: "a damaged zip directory") }
            entries.append(
                Entry(
                    path: String(decoding: bytes[(position + 46)..<(position + 46 + nameLength)], as: UTF8.self),
                    method: Self.read16(bytes, position + 10), crc32: Self.read32(bytes, position + 16),
                    compressedSize: Int(Self.read32(bytes, position + 20)),
                    uncompressedSize: Int(Self.read32(bytes, position + 24)),
                    localHeaderOffset: Int(Self.read32(bytes, position + 42))))
            position = next
        }
        self.entries = entries
    }

    /// The entry at `name`, or the first whose path ends in `/name`.
    func entry(named name: String) -> Entry? {
        entries.first { $0.path == name } ?? entries.first { $0.path.hasSuffix("/" + name) }
    }

    /// The contents of `entry`, named `display` in messages.
    ///
    /// - Throws: `ImportError` naming `display`: larger than `maximumBytes` (checked as it
    ///   inflates, whatever the archive claims), compressed with a method other than deflate,
    ///   damaged, or cut short.
    func data(of entry: Entry, name display: String, maximumBytes: Int) throws(ImportError) -> Data {
        guard entry.uncompressedSize <= maximumBytes else { throw InputFile.tooLarge(display, maximumBytes: maximumBytes) }
        let header = entry.localHeaderOffset
        guard header + 30 <= bytes.count, Self.read32(bytes, header) == 0x0403_4B50 else {
            throw ImportError(file: display, problem: "a damaged zip entry")
        }
        let start = header + 30 + Int(Self.read16(bytes, header + 26)) + Int(Self.read16(bytes, header + 28))
        guard start + entry.compressedSize <= bytes.count else {
            throw ImportError(file: display, problem: "the zip entry runs past the end of the archive")
        }
        let compressed = Array(bytes[start..<(start + entry.compressedSize)])
        let output: [UInt8]
        switch entry.method {
        case 0:
            guard compressed.count <= maximumBytes else { throw InputFile.tooLarge(display, maximumBytes: maximumBytes) }
            output = compressed
        case 8: output = try Self.inflate(compressed, name: display, maximumBytes: maximumBytes)
        default: throw ImportError(file: display, problem: "compressed with method \(entry.method); only deflate is read")
        }
        let crc = output.withUnsafeBufferPointer { buffer in
            UInt32(TrainTrackerZlib.crc32(0, buffer.baseAddress, UInt32(buffer.count)))
        }
        guard crc == entry.crc32 else { throw ImportError(file: display, problem: "damaged (its CRC-32 does not match)") }
        return Data(output)
    }

    /// Raw deflate data inflated, at most `maximumBytes` of it.
    private static func inflate(_ input: [UInt8], name: String, maximumBytes: Int) throws(ImportError) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ImportError(file: name, problem: "cannot be inflated")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var input = input
        var result = Z_OK
        input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = UInt32(inputBuffer.count)
            while result == Z_OK {
                let before = stream.total_out
                chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = UInt32(chunkBuffer.count)
                    result = TrainTrackerZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = Int(stream.total_out - before)
                guard output.count + produced <= maximumBytes else {
                    result = Z_MEM_ERROR
                    return
                }
                output += chunk[0..<produced]
                // No input left and nothing produced: the data ended before the stream did.
                if result == Z_OK, stream.avail_in == 0, produced == 0 { result = Z_BUF_ERROR }
            }
        }
        switch result {
        case Z_STREAM_END: return output
        case Z_MEM_ERROR: throw InputFile.tooLarge(name, maximumBytes: maximumBytes)
        case Z_BUF_ERROR: throw ImportError(file: name, problem: "cut short (its compressed data ends early)")
        default: throw ImportError(file: name, problem: "damaged (its compressed data is not deflate)")
        }
    }

    private static func read16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        guard offset >= 0, offset + 2 <= bytes.count else { return 0 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private static func read32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        guard offset >= 0, offset + 4 <= bytes.count else { return 0 }
        return UInt32(read16(bytes, offset)) | UInt32(read16(bytes, offset + 2)) << 16
    }
}
