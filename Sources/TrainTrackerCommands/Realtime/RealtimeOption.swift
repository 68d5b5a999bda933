import ArgumentParser
import TrainTrackerCore
import TrainTrackerRealtime

/// The `--realtime PATH` option: a GTFS-realtime feed file, or a folder of them.
struct RealtimeOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "GTFS-realtime feeds: a feed file or a folder of them (any names). At each fix the tracker knows what the latest feed at or before its time said.",
            valueName: "path"))
    var realtime: String?

    @Flag(
        help:
            "The --realtime feeds are riders' (recording-feed --riders, a server's /v1/realtime feed): they report the trains riders are on, not every train."
    )
    var realtimeRiders = false

    /// The feeds, resolved against `model`; nil without the option. Files that are not feeds,
    /// trips the timetable lacks and entities left out are said on standard error.
    func feeds(model: TrackerModel) throws(CommandFailure) -> LiveFeeds? {
        guard let realtime else { return nil }
        let archive: RealtimeArchive
        do {
            archive = try RealtimeArchive.read(path: realtime)
        } catch {
            throw CommandFailure(error.problem)
        }
        for problem in archive.unreadable.prefix(Self.namedProblems) { StandardError.line("warning: \(problem)") }
        if archive.unreadable.count > Self.namedProblems {
            StandardError.line("warning: \(archive.unreadable.count - Self.namedProblems) more files that are not feeds")
        }
        let feeds = archive.live(model: model, fromRiders: realtimeRiders)
        let unknown = feeds.feeds.reduce(0) { $0 + $1.unknownTrips }
        let known = feeds.feeds.reduce(0) { $0 + $1.knownTrips }
        let offTrack = feeds.feeds.reduce(0) { $0 + $1.offTrackVehicles }
        let skipped = archive.skipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        StandardError.line(
            "\(realtime): \(feeds.feeds.count) feeds, \(known) trip updates of the timetable's trips, \(unknown) of trips it lacks"
                + (offTrack == 0 ? "" : ", \(offTrack) vehicle positions off their trips' tracks")
                + (skipped.isEmpty ? "" : "; left out: \(skipped)"))
        return feeds
    }

    /// Unreadable files named one by one, at most.
    static let namedProblems = 5
}
