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
        var progress = ProgressBar(label: "feeds", total: feeds.count)
        for (index, feed) in feeds.enumerated() {
            let seconds = Int(wholeNumber: feed.timestamp.secondsSince1970) ?? index
            let path = (folder as NSString).appendingPathComponent("feed-\(seconds).pb")
            if !replacing, FileManager.default.fileExists(atPath: path) {
                throw CommandFailure("\(path): file exists; not overwriting it (use --force)")
            }
            try CommandFailure.wrapping { () throws(StorageError) in
                try StagedFile.write(Data(RealtimeFeedWriter.bytes(feed)), to: path)
            }
            progress.update(index + 1)
        }
        progress.finish()
    }
}
