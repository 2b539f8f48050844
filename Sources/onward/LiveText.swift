import API
import Foundation
import OnwardCore

/// How live status reads in a terminal: one short phrase, coloured by meaning.
enum LiveText {
    /// With `scheduledAt` and `expectedAt`, the minutes late or early are those the two
    /// times shown differ by (each floored to its minute), not the delay's whole minutes.
    /// An added trip says so.
    static func render(status: LiveStatus, expected: String?, delay: Int?, scheduledAt: Instant? = nil, expectedAt: Instant? = nil,
                       added: Bool = false, _ t: Terminal) -> String {
        let minutes = scheduledAt.flatMap { s in expectedAt.map { abs(Instant.minutesAsShown(from: s, to: $0)) } } ?? abs(delay ?? 0) / 60
        if added {
            let rest = status == .onTime || status == .scheduled || status == .noLiveData ? ""
                : " · " + render(status: status, expected: expected, delay: delay, scheduledAt: scheduledAt, expectedAt: expectedAt, t)
            return t.cyan("added") + rest
        }
        switch status {
        case .scheduled: return ""
        case .noLiveData: return t.dim("no live data")
        case .onTime: return t.green("on time")
        case .late: return t.yellow("\(expected ?? "") late \(minutes) min")
        case .delayed: return t.yellow("delayed")
        case .early: return t.cyan("\(expected ?? "") early \(minutes) min")
        case .cancelled: return t.red("cancelled")
        case .skipped: return t.red("not stopping")
        case .departed: return t.dim("departed \(expected ?? "")")
        }
    }

    /// The line under a board or service that says where its live data stands; its time
    /// is the stop's local time, like every other time on the screen.
    static func footer(_ live: LiveDTO, zone: TimeZone, _ t: Terminal) -> String {
        var parts: [String] = []
        if live.simulated { parts.append(t.yellow("SIMULATED live data (demonstration, not a real feed)")) }
        else if let at = live.updatedAt { parts.append("Live data from \(localTime(at, zone: zone))") }
        if live.stale { parts.append(t.yellow("stale: shown as last known")) }
        if !live.unavailable.isEmpty { parts.append(t.red("unavailable: \(live.unavailable.count) source\(live.unavailable.count == 1 ? "" : "s")")) }
        if parts.isEmpty { parts.append(t.dim("No live data")) }
        return parts.joined(separator: t.dim(" · "))
    }

    /// `YYYY-MM-DD HH:MM:SS` in `zone` of an ISO 8601 time (the API's, in UTC); as given if unreadable.
    static func localTime(_ iso: String, zone: TimeZone) -> String {
        guard let instant = Instant(iso8601: iso) else { return iso }
        let local = LocalTime(instant, in: zone)
        return "\(local.date.isoString) \(local.hhmmss)"
    }
}

/// Where the vehicle is, in one line.
enum VehicleLine {
    static func render(_ v: VehicleDTO, calls: [CallDTO], callIndex: Int?, zone: TimeZone, _ t: Terminal) -> String {
        let name = v.label ?? v.id ?? "The vehicle"
        var where_ = ""
        if let k = callIndex, k < calls.count {
            let stop = calls[k].stopName
            where_ = switch v.stopStatus {
            case "stoppedAt": "is at \(stop)"
            case "incomingAt": "is arriving at \(stop)"
            default: "is on its way to \(stop)"
            }
        } else if let lat = v.latitude, let lon = v.longitude {
            where_ = String(format: "is at %.5f, %.5f", lat, lon)
        }
        var line = "\(name) \(where_)"
        if let at = v.reportedAt.flatMap(Instant.init(iso8601:)) {
            line += t.dim(" (reported \(LocalTime(at, in: zone).hhmmss))")
        }
        let full = OccupancyText.render(v.occupancy, t)
        if !full.isEmpty { line += t.dim(" · ") + full }
        if let carriages = OccupancyText.carriages(v.occupancy) { line += "\n  " + t.dim("carriages from the front: " + carriages) }
        return t.cyan("● ") + line
    }
}
