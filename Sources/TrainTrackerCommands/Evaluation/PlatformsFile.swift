import ArgumentParser
import Foundation
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerStorage

/// Where trains stand at stations, as a file: what `traintracker platforms` writes and
/// `--platforms FILE` reads back. JSON:
///
///     {"format": "traintracker-platforms", "version": 1, "learntFrom": ["k6363"], "rides": 840,
///      "stands": 5123, "platforms": [{"railwayID": "...", "stationID": "...",
///      "offsets": [-40, 180], "stands": 7}]}
///
/// A span that is not two finite numbers in order within 2 km of the station's point is
/// refused with the file and the station named.
struct PlatformsFile: Codable {
    static let formatName = "traintracker-platforms"
    static let currentVersion = 1
    /// The largest file read: 16 MiB, a platform for each of 100,000 stations.
    static let largestFile = 16_777_216

    var format = Self.formatName
    var version = Self.currentVersion
    /// The recordings or simulated folders the platforms were learnt from.
    var learntFrom: [String] = []
    /// How many rides, and how many stands they showed.
    var rides = 0
    var stands = 0
    var platforms: [LearntPlatform] = []

    init(learntFrom: [String], rides: Int, stands: Int, platforms: [LearntPlatform]) {
        self.learntFrom = learntFrom
        self.rides = rides
        self.stands = stands
        self.platforms = platforms
    }

    private enum CodingKeys: String, CodingKey {
        case format, version, learntFrom, rides, stands, platforms
    }

    /// Reads a file: `format` and `platforms` are required, the rest may be left out.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(String.self, forKey: .format)
        version = try container.decodeIfPresent(Int.self, forKey: .version) ?? Self.currentVersion
        learntFrom = try container.decodeIfPresent([String].self, forKey: .learntFrom) ?? []
        rides = try container.decodeIfPresent(Int.self, forKey: .rides) ?? 0
        stands = try container.decodeIfPresent(Int.self, forKey: .stands) ?? 0
        platforms = try container.decode([LearntPlatform].self, forKey: .platforms)
    }

    /// The platforms in the file at `path`.
    ///
    /// - Throws: `CommandFailure` naming the file: unreadable, not such a file, a newer
    ///   version, or a span out of range.
    static func read(path: String) throws(CommandFailure) -> [LearntPlatform] {
        let data = try CommandFailure.wrapping { () throws(ImportError) in
            try InputFile.read(path, maximumBytes: largestFile)
        }
        let file: Self
        do {
            file = try JSONDecoder().decode(Self.self, from: data)
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw CommandFailure("\(path): not a platforms file (\(Self.field(context.codingPath)) is malformed)")
        } catch {
            throw CommandFailure("\(path): not a platforms file (write one with traintracker platforms)")
        }
        guard file.format == formatName else {
            throw CommandFailure("\(path): not a platforms file (write one with traintracker platforms)")
        }
        guard file.version <= currentVersion else {
            throw CommandFailure("\(path): version \(file.version) is newer than this traintracker reads (\(currentVersion))")
        }
        if let wrong = file.platforms.first(where: { !$0.isPlausible }) {
            throw CommandFailure(
                "\(path): the platform of \(Self.printable(wrong.stationID)) on \(Self.printable(wrong.railwayID)) is out of range "
                    + "(offsets within ±\(Int(LearntPlatform.largestOffset)) m, stands not negative)")
        }
        return file.platforms
    }

    /// A field's place in the file, e.g. `platforms[3].offsets`.
    private static func field(_ path: [any CodingKey]) -> String {
        path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingPrefix(".").description
    }

    /// An id from the file as an error line shows it: control characters replaced, at most 80
    /// characters.
    static func printable(_ id: String) -> String {
        let shown = ReplayFormatter.printable(id)
        return shown.count > 80 ? shown.prefix(80) + "…" : shown
    }

    /// Writes the file to `path` (beside it first, then moved into place).
    func write(to path: String) throws(CommandFailure) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        guard let data = try? encoder.encode(self) else { throw CommandFailure("cannot encode the platforms") }
        try CommandFailure.wrapping { () throws(StorageError) in try StagedFile.write(data, to: path) }
    }
}
