import ArgumentParser
import TrainTrackerCore
import TrainTrackerLab

/// `traintracker demo`: the main job on an embedded network, with no data needed.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Track two simulated rides on a built-in network: a local and an express train on one track."
    )

    @Option(help: "The tracking algorithm.")
    var algorithm: TrackingAlgorithmName = .default

    @Option(help: "Seed of the simulated GPS noise.")
    var seed: UInt64 = 7

    func run() throws {
        let output = OutputSink.standardOutput()
        for line in Self.run(algorithm: algorithm, seed: seed) {
            output.line(line)
        }
        output.flush()
    }

    /// The demo's text: for each ride, its timeline and whether the tracker named the right line.
    static func run(algorithm: TrackingAlgorithmName, seed: UInt64) -> [String] {
        let network = DemoNetwork.make()
        let model = TrackerModel(dataset: TransitDataset(network: network))
        var parameters = JourneySimulator.Parameters()
        parameters.positionNoise = 5
        parameters.speedNoise = 0.3
        parameters.seed = seed
        parameters.maximumSpeed = 22
        let simulator = JourneySimulator(network: network, parameters: parameters)
        let formatter = ReplayFormatter(network: network)
        let start = Timestamp(parsing: "2025-09-20T08:00:00Z") ?? Timestamp(secondsSince1970: 0)
        var lines = [
            "TrainTracker demo: a local and an express line share one track with eight stations;",
            "the express stops at \(DemoNetwork.stationNames.filter(DemoNetwork.expressStops.contains).joined(separator: ", ")).",
            "Each ride is simulated at 1 Hz with 5 m GPS noise and tracked with the '\(algorithm.rawValue)' algorithm.",
        ]
        let rides = [(DemoNetwork.localID, "local"), (DemoNetwork.expressID, "express")]
        for (railwayID, label) in rides {
            guard let railway = network.railway(id: railwayID),
                let origin = railway.stationIDs.first, let destination = railway.stationIDs.last,
                let fixes = try? simulator.journey(on: railwayID, from: origin, to: destination, start: start)
            else { continue }
            lines.append("")
            lines.append("Riding the \(label) train, \(railway.name), Minato → Yama (\(fixes.count) fixes):")
            var tracker = algorithm.makeTracker(model: model)
            var timeline = TimelineWriter(formatter: formatter)
            var last: TrackingResult?
            for (index, location) in fixes.enumerated() {
                let result = tracker.process(location)
                if let line = timeline.line(for: RecordedFix(id: "\(index)", location: location), result: result) {
                    lines.append("  " + line)
                }
                last = result
            }
            let verdict = last?.best?.railwayID == railwayID ? "right" : "wrong"
            lines.append(
                "  → the tracker ends on \(last?.best.map { network.railway(id: $0.railwayID)?.name ?? $0.railwayID } ?? "nothing"): \(verdict)"
            )
        }
        return lines
    }
}
