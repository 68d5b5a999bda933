import ArgumentParser
import Foundation
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerLab
import TrainTrackerStorage

/// `traintracker fit`: the trip model's constants estimated from recorded rides by maximum
/// likelihood, written to a file that `--parameters` reads.
struct FitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fit",
        abstract: "Fit the trip model's constants to recorded trains: by maximum likelihood, then to tell trains apart.",
        discussion: """
            Reads recordings of trains' own positions (--recording, repeatable, as evaluate takes them: a \
            positions file, or an operator's archive of GTFS-realtime VehiclePositions feeds) on the --railways \
            GTFS feed they ran on, and raises the likelihood of every ride's positions under its true \
            trip by a coordinate search over the constants the likelihood tells: how far positions lie from the \
            train, dwells, run profiles, how trains keep and gain delay, how late they start. The rest (how often \
            riders board, the delay grid) stay as they are. Starts from the hand-set point (or --parameters). \
            Then, for --telling-rounds rounds, the timing, delay and prior constants are searched again to raise \
            the true trip's share of the belief at each fix with every trip of the day a candidate: constants \
            that tell a ride's train from the others, not only explain its positions. Writes the constants as \
            JSON (--out), which evaluate, replay, bench and serve read with --parameters FILE (for the default algorithm).
            """)

    @OptionGroup var railways: RailwaysOption

    @Option(
        help: ArgumentHelp(
            "A recording of trains' positions (repeatable), as evaluate --recording takes: a positions file, or an operator's GTFS-realtime archive (a folder of VehiclePositions feeds).",
            valueName: "path"))
    var recording: [String] = []

    @Option(
        help: ArgumentHelp(
            "Start from these constants (a file fit wrote) instead of the hand-set starting point.", valueName: "file"))
    var parameters: String?

    @Option(help: ArgumentHelp("Where to write the fitted constants (JSON).", valueName: "file"))
    var out: String

    @Option(help: "Rounds of the search (each narrows its steps).")
    var rounds = 3

    @Option(
        help: ArgumentHelp(
            "Rounds of the search that then tells the trips apart (0: the likelihood's fit alone).", valueName: "rounds"))
    var tellingRounds = 2

    @Option(
        name: .customLong("constant"),
        help: ArgumentHelp(
            "Fit only this constant (repeatable; default: every constant the likelihood tells).", valueName: "name"))
    var constants: [String] = []

    @Flag(
        help: ArgumentHelp(
            "Fit only the arrival model (how delays evolve to the stops ahead); the other constants stay those of --parameters, else the defaults."
        ))
    var arrivalsOnly = false

    func validate() throws {
        guard !recording.isEmpty else { throw ValidationError("give at least one --recording") }
        guard (1...6).contains(rounds) else { throw ValidationError("--rounds must be 1 to 6") }
        guard (0...6).contains(tellingRounds) else { throw ValidationError("--telling-rounds must be 0 to 6") }
        let known = TripModelFit.fitted.map(\.name)
        for name in constants where !known.contains(name) {
            throw ValidationError("--constant \(name): not a fitted constant (\(known.joined(separator: ", ")))")
        }
    }

    func run() throws {
        let dataset = try railways.loadDataset(timetables: true)
        let model = TrackerModel(dataset: dataset)
        let positions = try RecordingEvaluation.read(recording, zone: dataset.timetable.zone).positions
        let cases = RecordedRides(positions: positions, dataset: dataset).cases
        let rides = cases.map { TripModelRide(fixes: $0.fixes.map(\.location), tripID: $0.truth.trainID, model: model) }
        guard !rides.isEmpty else {
            throw CommandFailure("\(recording.joined(separator: ", ")): no ride of a trip in \(railways.railways)")
        }
        let base = arrivalsOnly ? TripModelParameters() : .handSet
        let start =
            try parameters.map { path throws(CommandFailure) in try TripParametersFile.read(path: path, base: base) } ?? base
        var fit = TripModelFit(rides: rides, model: model)
        fit.rounds = rounds
        fit.tellingRounds = tellingRounds
        if !constants.isEmpty { fit.fittedNames = TripModelFit.fitted.filter { constants.contains($0.name) } }
        if arrivalsOnly { fit.fittedNames = [] }
        let before = fit.score(start)
        let outcome: TripModelFit.Outcome
        if arrivalsOnly {
            outcome = TripModelFit.Outcome(parameters: start, logLikelihood: before, likeliestLogLikelihood: before)
        } else {
            var progress = ProgressBar(label: "fit", total: fit.estimatedTrials(from: start))
            outcome = fit.run(from: start) { progress.update($0) }
            progress.finish()
        }
        var fitted = outcome.parameters
        fitted.arrivalModel = ArrivalModelFit(rides: cases.map { ($0.fixes, $0.truth) }, model: model, trips: fitted).run()
        try TripParametersFile(
            parameters: fitted, fittedOn: recording.map { URL(fileURLWithPath: $0).lastPathComponent }, rides: rides.count,
            logLikelihood: outcome.logLikelihood
        ).write(to: out)
        let output = OutputSink.standardOutput()
        let fixes = rides.reduce(0) { $0 + $1.count }
        let after = outcome.likeliestLogLikelihood
        output.line(
            "\(rides.count) rides, \(fixes) fixes: log-likelihood \(String(format: "%.1f", before)) → \(String(format: "%.1f", after))"
                + " (\(String(format: "%.3f", (after - before) / Double(max(fixes, 1)))) per fix)")
        if let telling = outcome.telling {
            // The geometric mean over fixes of the true trip's share of the belief.
            let share = { (score: Double) in String(format: "%.3f", Double.exp(score / Double(max(fixes, 1)))) }
            output.line(
                "telling the trips apart: the true trip's share of the belief (geometric mean over fixes) "
                    + "\(share(telling.before)) → \(share(telling.after)) (log-likelihood then "
                    + String(format: "%.1f", outcome.logLikelihood) + ")")
        }
        var rows = [["constant", "before", "fitted"]]
        for (name, _) in fit.fittedNames {
            guard let path = TripModelParameters.tunables[name] else { continue }
            rows.append([name, String(format: "%.4g", start[keyPath: path]), String(format: "%.4g", fitted[keyPath: path])])
        }
        output.line(alignedTable(rows))
        if let arrivals = fitted.arrivalModel {
            let floor = arrivals.departureFloor.map { String(format: "%.0f s", $0) } ?? "none"
            output.line(
                "arrivals: offset \(String(format: "%.1f", arrivals.offset)) s, early trains wait until \(floor) late, "
                    + "\(String(format: "%.1f", arrivals.lossPerStop)) s lost a stop, "
                    + "\(String(format: "%.2f", arrivals.lossPerMinute)) s a minute; interval \(String(format: "%.1f", arrivals.earlySpread)) s "
                    + "early, \(String(format: "%.1f", arrivals.lateSpread)) s late × (minutes + 1)^"
                    + String(format: "%.1f", arrivals.spreadExponent ?? 0.5))
        }
        output.line("written to \(out)")
        output.flush()
    }
}
