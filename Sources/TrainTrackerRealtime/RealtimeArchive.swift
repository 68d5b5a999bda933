import Foundation
import TrainTrackerCore

/// Feeds recorded over time: a feed file, or a folder of them (any names, each one feed
/// message with its header's timestamp), read for `replay`, `evaluate` and `bench --realtime`.
public struct RealtimeArchive: Sendable {
    /// The feeds read, in time order.
    public var feeds: [RealtimeFeed]
    /// Files that were not feeds, each with why (`name: problem`).
    public var unreadable: [String]
    /// Entities left out of the feeds read, by reason.
    public var skipped: [String: Int]

    /// Reads `path`: a feed file, or every regular file of a folder (hidden files left out).
    /// A file that is not a feed is left out and named in `unreadable`, never a crash.
    ///
    /// - Throws: `RealtimeError` when `path` is missing, unreadable, or holds no feed at all.
    public static func read(path: String) throws(RealtimeError) -> RealtimeArchive {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw RealtimeError("\(path): no such file or folder")
        }
        var files = [path]
        if isFolder.boolValue {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
                throw RealtimeError("\(path): cannot list the folder")
            }
            files = names.filter { !$0.hasPrefix(".") }.sorted().map { (path as NSString).appendingPathComponent($0) }
        }
        var archive = RealtimeArchive(feeds: [], unreadable: [], skipped: [:])
        for file in files {
            var isSubfolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isSubfolder), !isSubfolder.boolValue else {
                continue
            }
            guard let data = FileManager.default.contents(atPath: file) else {
                archive.unreadable.append("\(file): cannot be read")
                continue
            }
            do {
                let reading = try RealtimeFeedReader.read([UInt8](data), name: file)
                archive.feeds.append(reading.feed)
                archive.skipped.merge(reading.skipped, uniquingKeysWith: +)
            } catch {
                archive.unreadable.append(error.problem)
            }
        }
        guard !archive.feeds.isEmpty else {
            throw RealtimeError("\(path): no GTFS-realtime feed in it" + (archive.unreadable.first.map { " (\($0))" } ?? ""))
        }
        archive.feeds.sort { $0.timestamp < $1.timestamp }
        return archive
    }

    /// The feeds resolved against `model`, for `LiveTracker`.
    public func live(model: TrackerModel) -> LiveFeeds {
        LiveFeeds(feeds.map { LiveTrips($0, model: model) })
    }
}
