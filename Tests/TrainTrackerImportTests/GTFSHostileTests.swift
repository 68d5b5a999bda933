import Foundation
import Testing
import TrainTrackerCore
import TrainTrackerTestSupport
import ZIPFoundation

@testable import TrainTrackerImport

/// Feeds made to crash or mislead the importer: numbers no `Int` holds, fractions where a
/// whole number belongs, a file cut inside a quote, ids listed twice, files that inflate
/// without end. One error naming the file, the line and the field.
extension GTFSErrorTests {
    @Test(arguments: [
        ("routes.txt", 2, ",2,,E31837", ",1e20,,E31837", "route_type", "not a route type '1e20'"),
        ("routes.txt", 2, ",2,,E31837", ",1e300,,E31837", "route_type", "not a route type '1e300'"),
        ("routes.txt", 2, ",2,,E31837", ",2.5,,E31837", "route_type", "not a route type '2.5'"),
        ("trips.txt", 2, ",0,,cal_sj_sf", ",1e20,,cal_sj_sf", "direction_id", "must be 0 or 1, not '1e20'"),
        ("trips.txt", 2, ",0,,cal_sj_sf", ",1e300,,cal_sj_sf", "direction_id", "must be 0 or 1, not '1e300'"),
        ("trips.txt", 2, ",0,,cal_sj_sf", ",0.5,,cal_sj_sf", "direction_id", "must be 0 or 1, not '0.5'"),
        ("trips.txt", 2, ",0,,cal_sj_sf", ",2,,cal_sj_sf", "direction_id", "must be 0 or 1, not '2'"),
        ("directions.txt", 2, "Lo-129,0,", "Lo-129,1e300,", "direction_id", "must be 0 or 1, not '1e300'"),
        ("directions.txt", 2, "Lo-129,0,", "Lo-129,0.5,", "direction_id", "must be 0 or 1, not '0.5'"),
        ("stop_times.txt", 2, ",1,", ",1e300,", "stop_sequence", "not a whole number, 0 or more '1e300'"),
        ("shapes.txt", 2, ",1,", ",0.5,", "shape_pt_sequence", "not a whole number, 0 or more '0.5'"),
    ])
    func aNumberNoWholeNumberHoldsIsNamed(file: String, line: Int, old: String, new: String, field: String, problem: String)
        throws
    {
        let feed = try copyOfCaltrain()
        try edit(feed, file, line: line, old, new)
        #expect(throws: ImportError(file: feed.path(file), location: "line \(line)", field: field, problem: problem)) {
            _ = try GTFSImporter.load(path: feed.url.path)
        }
    }

    /// A `stops.txt` cut inside a quoted name used to read as one stop running to the end,
    /// and the feed was refused for an unknown stop in `stop_times.txt`.
    @Test func aStopsFileCutInsideAQuoteIsNamedNotItsNeighbour() throws {
        let feed = try copyOfCaltrain()
        let path = feed.path("stops.txt")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("70999,70999,\"Cut Sta".utf8))
        try handle.close()
        #expect(
            throws: ImportError(
                file: path, location: "line \(lines + 1)",
                problem: "a quote opened here is never closed (the file is cut short or malformed)")
        ) {
            _ = try GTFSImporter.load(path: feed.url.path)
        }
    }

    @Test func aTripListedTwiceIsNamedInTheFeedNotInTheOutput() throws {
        let feed = try copyOfCaltrain()
        let path = feed.path("trips.txt")
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let trip = try #require(lines[3].split(separator: ",").dropFirst(2).first)
        lines.insert(lines[3], at: lines.count - 1)
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(
            throws: ImportError(
                file: path, location: "line \(lines.count - 1)", field: "trip_id",
                problem: "'\(trip)' is listed twice (first on line 4)")
        ) {
            _ = try GTFSImporter.load(path: feed.url.path)
        }
    }

    @Test func millionsOfBlankLinesAreRefusedEarly() throws {
        let feed = try copyOfCaltrain()
        let path = feed.path("stop_times.txt")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: UInt8(ascii: "\n"), count: CSVTable.maximumBlankLines + 1))
        try handle.close()
        #expect(throws: ImportError(file: path, problem: "more than 100000 blank lines; not read")) {
            _ = try GTFSImporter.load(path: feed.url.path)
        }
    }

    /// A zip entry is inflated only up to the limit, whatever the archive says of its size.
    @Test func aZipEntryThatInflatesBeyondTheLimitIsRefused() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("feed.zip")
        let archive = try Archive(url: url, accessMode: .create)
        let text = Data(String(repeating: "\n", count: 100_000).utf8)
        try archive.addEntry(with: "stops.txt", type: .file, uncompressedSize: Int64(text.count), compressionMethod: .deflate) {
            position, size in text.subdata(in: Int(position)..<Int(position) + size)
        }
        let zip = try ZipArchive(path: url.path)
        let entry = try #require(zip.entry(named: "stops.txt"))
        #expect(throws: ImportError(file: "feed.zip/stops.txt", problem: "larger than 50000 bytes; not read")) {
            try zip.data(of: entry, name: "feed.zip/stops.txt", maximumBytes: 50_000)
        }
        #expect(try zip.data(of: entry, name: "feed.zip/stops.txt", maximumBytes: 100_000) == text)
    }

    /// Found by fuzzing: a deflate stream that ends before its data made the zip library loop
    /// for ever. It is refused at once, as are an entry running past the archive, a wrong
    /// CRC-32 and an archive cut short.
    @Test func aDamagedZipEntryIsRefusedAtOnce() throws {
        let folder = try TemporaryDirectory()
        let url = folder.url.appendingPathComponent("feed.zip")
        let archive = try Archive(url: url, accessMode: .create)
        let text = Data((0..<5_000).map { "line \($0) of a feed\n" }.joined().utf8)
        try archive.addEntry(with: "stops.txt", type: .file, uncompressedSize: Int64(text.count), compressionMethod: .deflate) {
            position, size in text.subdata(in: Int(position)..<Int(position) + size)
        }
        let good = try Data(contentsOf: url)
        let zip = try ZipArchive(path: url.path)
        #expect(try zip.data(of: try #require(zip.entries.first), name: "z", maximumBytes: 1 << 20) == text)
        // The central directory's header and where its compressed size is written.
        let signature: [UInt8] = [0x50, 0x4B, 1, 2]
        let bytes = [UInt8](good)
        let found = (0..<(bytes.count - 4)).last { Array(bytes[$0..<($0 + 4)]) == signature }
        let directory = try #require(found)
        let size = Int(good[directory + 20]) | Int(good[directory + 21]) << 8 | Int(good[directory + 22]) << 16
        func damaged(_ change: (inout [UInt8]) -> Void) throws -> String {
            var bytes = [UInt8](good)
            change(&bytes)
            let path = folder.path("damaged.zip")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let zip = try ZipArchive(path: path)
            let entry = try #require(zip.entries.first)
            do throws(ImportError) {
                _ = try zip.data(of: entry, name: "feed.zip/stops.txt", maximumBytes: 1 << 20)
                return "read"
            } catch {
                return error.problem
            }
        }
        // The compressed data said to end halfway: the stream has not ended when the data does.
        let half = size / 2
        #expect(
            try damaged { bytes in
                bytes[directory + 20] = UInt8(half & 0xFF)
                bytes[directory + 21] = UInt8((half >> 8) & 0xFF)
                bytes[directory + 22] = UInt8((half >> 16) & 0xFF)
            } == "cut short (its compressed data ends early)")
        #expect(try damaged { $0[directory + 23] = 0x7F } == "the zip entry runs past the end of the archive")
        #expect(try damaged { $0[directory + 16] ^= 0xFF } == "damaged (its CRC-32 does not match)")
    }
}
