import Foundation
import TrainTrackerCore
import TrainTrackerRealtime
import TrainTrackerStorage

/// A folder of GTFS-realtime feeds as `recording-feed` and `simulate --feed` write it:
/// `feed-<seconds since 1970>.pb`, each file all or nothing.
enum FeedFolder {
    /// Writes `feeds` into `folder` (created if needed), with a progress bar on a terminal.
    ///
    /// - Throws: `CommandFailure` when the folder cannot be made, or a feed's file exists and
    ///   not `replacing`.
    static func write(_ feeds: [RealtimeFeed], to folder: String, replacing: Bool) throws(CommandFailure) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("\(folder): cannot create the folder (\(error.localizedDescription))")
        }
        let paths = feeds.map { (folder as NSString).appendingPathComponent(name(of: $0)) }
        // Every name checked before the first is written; with `replacing`, feeds of an earlier
        // run are removed, so the folder holds this run's feeds only.
        let earlier = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
            $0.hasPrefix("feed-") && $0.hasSuffix(".pb")
        }
        if !replacing, let taken = paths.first(where: { FileManager.default.fileExists(atPath: $0) }) {
            throw CommandFailure("\(taken): file exists; not overwriting it (use --force)")
        }
        if replacing {
            for name in earlier { try? FileManager.default.removeItem(atPath: (folder as NSString).appendingPathComponent(name)) }
        }
        var progress = ProgressBar(label: "feeds", total: feeds.count)
        for (index, (feed, path)) in zip(feeds, paths).enumerated() {
            try CommandFailure.wrapping { () throws(StorageError) in
                try StagedFile.write(Data(RealtimeFeedWriter.bytes(feed)), to: path)
            }
            progress.update(index + 1)
        }
        progress.finish()
    }

    /// `feed-<seconds since 1970>.pb`, the time rounded up as the feed's header has it.
    static func name(of feed: RealtimeFeed) -> String {
        "feed-\(Int(wholeNumber: feed.timestamp.secondsSince1970.rounded(.up)) ?? 0).pb"
    }
}
