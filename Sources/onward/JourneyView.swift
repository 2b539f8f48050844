import API
import Foundation

/// Journeys as a traveller reads them in a terminal, from the API's answer: what
/// `--json` prints is what this shows.
struct JourneyView {
    let answer: JourneysDTO
    /// The moment asked for, in the origin's zone, for the subtitle.
    let subtitle: String

    func render(_ t: Terminal) -> String {
        var lines = [t.bold(answer.from.name) + t.dim(" → ") + t.bold(answer.to.name), t.dim(subtitle), ""]
        if answer.journeys.isEmpty {
            lines.append("  " + (answer.emptyReason ?? "No journey found."))
            return lines.joined(separator: "\n")
        }
        for (n, j) in answer.journeys.enumerated() {
            let changes = j.transfers == 0 ? "no change" : j.transfers == 1 ? "1 change" : "\(j.transfers) changes"
            lines.append(t.bold("\(n + 1). \(SourceBoardView.hhmm(j.departure)) → \(SourceBoardView.hhmm(j.arrival))") + t.dim("  \(Self.minutes(j.duration)), \(changes)"))
            var rides = 0
            for leg in j.legs {
                if leg.kind == "walk" {
                    let what = leg.from.name == leg.to.name ? "Change platform" : "Walk to \(leg.to.name)"
                    lines.append(t.dim("     \(what)\(Self.platform(leg.to)), \(Self.minutes(leg.duration ?? 0))"))
                    continue
                }
                // Before each ride but the first, after the walk to it: how tight the change is.
                if rides > 0, let changes = j.changes, rides - 1 < changes.count {
                    let change = changes[rides - 1]
                    let said = change.staysSeated == true
                        ? "Stay on board: it goes on as the \([leg.routeShortName, leg.headsign.map { "to \($0)" }].compactMap { $0 }.joined(separator: " "))"
                        : Self.margin(change)
                    lines.append(t.dim("     " + said))
                }
                let line = [leg.routeShortName, leg.headsign.map { "to \($0)" }].compactMap { $0 }.joined(separator: " ")
                lines.append("   \(Self.time(leg.departure, leg.expectedDeparture, t))  \(leg.from.name)\(Self.platform(leg.from))")
                let full = OccupancyText.render(leg.occupancy, t)
                lines.append(t.dim("          \(line)") + (full.isEmpty ? "" : t.dim(" · ") + full))
                lines.append("   \(Self.time(leg.arrival, leg.expectedArrival, t))  \(leg.to.name)\(Self.platform(leg.to))")
                rides += 1
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// "08:04", or "08:04 → 08:06" when live data moves it.
    private static func time(_ scheduled: String, _ expected: String?, _ t: Terminal) -> String {
        let shown = SourceBoardView.hhmm(scheduled)
        guard let expected, SourceBoardView.hhmm(expected) != shown else { return shown + "      " }
        return t.strike(shown) + " " + t.yellow(SourceBoardView.hhmm(expected))
    }

    /// "4 min to change", or with live times that move it, "4 min to change; your train is 2 min late: 2 min".
    static func margin(_ c: JourneyChangeDTO) -> String {
        var planned = "\(JourneyChangeDTO.minutes(c.marginSeconds)) min to change"
        if c.risky == true, let late = c.usualArrival?.arrivalMedianMinutes {
            planned += " (risky: this service is usually \(late) min late here)"
        }
        guard let change = c.change, let live = c.liveMarginSeconds else { return planned }
        let why = switch change {
        case .arrivingLate(let m): "your train is \(m) min late"
        case .arrivingEarly(let m): "your train is \(m) min early"
        case .leavingLate(let m): "the next one is \(m) min late"
        case .live: "live"
        }
        return "\(planned); \(why): " + (c.canBeMade ? "\(JourneyChangeDTO.minutes(live)) min" : "the change cannot be made")
    }

    static func minutes(_ seconds: Int) -> String {
        let m = (seconds + 59) / 60
        return m < 60 ? "\(m) min" : "\(m / 60) h \(m % 60) min"
    }

    private static func platform(_ s: JourneyStopDTO) -> String { s.platform.map { " (platform \($0))" } ?? "" }
}
