/// A service the train may still be while the tracker has not told the services apart
/// (`TrackingResult.undecided`): a line, a train type, the next station its trains stop at,
/// and its share of the belief.
///
/// Before the first station where the services sharing a track part (one stops where another
/// passes), each of them explains the ride as well as the others; the answer lists them, so
/// that an app can say "Local or Rapid" rather than pick one.
public struct PossibleService: Hashable, Sendable {
    /// The railway's id.
    public var railwayID: String
    /// The direction of travel.
    public var direction: TravelDirection
    /// The direction's name, e.g. `Outbound`.
    public var directionName: String
    /// The train type (`TrainType.id`) of its trains, when the timetable names one.
    public var trainTypeID: String?
    /// The next station its trains stop at (the station the train stands at, when it stands
    /// at one of their stops); `nil` past their last stop.
    public var nextStopID: String?
    /// Its share of the tracker's belief, 0 ... 1 (the shares of the services listed need not
    /// add up to 1: the least likely are left out).
    public var share: Double

    /// Creates a possible service.
    public init(
        railwayID: String, direction: TravelDirection, directionName: String, trainTypeID: String?, nextStopID: String?,
        share: Double
    ) {
        self.railwayID = railwayID
        self.direction = direction
        self.directionName = directionName
        self.trainTypeID = trainTypeID
        self.nextStopID = nextStopID
        self.share = share
    }
}
