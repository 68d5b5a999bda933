import Foundation
import TrainTrackerCore
import TrainTrackerLab

extension BudgetCommand {
    /// The energy budgets reported: shares of satellites always on at a fix a second.
    static let budgets = [1.0, 0.5, 0.25, 0.1]
    /// The railway accuracy the recommended settings must keep.
    static let railwayTarget = 0.97

    static func describe(_ choice: BudgetChoice) -> String {
        let source = LocationPowerModel().source(for: choice.accuracy).rawValue
        return "\(Int(displaying: choice.accuracy)) m (\(source)) every \(Int(displaying: choice.interval)) s, fast from "
            + "\(Int(displaying: choice.fastSpeed * 3.6)) km/h, moving every \(Int(displaying: choice.activeInterval)) s"
    }

    static func percent(_ share: Double) -> String { String(format: "%.1f %%", share * 100) }

    static func table(_ points: [BudgetPoint], label: String, seed: UInt64) -> String {
        var rows = [["fast-vehicle request", "energy", "fast-vehicle time", "fixes/min", "railway", "next stop"]]
        for point in points {
            rows.append([
                describe(point.choice), percent(point.energyShare), percent(point.fastVehicleShare),
                String(format: "%.1f", point.fixesPerMinute), percent(point.railwayAccuracy), percent(point.nextStopAccuracy),
            ])
        }
        var curve = [["energy budget", "best request within it", "energy", "railway", "next stop"]]
        for (budget, point) in BudgetStudy.curve(points, budgets: budgets) {
            curve.append(
                [percent(budget)]
                    + (point.map {
                        [describe($0.choice), percent($0.energyShare), percent($0.railwayAccuracy), percent($0.nextStopAccuracy)]
                    }
                        ?? ["none", "", "", ""]))
        }
        let cheapest = BudgetStudy.cheapest(points, railwayAtLeast: railwayTarget)
        let recommendation =
            cheapest.map {
                "cheapest with the railway right \(percent(railwayTarget)) of the time or more: \(describe($0.choice)), "
                    + "\(percent($0.energyShare)) of the energy, railway \(percent($0.railwayAccuracy)), next stop \(percent($0.nextStopAccuracy))"
            } ?? "no request keeps the railway right \(percent(railwayTarget)) of the time"
        return "\(label), seed \(seed), \(points[0].rides) rides\n\n" + alignedTable(rows) + "\n\n" + alignedTable(curve) + "\n\n"
            + recommendation
    }

    static func json(_ points: [BudgetPoint]) -> String {
        let items = points.map { point in
            var item = JSONObjectWriter()
            item.number("accuracy", point.choice.accuracy)
            item.number("interval", point.choice.interval)
            item.number("fastSpeedKilometresPerHour", point.choice.fastSpeed * 3.6)
            item.number("activelyMovingInterval", point.choice.activeInterval)
            item.number("rides", Double(point.rides))
            item.number("energyShare", point.energyShare)
            item.number("fastVehicleShare", point.fastVehicleShare)
            item.number("fixesPerMinute", point.fixesPerMinute)
            item.number("railwayAccuracy", point.railwayAccuracy)
            item.number("nextStopAccuracy", point.nextStopAccuracy)
            return item.finish()
        }
        return JSONObjectWriter.array(items)
    }
}

/// Accuracy against energy: a dot per request (railway, and next stop beneath it), the best
/// railway within each energy as a line, the defaults ringed, the budgets as vertical lines.
enum BudgetPicture {
    static func svg(points: [BudgetPoint], title: String, defaults: BudgetChoice?) -> String {
        let (left, top, width, height) = (70.0, 50.0, 640.0, 360.0)
        // Energy on a log scale from 5 % to 120 %.
        let (low, high) = (0.05, 1.2)
        func x(_ share: Double) -> Double {
            left + width * (log10(max(low, min(high, share))) - log10(low)) / (log10(high) - log10(low))
        }
        func y(_ accuracy: Double) -> Double { top + height * (1 - accuracy) }
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(left + width + 200))" height="\(Int(top + height + 60))" font-family="Helvetica, Arial, sans-serif" font-size="11">
            <rect width="100%" height="100%" fill="#FFFFFF"/>
            <text x="\(left)" y="22" font-size="14" font-weight="bold">Accuracy against energy on a train</text>
            <text x="\(left)" y="38" fill="#333333">\(title.xmlEscaped); energy as a share of satellites always on at 1 Hz</text>

            """
        for step in stride(from: 0.0, through: 1.0, by: 0.1) {
            svg += "<line x1=\"\(left)\" y1=\"\(y(step))\" x2=\"\(left + width)\" y2=\"\(y(step))\" stroke=\"#EEEEEE\"/>"
            svg +=
                "<text x=\"\(left - 6)\" y=\"\(y(step) + 4)\" text-anchor=\"end\" fill=\"#666666\">\(Int((step * 100).rounded())) %</text>\n"
        }
        for budget in [0.05, 0.2] + BudgetCommand.budgets {
            let isBudget = BudgetCommand.budgets.contains(budget)
            svg +=
                "<line x1=\"\(x(budget))\" y1=\"\(top)\" x2=\"\(x(budget))\" y2=\"\(top + height)\" stroke=\"\(isBudget ? "#999999" : "#EEEEEE")\"\(isBudget ? " stroke-dasharray=\"4 3\"" : "")/>"
            svg +=
                "<text x=\"\(x(budget))\" y=\"\(top + height + 16)\" text-anchor=\"middle\" fill=\"#666666\">\(Int((budget * 100).rounded())) %</text>\n"
        }
        let target = y(BudgetCommand.railwayTarget)
        svg +=
            "<line x1=\"\(left)\" y1=\"\(target)\" x2=\"\(left + width)\" y2=\"\(target)\" stroke=\"#01665E\" stroke-dasharray=\"2 2\"/>"
        svg += "<text x=\"\(left + width + 6)\" y=\"\(target + 4)\" fill=\"#01665E\">railway 97 %</text>\n"
        // The frontier: the best railway accuracy for at most each energy.
        var best = 0.0
        var frontier: [String] = []
        for point in points.sorted(by: { $0.energyShare < $1.energyShare }) where point.railwayAccuracy > best {
            if !frontier.isEmpty { frontier.append("\(x(point.energyShare)),\(y(best))") }
            best = point.railwayAccuracy
            frontier.append("\(x(point.energyShare)),\(y(best))")
        }
        frontier.append("\(x(high)),\(y(best))")
        svg +=
            "<polyline points=\"\(frontier.joined(separator: " "))\" fill=\"none\" stroke=\"#01665E\" stroke-width=\"1\" opacity=\"0.6\"/>\n"
        if let defaults, let chosen = points.first(where: { $0.choice == defaults }) {
            svg +=
                "<circle cx=\"\(x(chosen.energyShare))\" cy=\"\(y(chosen.railwayAccuracy))\" r=\"8\" fill=\"none\" stroke=\"#000000\">"
                + "<title>the defaults</title></circle>"
            svg += "<text x=\"\(x(chosen.energyShare) + 10)\" y=\"\(y(chosen.railwayAccuracy) + 22)\">the defaults</text>\n"
        }
        for point in points {
            let label = BudgetCommand.describe(point.choice).xmlEscaped
            let px = x(point.energyShare)
            svg +=
                "<circle cx=\"\(px)\" cy=\"\(y(point.railwayAccuracy))\" r=\"3.5\" fill=\"#01665E\"><title>\(label): railway "
                + "\(BudgetCommand.percent(point.railwayAccuracy)), energy \(BudgetCommand.percent(point.energyShare))</title></circle>"
            svg +=
                "<rect x=\"\(px - 3)\" y=\"\(y(point.nextStopAccuracy) - 3)\" width=\"6\" height=\"6\" fill=\"#BF812D\"><title>\(label): next stop "
                + "\(BudgetCommand.percent(point.nextStopAccuracy)), energy \(BudgetCommand.percent(point.energyShare))</title></rect>\n"
        }
        let legend = top + height + 40
        svg +=
            "<circle cx=\"\(left + 5)\" cy=\"\(legend - 4)\" r=\"3.5\" fill=\"#01665E\"/><text x=\"\(left + 14)\" y=\"\(legend)\">railway right</text>"
        svg +=
            "<rect x=\"\(left + 122)\" y=\"\(legend - 7)\" width=\"6\" height=\"6\" fill=\"#BF812D\"/><text x=\"\(left + 134)\" y=\"\(legend)\">next stop right</text>"
        svg +=
            "<text x=\"\(left + width)\" y=\"\(legend)\" text-anchor=\"end\" fill=\"#666666\">dashed: the 100, 50, 25 and 10 % budgets</text>\n"
        return svg + "</svg>\n"
    }
}
