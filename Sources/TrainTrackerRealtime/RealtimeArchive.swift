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

    /// The most files a folder of feeds may hold (a feed a minute for two months).
    public static let mostFiles = 100_000

    /// Reads `path`: a feed file, or every regular file of a folder (hidden files left out).
    /// A file that is not a feed (too large, not a regular file: a pipe, a device) is left out
    /// and named in `unreadable`, never a crash or a hang. Feeds of the same time are taken in
    /// file-name order, the last winning.
    ///
    /// - Throws: `RealtimeError` when `path` is missing, unreadable, a folder of more than
    ///   `mostFiles` files, or holds no feed at all.
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
            guard names.count <= mostFiles else {
                throw RealtimeError("\(path): \(names.count) files, more than the \(mostFiles) read as feeds")
            }
            files = names.filter { !$0.hasPrefix(".") }.sorted().map { (path as NSString).appendingPathComponent($0) }
        }
        var archive = RealtimeArchive(feeds: [], unreadable: [], skipped: [:])
        for file in files {
            switch contents(of: file) {
            case .success(nil): continue
            case .failure(let problem): archive.unreadable.append(problem.problem)
            case .success(let bytes?):
                do {
                    let reading = try RealtimeFeedReader.read(bytes, name: file)
                    archive.feeds.append(reading.feed)
                    archive.skipped.merge(reading.skipped, uniquingKeysWith: +)
                } catch {
                    archive.unreadable.append(error.problem)
                }
            }
        }
        guard !archive.feeds.isEmpty else {
            throw RealtimeError("\(path): no GTFS-realtime feed in it" + (archive.unreadable.first.map { " (\($0))" } ?? ""))
        }
        // (Stable: feeds of one time keep the files' order.)
        archive.feeds = archive.feeds.enumerated().sorted {
            ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset)
        }
        .map(\.element)
        return archive
    }

    /// The bytes of `file` if it is a regular file of at most a feed's size (its link
    /// followed); nil for a folder inside the folder; a problem otherwise.
    static func contents(of file: String) -> Result<[UInt8]?, RealtimeError> {
        let target = (file as NSString).resolvingSymlinksInPath
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: target),
            let type = attributes[.type] as? FileAttributeType
        else { return .failure(RealtimeError("\(file): cannot be read")) }
        if type == .typeDirectory { return .success(nil) }
        guard type == .typeRegular else { return .failure(RealtimeError("\(file): not a regular file")) }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= RealtimeFeedReader.largestFeed else {
            return .failure(RealtimeError("\(file): \(size) bytes, more than a feed's \(RealtimeFeedReader.largestFeed)"))
        }
        guard let handle = FileHandle(forReadingAtPath: target) else { return .failure(RealtimeError("\(file): cannot be read")) }
        defer { try? handle.close() }
        // (At most one byte more than a feed may hold, whatever the file grew to since.)
        guard let data = try? handle.read(upToCount: RealtimeFeedReader.largestFeed + 1) else { return .success([]) }
        return .success([UInt8](data))
    }

    /// The feeds resolved against `model`, for `LiveTracker`.
    /// `fromRiders`: the feeds are riders' (the server's published feed, `recording-feed
    /// --riders`), reports of the trains riders are on, not of every train.
    public func live(model: TrackerModel, fromRiders: Bool = false) -> LiveFeeds {
        LiveFeeds(
            feeds.map { feed in
                var feed = feed
                if fromRiders { for index in feed.trips.indices { feed.trips[index].fromRiders = true } }
                return LiveTrips(feed, model: model)
            }, model: model)
    }
}
