import Testing
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerTestSupport

@testable import TrainTrackerLab

/// The default tracker's arrivals at every stop ahead, on Caltrain's recorded trains of 15-16
/// October 2024 (`TripModelRealRideTests.rides`).
@Suite(.tags(.sharedData)) struct TripArrivalRealRideTests {
    @Test func theStopsAheadComeInCallingOrderToTheTripsEndWithTheirIntervals() throws {
        let model = try TripModelRealRideTests.model.get()
        let trains = try TripModelRealRideTests.dataset.get().timetable.trains
        let callsOf = Dictionary(trains.map { ($0.id, $0.stops.map(\.stationID)) }, uniquingKeysWith: { first, _ in first })
        var predicted = 0
        var astray = 0
        var widening = 0
        var widened = 0
        for ride in try TripModelRealRideTests.rides.get().prefix(30) {
            var tracker = TripTracker(model: model)
            for fix in ride.fixes {
                let answer = tracker.process(fix.location)
                guard let best = answer.best, let train = best.trainID, !best.arrivals.isEmpty else { continue }
                predicted += 1
                let arrivals = best.arrivals
                let stations = arrivals.map(\.stationID)
                let calls = callsOf[train] ?? []
                // The trip's calls from some point to its end, in order; each interval around its
                // time; none before the fix; later stops no sooner.
                let inOrder = calls.count >= stations.count && Array(calls.suffix(stations.count)) == stations
                let honest = arrivals.allSatisfy { $0.earliest <= $0.time && $0.time <= $0.latest }
                let ahead = arrivals.allSatisfy { $0.time >= fix.location.timestamp }
                let ordered = zip(arrivals, arrivals.dropFirst()).allSatisfy { $0.time <= $1.time }
                if !(inOrder && honest && ahead && ordered) { astray += 1 }
                if arrivals.count >= 3, let first = arrivals.first, let last = arrivals.last {
                    widening += 1
                    let width = { (arrival: PredictedArrival) in arrival.latest.seconds(since: arrival.earliest) }
                    if width(last) > width(first) { widened += 1 }
                }
            }
        }
        #expect(predicted > 500, "fixes with arrivals predicted: \(predicted)")
        #expect(astray == 0, "\(astray) of \(predicted) fixes' arrivals out of order, off the trip or before the fix")
        // The delay may change more before the last stop than before the next: a wider interval.
        #expect(widening > 100 && widened == widening, "\(widened) of \(widening)")
    }

    /// Scored as the Transit benchmark scores them, the arrivals at every stop ahead are right
    /// on most predictions in each horizon (the constants were fitted on these days: a guard
    /// against a change that breaks them, not a held-out figure; docs/accuracy.md has those).
    @Test func theArrivalsAtEveryStopAheadAreRightAsTheBenchmarkScoresThem() throws {
        let model = try TripModelRealRideTests.model.get()
        var benchmark = ArrivalBenchmark()
        var covered = 0
        var scored = 0
        for ride in try TripModelRealRideTests.rides.get().prefix(40) {
            var tracker = TripTracker(model: model)
            let truth = Evaluator.arrivals(of: ride.truth)
            for fix in ride.fixes {
                guard let best = tracker.process(fix.location).best else { continue }
                let time = fix.location.timestamp.secondsSince1970
                for verdict in Evaluator.stopsAhead(best, at: time, arrivals: truth) {
                    benchmark.add(predicted: time + verdict.horizon, actual: time + verdict.ahead, at: time)
                    scored += 1
                    if verdict.covered { covered += 1 }
                }
            }
        }
        #expect(benchmark.buckets.allSatisfy { $0.predictions > 200 })
        #expect(benchmark.buckets.allSatisfy { ($0.share ?? 0) > 0.7 }, "\(benchmark.buckets.map(\.share))")
        #expect(Double(covered) / Double(max(scored, 1)) > 0.5, "intervals held \(covered) of \(scored)")
    }

    /// Fitted on the five other shared days, the arrival model predicts 15 October's arrivals
    /// with less bias than the timeline at today's delay at every horizon from 3 minutes (the
    /// timeline: late by over half a minute at 10-15 minutes ahead), and intervals that hold
    /// the truth on most predictions. 15 October is the six days' hardest: its trains lost
    /// more time than the other days' (pooled over the six days held out, the median error is
    /// within 10 s at every minute and the intervals hold 75-84 %; docs/accuracy.md), so the
    /// bounds here are that day's: within 30 s, 60-90 %.
    @Test func theArrivalModelFittedOnOtherDaysIsUnbiasedWithHonestIntervals() throws {
        let dataset = try TripModelRealRideTests.dataset.get()
        let model = try TripModelRealRideTests.model.get()
        let zone = dataset.timetable.zone
        let recording = try VehiclePositionRecording.read(path: SharedPaths.caltrainRecording, zone: zone)
        let november = RecordedRides(positions: recording.positions, dataset: dataset).cases
        let october = try TripModelRealRideTests.rides.get()
        let onThe15th = { (ride: (fixes: [RecordedFix], truth: CaseTruth)) in
            "\(zone.day(of: Timestamp(secondsSince1970: ride.truth.departure)))" == "2024-10-15"
        }
        let (held, fitted) = (october.filter(onThe15th), november + october.filter { !onThe15th($0) })
        #expect(held.count > 80 && fitted.count > 350, "\(held.count) rides held out, \(fitted.count) fitted on")
        var trips = TripModelParameters()
        trips.arrivalModel = nil
        let timeline = Self.scores(held, model: model, trips: trips)
        trips.arrivalModel = try #require(ArrivalModelFit(rides: fitted, model: model, trips: trips).run())
        let predicted = Self.scores(held, model: model, trips: trips)
        for (bucket, horizon) in ["0-3", "3-6", "6-10", "10-15"].enumerated() {
            let errors = predicted.errors[bucket]
            #expect(errors.count > 1_000, "\(horizon) min: \(errors.count) predictions")
            let median = try #require(errors.median)
            let before = try #require(timeline.errors[bucket].median)
            #expect(abs(median) <= 30, "\(horizon) min: the truth \(Int(median)) s after the prediction")
            if bucket > 0 {
                #expect(abs(median) < abs(before), "\(horizon) min: \(Int(median)) s, the timeline \(Int(before)) s")
            }
            let share = Double(predicted.covered[bucket]) / Double(errors.count)
            #expect((0.6...0.9).contains(share), "\(horizon) min: the interval held \(share)")
        }
        #expect(try #require(timeline.errors[3].median) > 30, "the timeline's bias at 10-15 min, the model's reason")
    }

    /// Per horizon bucket (0-3, 3-6, 6-10, 10-15 min), the truth less the prediction at every
    /// stop ahead of `rides`, and how many intervals held it, with the trip model's `trips`.
    static func scores(_ rides: [(fixes: [RecordedFix], truth: CaseTruth)], model: TrackerModel, trips: TripModelParameters)
        -> (errors: [[Seconds]], covered: [Int])
    {
        var errors: [[Seconds]] = Array(repeating: [], count: 4)
        var covered = Array(repeating: 0, count: 4)
        let bounds: [Seconds] = [180, 360, 600, 900]
        for ride in rides {
            var tracker = TripTracker(model: model, trips: trips)
            let truth = Evaluator.arrivals(of: ride.truth)
            for fix in ride.fixes {
                guard let best = tracker.process(fix.location).best else { continue }
                let time = fix.location.timestamp.secondsSince1970
                for verdict in Evaluator.stopsAhead(best, at: time, arrivals: truth) where verdict.horizon >= 0 {
                    guard let bucket = bounds.firstIndex(where: { verdict.horizon < $0 }) else { continue }
                    errors[bucket].append(-verdict.error)
                    if verdict.covered { covered[bucket] += 1 }
                }
            }
        }
        return (errors, covered)
    }
}
