import API
import Foundation
import GTFSRealtime
import OnwardCore
import Timetable

/// A departures or arrivals board as a traveller reads it in a terminal.
struct BoardView {
    let timetable: Timetable
    let stop: StopIndex
    let via: StopIndex?
    let from: Instant
    let zone: TimeZone
    let arrivals: Bool
    let window: Int?
    let entries: [BoardEntry]
    let origin: String
    let live: LiveDTO?
    let now: Instant
    var alerts: BoardAlerts? = nil
    var alertView: AlertsView? = nil

    func render(_ t: Terminal) -> String {
        let place = timetable.place(stop)
        let start = LocalTime(from, in: zone)
        var title = t.bold(place.name) + t.dim(" · ") + (arrivals ? "Arrivals" : "Departures")
        if let via { title += (arrivals ? " from " : " to ") + t.bold(timetable.place(via).name) }
        let weekday = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][start.date.weekdayIndex]
        var subtitle = "\(weekday) \(start.date.isoString), from \(start.hhmm)"
        if let window { subtitle += " for \(window) min" }
        subtitle += " · \(zone.identifier) (UTC\(offsetText(start.utcOffset)))"
        var lines = [title, t.dim(subtitle), ""]
        // High-priority alerts above the departures, the rest below, as the bus tracker shows them.
        if let alerts, let alertView, !alerts.highPriority.isEmpty {
            for a in alerts.highPriority { lines += alertView.block(a, t) }
        }
        if entries.isEmpty {
            lines.append("  No \(arrivals ? "arrivals" : "departures") \(window == nil ? "in the next days" : "in this window").")
        } else {
            var headers = ["Time"]
            if live != nil { headers.append("Live") }
            if via != nil { headers.append(arrivals ? "Left" : "Arrives") }
            headers += ["Line", arrivals ? "From" : "Destination", "Plat", "Service"]
            var table = TextTable(headers: headers)
            for e in entries {
                let local = LocalTime(e.scheduled, in: zone)
                var time = local.hhmm
                if local.date != start.date { time += t.dim(" +\(local.date.dayNumber - start.date.dayNumber)d") }
                if let h = e.headwaySeconds, !e.exactTimes { time = "~" + time + t.dim(" every \(max(h / 60, 1)) min") }
                var row = [e.status == .cancelled ? t.strike(time) : t.bold(time)]
                if live != nil {
                    row.append(LiveText.render(status: e.status, expected: e.expected.map { LocalTime($0, in: zone).hhmm }, delay: e.delaySeconds,
                                               scheduledAt: e.hasScheduledTime ? e.scheduled : nil, expectedAt: e.expected,
                                               added: e.isAddedTrip, t))
                }
                if via != nil { row.append(e.destinationArrival.map { LocalTime($0, in: zone).hhmm } ?? "") }
                let line = e.routeShortName.isEmpty ? e.routeLongName : e.routeShortName
                row.append(t.badge(line, background: e.routeColor, foreground: nil))
                row.append(arrivals ? e.origin : e.headsign)
                row.append((e.platform ?? "") + (e.platformChanged ? t.yellow(" changed") : ""))
                row.append(t.dim(e.tripID + (e.startTime.map { " @\($0)" } ?? "")))
                table.rows.append(row)
            }
            lines.append(table.render(t))
        }
        lines.append("")
        if let alerts, let alertView, !alerts.other.isEmpty {
            for a in alerts.other { lines += alertView.block(a, t) }
        }
        if let live {
            lines.append(LiveText.footer(live, zone: zone, t) + t.dim(" · Timetable: \(origin)."))
        } else {
            lines.append(t.dim("Timetable: \(origin). Times are scheduled."))
        }
        return lines.joined(separator: "\n")
    }
}

func offsetText(_ seconds: Int) -> String {
    let sign = seconds < 0 ? "-" : "+"
    let a = abs(seconds)
    return String(format: "%@%02d:%02d", sign, a / 3600, a / 60 % 60)
}
