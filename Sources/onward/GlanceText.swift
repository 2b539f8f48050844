import API
import Foundation
import OnwardCore

/// The glance as terminal text: the route's name, then what comes next.
enum GlanceText {
    static func render(_ r: RouteResultDTO, server: String, terminal: Terminal) -> String {
        guard let route = r.route else { return "No saved routes yet: save one at \(server)/me" }
        var lines = [terminal.bold(route.name)]
        func hhmm(_ iso: String?) -> String { iso.flatMap { Instant(iso8601: $0) != nil ? String($0.dropFirst(11).prefix(5)) : nil } ?? "--:--" }
        switch r.state {
        case .loaded:
            if let board = r.board {
                let rows = board.departures ?? board.arrivals ?? []
                if rows.isEmpty { lines.append(board.emptyReason ?? "Nothing coming up.") }
                for e in rows.prefix(5) {
                    let late = e.delaySeconds.map { $0 >= 60 ? terminal.yellow(" +\($0 / 60) min") : "" } ?? ""
                    lines.append("\(hhmm(e.expectedDeparture ?? e.scheduledDeparture ?? e.expectedArrival ?? e.scheduledArrival))  \(e.routeShortName)  \(e.headsign)\(late)"
                                 + (e.status == "cancelled" ? terminal.red("  cancelled") : ""))
                }
            } else if let service = r.service {
                for c in service.calls.filter({ $0.status != "departed" }).prefix(5) {
                    lines.append("\(hhmm(c.expectedArrival ?? c.scheduledArrival))  \(c.stopName)")
                }
            } else if let journeys = r.journeys {
                if journeys.journeys.isEmpty { lines.append(journeys.emptyReason ?? "No journey found.") }
                for j in journeys.journeys.prefix(3) {
                    lines.append("\(hhmm(j.departure)) → \(hhmm(j.arrival))  \(j.transfers == 0 ? "direct" : "\(j.transfers) change\(j.transfers == 1 ? "" : "s")")")
                }
            }
        case .failed, .loading, .noRoutes:
            lines.append(terminal.red("Cannot show it now: \(r.reason ?? "no answer")"))
        }
        return lines.joined(separator: "\n")
    }
}
