import API
import Foundation
import OnwardCore

/// A timetable board (departures or arrivals) as a traveller reads it in a terminal,
/// from the API's answer: what `--json` prints is what this shows.
struct BoardView {
    let board: BoardDTO
    /// The board's moment, and the zone its times are read in (the stop's).
    let from: Instant
    let zone: TimeZone
    let window: Int?
    /// Where the timetable came from, for the footer.
    let origin: String
    var alerts: AlertText

    func render(_ t: Terminal) -> String {
        let arrivals = board.arrivals != nil
        let entries = board.arrivals ?? board.departures ?? []
        let start = LocalTime(from, in: zone)
        var title = t.bold(board.stop.name) + t.dim(" · ") + (arrivals ? "Arrivals" : "Departures")
        if let via = board.via { title += (arrivals ? " from " : " to ") + t.bold(via.name) }
        let weekday = start.date.weekdayName
        var subtitle = "\(weekday) \(start.date.isoString), from \(start.hhmm)"
        if let window { subtitle += " for \(window) min" }
        subtitle += " · \(zone.identifier) (UTC\(offsetText(start.utcOffset)))"
        var lines = [title, t.dim(subtitle), ""]
        // High-priority alerts above the departures, the rest below, as the bus tracker shows them.
        for a in board.alerts?.highPriority ?? [] { lines += alerts.block(a, t) }
        if entries.isEmpty {
            lines.append("  " + (board.emptyReason ?? "No \(arrivals ? "arrivals" : "departures") \(window == nil ? "in the next days" : "in this window")."))
        } else {
            var headers = ["Time"]
            if board.live != nil { headers.append("Live") }
            if board.via != nil { headers.append(arrivals ? "Left" : "Arrives") }
            headers += ["Line", arrivals ? "From" : "Destination", "Plat", "Service"]
            var table = TextTable(headers: headers)
            for e in entries {
                let scheduledText = arrivals ? e.scheduledArrival : e.scheduledDeparture
                let expectedText = arrivals ? e.expectedArrival : e.expectedDeparture
                let scheduled = scheduledText.flatMap(Instant.init(iso8601:)), expected = expectedText.flatMap(Instant.init(iso8601:))
                let status = LiveStatus(rawValue: e.status) ?? .scheduled
                let local = LocalTime(scheduled ?? expected ?? from, in: zone)
                var time = local.hhmm
                if local.date != start.date { time += t.dim(" +\(local.date.dayNumber - start.date.dayNumber)d") }
                if let h = e.headwaySeconds, e.exactTimes != true { time = "~" + time + t.dim(" every \(max(h / 60, 1)) min") }
                var row = [status == .cancelled ? t.strike(time) : t.bold(time)]
                if board.live != nil {
                    var text = LiveText.render(status: status, expected: expected.map { LocalTime($0, in: zone).hhmm }, delay: e.delaySeconds,
                                               scheduledAt: scheduled, expectedAt: expected, added: e.addedTrip == true, t)
                    let full = OccupancyText.render(e.occupancy, t)
                    if !full.isEmpty { text += (text.isEmpty ? "" : t.dim(" · ")) + full }
                    if let u = e.usualDelay, u.enough, status != .cancelled, status != .departed {
                        let usual = HistoryText.usual(u.usual)
                        if !usual.isEmpty { text += (text.isEmpty ? "" : t.dim(" · ")) + t.dim(usual) }
                    }
                    row.append(text)
                }
                if board.via != nil {
                    row.append((arrivals ? e.departureFromOrigin : e.arrivalAtDestination).flatMap(Instant.init(iso8601:)).map { LocalTime($0, in: zone).hhmm } ?? "")
                }
                let line = e.routeShortName.isEmpty ? e.routeLongName : e.routeShortName
                row.append(t.badge(line, background: e.routeColor, foreground: nil))
                row.append(arrivals ? e.origin : e.headsign)
                row.append((e.platform ?? "") + (e.platformChanged == true ? t.yellow(" changed") : ""))
                row.append(t.dim(e.tripId + (e.startTime.map { " @\($0)" } ?? "")))
                table.rows.append(row)
            }
            lines.append(table.render(t))
        }
        lines.append("")
        for a in board.alerts?.other ?? [] { lines += alerts.block(a, t) }
        if let live = board.live {
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
