import TrainTrackerCore

/// Railways and stations named on the command line: by id or by name, and when neither
/// matches, one line that suggests the closest and the command that lists them all.
extension RailwaysOption {
    /// The railway `query` names (its id, or its name), given as `option`.
    /// - Throws: `CommandFailure` naming the railway data, the option and the closest names.
    func railway(_ query: String, in network: RailwayNetwork, option: String) throws(CommandFailure) -> Railway {
        if let railway = network.railway(matching: query) { return railway }
        throw CommandFailure(
            "\(railways): unknown railway '\(query.printable)' (\(option))"
                + suggesting(network.railwaySuggestions(for: query))
                + " `traintracker network --railways \(railways) --verbose` lists the railways.")
    }

    /// The station of `railway` that `query` names (its id, its name or the start of its
    /// name), given as `option`.
    /// - Throws: `CommandFailure` naming the railway data, the option and the closest names.
    func station(_ query: String, on railway: Railway, in network: RailwayNetwork, option: String) throws(CommandFailure)
        -> Station
    {
        if let station = network.station(matching: query, on: railway) { return station }
        throw CommandFailure(
            "\(railways): railway '\(railway.id)' has no station '\(query.printable)' (\(option))"
                + suggesting(network.stationSuggestions(for: query, on: railway))
                + " `traintracker network --railways \(railways) --list-stations --railway '\(railway.id)'` lists them.")
    }

    /// ". Did you mean 'A' or 'B'?" for the suggestions, or ".".
    private func suggesting(_ names: [String]) -> String {
        guard !names.isEmpty else { return "." }
        let quoted = names.map { "'\($0.printable)'" }
        let list = quoted.count == 1 ? quoted[0] : quoted.dropLast().joined(separator: ", ") + " or " + quoted[quoted.count - 1]
        return ". Did you mean \(list)?"
    }
}
