@testable import TrainTrackerCore

/// The trip model's per-trip weighings applied to every trip followed at once, as the tests
/// weigh a belief they built by hand (the tracker weighs trip by trip, inside `weigh`).
extension TripFollower {
    /// Every trip followed weighed by the feed `live` (`weighFeed(_:weight:trip:)`).
    mutating func weighFeed(_ live: LiveTrips, weight: Double) {
        for index in followed.indices { weighFeed(live, weight: weight, trip: index) }
    }

    /// Every trip's belief times its line's factor (`lineFactors`).
    mutating func weighLines(_ lineEvidence: [Int: LineEvidence], stopsTrust: Double = 1) {
        let factors = lineFactors(lineEvidence, stopsTrust: stopsTrust)
        for index in followed.indices {
            if let factor = factors[Int(followed[index].key.line)] { followed[index].scale(by: factor) }
        }
    }
}
