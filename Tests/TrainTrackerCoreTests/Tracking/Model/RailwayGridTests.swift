import Testing
import TrainTrackerLab
import TrainTrackerTestSupport

@testable import TrainTrackerCore

/// The grid that tells a fix which railways to ask (`RailwayGrid`): on the real Tokyo
/// network, every railway whose track lies within its margin of a point is among those it
/// lists, none it lists is more than three cells away, in increasing order, and a
/// point far from any track lists none.
@Suite(.tags(.sharedData)) struct RailwayGridTests {
    /// The farthest a listed railway's track may lie: a long edge is entered with the two cells
    /// around each point along it, so three cells' diagonal, and 10 % for cells measured at the
    /// network's northern edge.
    static let farthestListed: Meters = RailwayGrid.cellSize * 3 * 2.0.squareRoot() * 1.1

    @Test func everyRailwayWithinTheMarginIsListed() throws {
        let network = try SharedData.tokyoNetwork()
        let grid = RailwayGrid(network: network)
        let box = network.boundingBox
        var generator = SeededGenerator(seed: 44)
        var listed = 0
        // Points near stations (where tracks crowd) and anywhere in the network's box.
        let stations = network.stations.map(\.coordinate)
        for index in 0..<600 {
            let point: Coordinate
            if index % 2 == 0 {
                let station = stations[Int.random(in: 0..<stations.count, using: &generator)]
                point = Coordinate(
                    latitude: station.latitude + Double.random(in: -0.006...0.006, using: &generator),
                    longitude: station.longitude + Double.random(in: -0.006...0.006, using: &generator))
            } else {
                point = Coordinate(
                    latitude: Double.random(in: box.southWest.latitude...box.northEast.latitude, using: &generator),
                    longitude: Double.random(in: box.southWest.longitude...box.northEast.longitude, using: &generator))
            }
            let railways = grid.railways(near: point)
            #expect(Array(railways) == Array(railways).sorted())
            #expect(Set(railways).count == railways.count)
            for (railwayIndex, railway) in network.railways.enumerated() {
                let listed = railways.contains(Int32(railwayIndex))
                if railway.track.polyline.projection(of: point, within: RailwayGrid.margin) != nil {
                    #expect(listed, "railway \(railway.id) near \(point)")
                }
                // A cell lists a railway only when its track passes near the cell.
                if listed {
                    #expect(railway.track.polyline.projection(of: point, within: Self.farthestListed) != nil)
                }
            }
            listed += railways.count
        }
        #expect(listed > 0)
        let faraway = Coordinate(latitude: box.northEast.latitude + 1, longitude: box.northEast.longitude + 1)
        #expect(grid.railways(near: faraway).isEmpty)
    }
}
