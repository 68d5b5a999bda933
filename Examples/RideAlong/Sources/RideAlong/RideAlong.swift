import Foundation
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerStorage

/// Rides along a recorded journey as an iPhone app would: loads the network once, feeds each
/// fix to the tracker as it comes, shows a Live-Activity line whenever the answer changes,
/// asks `estimate(at:)` every 20 s while the phone has no fix (a tunnel), and halfway through
/// is "suspended": saves its snapshot, forgets the tracker, restores it and carries on.
///
///     swift run RideAlong NETWORK.sqlite RIDE.gpx [UTC-OFFSET-HOURS]
@main
struct RideAlong {
    /// Seconds without a fix after which the app asks the tracker for an estimate.
    static let estimateEvery: Seconds = 20
    /// Seconds an arrival estimate must move before the time shown changes.
    static let steadyArrival: Seconds = 30

    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.count >= 2 else {
            fail("usage: RideAlong NETWORK.sqlite RIDE.gpx [UTC-OFFSET-HOURS]")
        }
        let networkPath = arguments[arguments.startIndex]
        let ridePath = arguments[arguments.startIndex + 1]
        let utcOffset = arguments.dropFirst(2).first.flatMap(Double.init).map { $0 * 3_600 } ?? 0
        guard (-14 * 3_600...14 * 3_600).contains(utcOffset) else { fail("the UTC offset must be -14 to 14 hours") }

        // Once per app launch: the network with its compiled timetable (0.3 s for Tokyo).
        let model: TrackerModel
        let fixes: [Location]
        do {
            model = try RailwayDatabase.loadModel(path: networkPath, recompiled: { print("note: \($0)") })
            guard let track = try JourneyFile.read(path: ridePath).first else { fail("\(ridePath): no track") }
            fixes = track.locations
        } catch {
            fail("\(error)")
        }
        print("\(ridePath): \(fixes.count) fixes; \(model.network.railways.count) railways, timetables: \(model.hasTimetable)")
        ride(fixes, model: model, utcOffset: utcOffset)
    }

    static func ride(_ fixes: [Location], model: TrackerModel, utcOffset: Seconds) {
        var tracker = RailwayTracker(model: model)
        var lastFix: Location?
        var shown: LiveActivityLine?
        var shownArrival: (stop: String, eta: Timestamp)?
        func show(_ result: TrackingResult, at time: Timestamp) {
            // An arrival time a few seconds either side of a minute would flip the minute shown
            // at every fix: keep the one shown until the estimate moves by half a minute.
            var result = result
            if let best = result.best, let stop = best.nextStopID, let eta = best.eta {
                if let shown = shownArrival, shown.stop == stop, abs(eta.seconds(since: shown.eta)) < Self.steadyArrival {
                    result.candidates[0].eta = shown.eta
                } else {
                    shownArrival = (stop, eta)
                }
            }
            guard let line = LiveActivityLine(result, network: model.network, utcOffset: utcOffset), line != shown else {
                return
            }
            shown = line
            print("\(time.timeOfDay(utcOffset: utcOffset))  \(line.text)")
        }
        for (index, fix) in fixes.enumerated() {
            // No fix for a while (underground): what the app shows meanwhile.
            if let last = lastFix {
                var time = last.timestamp.adding(estimateEvery)
                while time < fix.timestamp {
                    show(tracker.estimate(at: time), at: time)
                    time = time.adding(estimateEvery)
                }
            }
            show(tracker.process(fix), at: fix.timestamp)
            lastFix = fix
            if index == fixes.count / 2 { tracker = suspendAndResume(tracker, at: fix.timestamp, model: model) }
        }
    }

    /// The system suspends the app: it saves its tracker's snapshot; woken, it restores it.
    static func suspendAndResume(_ tracker: RailwayTracker, at time: Timestamp, model: TrackerModel) -> RailwayTracker {
        do {
            let saved = try RideSnapshot.encoded(tracker)
            let restored = try RideSnapshot.restore(saved, model: model)
            // The proof: both answer the next minute alike.
            var before = tracker
            var after = restored
            let same = before.estimate(at: time.adding(60)) == after.estimate(at: time.adding(60))
            print("         (suspended: \(saved.count / 1_024) KB saved; resumed, \(same ? "the same answer" : "A DIFFERENT ANSWER"))")
            if !same { exit(1) }
            return restored
        } catch {
            fail("snapshot: \(error)")
        }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("RideAlong: \(message)\n".utf8))
        exit(2)
    }
}
