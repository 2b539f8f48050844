import API
import Foundation
import OnwardCore

/// A service from any source, in the terminal, from the API's answer.
struct SourceServiceView {
    var service: ServiceDTO

    func render(_ t: Terminal) -> String {
        let line = service.routeShortName.isEmpty ? service.routeLongName : service.routeShortName
        var out = [t.bold("\(line) to \(service.headsign)") + " (\(service.tripId), \(service.serviceDate))"]
        if let op = service.operatorName { out.append(t.dim(op)) }
        if service.cancelled == true { out.append(t.red("cancelled")) }
        if let reason = service.reason { out.append(t.yellow(reason)) }
        out.append("")
        func calls(_ list: [CallDTO], indent: String) {
            for c in list {
                let time = SourceBoardView.hhmm(c.scheduledDeparture)
                let status = LiveText.render(status: LiveStatus(rawValue: c.status) ?? .scheduled,
                                             expected: (c.expectedDeparture ?? c.expectedArrival).map { SourceBoardView.hhmm($0) },
                                             delay: c.delaySeconds, t)
                let platform = c.platform.map { " plat \($0)" } ?? ""
                let full = OccupancyText.render(c.occupancy, t)
                out.append("\(indent)\(time)  \(c.stopName)\(platform)  \(status)" + (full.isEmpty ? "" : "  " + full))
            }
        }
        calls(service.calls, indent: "")
        for b in service.branches ?? [] {
            out.append("")
            out.append(t.bold("portion to \(b.headsign)") + " (divides at \(b.afterStopId))")
            calls(b.calls, indent: "  ")
        }
        for a in service.alerts ?? [] { out.append((a.highPriority ? t.red("! ") : "- ") + (a.header ?? a.id)) }
        return out.joined(separator: "\n")
    }
}
