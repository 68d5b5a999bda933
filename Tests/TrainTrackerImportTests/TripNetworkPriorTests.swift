import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore
@testable import TrainTrackerImport

/// The delay prior fitted on Caltrain's recorded trains holds on Caltrain's lines; on any
/// other network's, the hand-set prior, which assumes no network's habits.
@Suite(.tags(.sharedData)) struct TripNetworkPriorTests {
    static let caltrain = Result { try GTFSImporter.load(path: SharedPaths.caltrain2024).network }
    static let tokyo = Result { () throws(ImportError) in try MiniTokyo3DImporter.load(path: SharedPaths.miniTokyo3D).network }

    @Test func theFittedPriorHoldsOnCaltrainsLines() throws {
        let network = try Self.caltrain.get()
        let parameters = TripModelParameters()
        #expect(network.railways.count == 5)
        for railway in network.railways {
            #expect(parameters.delayPrior(on: railway) == parameters.delayPrior, "\(railway.id)")
            #expect(parameters.delayPrior(on: railway).onTimeCentre == 164)
        }
    }

    @Test func tokyosLinesTakeTheHandSetPrior() throws {
        let network = try Self.tokyo.get()
        let parameters = TripModelParameters()
        let neutral = TripModelParameters.handSet.delayPrior
        #expect(network.railways.allSatisfy { parameters.delayPrior(on: $0) == neutral })
        // A train a minute late is likelier than one eight minutes late, as on any network
        // where trains run near their timetable.
        #expect(neutral.density(60) > 10 * neutral.density(480))
        #expect(parameters.delayPrior.density(60) < parameters.delayPrior.density(480))
    }

    /// Another feed's route called "Express" elsewhere is not Caltrain's.
    @Test func aRouteOfTheSameNameElsewhereIsNotCaltrains() throws {
        let express = try #require(try Self.caltrain.get().railways.first { $0.id == "Express" })
        let tokyoTrack = try #require(try Self.tokyo.get().railways.first?.track)
        var elsewhere = express
        elsewhere.track = tokyoTrack
        #expect(TripModelParameters.FittedLines.caltrain.contains(express))
        #expect(!TripModelParameters.FittedLines.caltrain.contains(elsewhere))
        var renamed = express
        renamed.id = "Express 2"
        #expect(!TripModelParameters.FittedLines.caltrain.contains(renamed))
        // An extent given the wrong way round (a decoded file's) holds nothing, and does not trap.
        let reversed = TripModelParameters.FittedLines(
            railwayIDs: ["Express"], southWest: TripModelParameters.FittedLines.caltrain.northEast,
            northEast: TripModelParameters.FittedLines.caltrain.southWest)
        #expect(!reversed.contains(express))
    }

    /// Constants a user sets by hand or fits hold on every line: without a scope, the prior
    /// is the set's own everywhere.
    @Test func aSetWithoutLinesHoldsEverywhere() throws {
        var parameters = TripModelParameters()
        parameters.delayPriorLines = nil
        let network = try Self.tokyo.get()
        #expect(network.railways.prefix(20).allSatisfy { parameters.delayPrior(on: $0) == parameters.delayPrior })
    }
}
