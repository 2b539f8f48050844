import API
import Foundation

/// The terminal rendering of an inspection: the header, the first entities of each kind, the match report.
struct RealtimeInspectView {
    var dto: RealtimeInspectDTO

    func render(_ t: Terminal) -> String {
        let h = dto.header, c = dto.counts
        var out = [t.bold("GTFS-Realtime feed ") + dto.source + t.dim("  (\(count(dto.sizeBytes)) bytes)")]
        var about = "  version \(h.gtfsRealtimeVersion) · \(words(h.incrementality)) · "
        if let stamp = h.timestamp {
            let local = h.localTimestamp.map { " = \(clock($0)) \(dto.timeZone)" } ?? ""
            about += "timestamp \(stamp)" + t.dim(local + (h.ageSeconds.map { ", \(age($0))" } ?? ""))
        }
        else { about += t.yellow("no timestamp") }
        out.append(about)
        out.append("  \(count(c.entities)) entities: \(count(c.tripUpdates)) trip updates · \(count(c.vehiclePositions)) vehicle positions · "
                   + "\(count(c.alerts)) alerts · \(count(c.deleted)) deleted")
        if !dto.tripUpdates.isEmpty { out += ["", section("Trip updates", shown: dto.tripUpdates.count, of: c.tripUpdates, t), tripTable(t)] }
        if !dto.vehiclePositions.isEmpty {
            out += ["", section("Vehicle positions", shown: dto.vehiclePositions.count, of: c.vehiclePositions, t), vehicleTable(t)]
        }
        if !dto.alerts.isEmpty {
            out += ["", section("Alerts", shown: dto.alerts.count, of: c.alerts, times: false, t)] + dto.alerts.flatMap { alert($0, t) }
        }
        out += [""] + match(t)
        return out.joined(separator: "\n")
    }

    private func section(_ name: String, shown: Int, of total: Int, times: Bool = true, _ t: Terminal) -> String {
        t.bold(name) + t.dim(" (\(shown == total ? "all \(count(total))" : "first \(shown) of \(count(total))")"
                             + (times ? "; times in \(dto.timeZone))" : ")"))
    }

    private func tripTable(_ t: Terminal) -> String {
        var table = TextTable(headers: ["Trip", "Route", "Start", "Relationship", "Updates", "First update"])
        for u in dto.tripUpdates {
            let relationship = words(u.scheduleRelationship)
            let coloured = ["canceled", "deleted"].contains(u.scheduleRelationship) ? t.red(relationship)
                : ["added", "new", "replacement", "duplicated"].contains(u.scheduleRelationship) ? t.cyan(relationship) : relationship
            let start = [u.startDate.map(dashed), u.startTime].compactMap(\.self).joined(separator: " ")
            table.rows.append([(u.tripId ?? t.dim("(none)")) + (u.deleted == true ? t.red(" deleted") : ""), u.routeId ?? "", start,
                               coloured, count(u.stopTimeUpdateCount), u.firstStopTimeUpdate.map { update($0, t) } ?? ""])
        }
        return table.render(t)
    }

    /// "stop 6969 #6 16:57:29 −4m19s", "stop 8179 #16 skipped".
    private func update(_ s: RealtimeInspectDTO.StopTimeUpdate, _ t: Terminal) -> String {
        var parts = [[s.stopId.map { "stop \($0)" }, s.stopSequence.map { "#\($0)" }].compactMap(\.self).joined(separator: " ")]
        if s.scheduleRelationship != "scheduled" { parts.append(t.yellow(words(s.scheduleRelationship))) }
        if let time = s.departure ?? s.arrival { parts.append(clock(time)) }
        if let d = s.departureDelaySeconds ?? s.arrivalDelaySeconds { parts.append(signed(d, t)) }
        return parts.joined(separator: " ")
    }

    private func vehicleTable(_ t: Terminal) -> String {
        var table = TextTable(headers: ["Vehicle", "Trip", "Route", "Position", "Status", "Stop", "Reported"])
        for v in dto.vehiclePositions {
            let position = v.latitude.flatMap { lat in v.longitude.map { String(format: "%.5f, %.5f", lat, $0) } } ?? ""
            let stop = v.stopId ?? v.stopSequence.map { "#\($0)" } ?? ""
            table.rows.append([(v.label ?? v.vehicleId ?? v.entityId) + (v.deleted == true ? t.red(" deleted") : ""), v.tripId ?? "",
                               v.routeId ?? "", position, v.currentStatus.map(words) ?? "", stop, v.timestamp.map(clock) ?? ""])
        }
        return table.render(t)
    }

    /// Two lines: what it does and its header; what it concerns.
    private func alert(_ a: RealtimeInspectDTO.AlertSummary, _ t: Terminal) -> [String] {
        let label = words(a.effect) + (a.severity == "unknown" ? "" : " · \(a.severity)")
        let header = (a.header ?? "(no header)").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        var informs = a.informedEntities.map { e in
            [e.agencyId.map { "agency \($0)" }, e.routeId.map { "route \($0)" }, e.routeType.map { "route type \($0)" },
             e.directionId.map { "direction \($0)" }, e.tripId.map { "trip \($0)" }, e.stopId.map { "stop \($0)" }]
                .compactMap(\.self).joined(separator: " ")
        }
        if informs.count > 6 { informs = informs.prefix(6) + ["and \(informs.count - 6) more"] }
        return ["  " + t.yellow("[\(label)]") + " " + truncated(header, 90 - label.count),
                "      " + t.dim(informs.isEmpty ? "informs nothing" : informs.joined(separator: ", "))]
    }

    private func match(_ t: Terminal) -> [String] {
        let m = dto.match, c = dto.counts
        // A name, its summary line, then lines for what did not match.
        var rows: [(name: String, lines: [String])] = []
        if c.tripUpdates > 0 {
            var trips = "\(count(m.trips.matched)) of \(count(c.tripUpdates)) updates matched"
            if m.tripsNotRunning > 0 { trips += " · \(count(m.tripsNotRunning)) not running on their date" }
            trips += " · \(count(m.cancelledTrips)) cancelled · \(count(m.addedTrips)) added"
            rows.append(("Trips", [trips] + unknown(m.trips, "unknown", t)))
            let s = m.stopTimeUpdates
            var stops = ["\(count(s.matched)) of \(count(m.stopTimeUpdateTotal)) updates matched · \(count(m.skippedStops)) skipped · "
                         + "\(count(m.noDataStops)) no data"]
            let unapplied = m.stopTimeUpdateTotal - s.matched - s.unknown
            if unapplied > 0 { stops.append("\(count(unapplied)) not applied (cancelled or unknown trips)") }
            rows.append(("Stop times", stops + unknown(s, "at unknown stops", t)))
        }
        if c.vehiclePositions > 0 {
            rows.append(("Vehicles", ["\(count(m.vehicles.matched)) of \(count(c.vehiclePositions)) matched"]
                         + unknown(m.vehicles, "with unknown trips", t)))
        }
        if m.routes.matched + m.routes.unknown > 0 {
            rows.append(("Routes", ["\(count(m.routes.matched)) of \(count(m.routes.matched + m.routes.unknown)) route IDs known"]
                         + unknown(m.routes, "unknown", t)))
        }
        if c.alerts > 0 {
            for (name, tally) in [("Alert stops", m.alertStops), ("Alert trips", m.alertTrips)] where tally.matched + tally.unknown > 0 {
                rows.append((name, ["\(count(tally.matched)) of \(count(tally.matched + tally.unknown)) known"] + unknown(tally, "unknown", t)))
            }
        }
        var out = [t.bold("Match with the static feed") + " " + dto.staticFeeds.joined(separator: ", ")
                   + (dto.otherFeeds.map { t.dim(" (also loaded: \($0.joined(separator: ", ")); NAME=FILE_OR_URL picks the feed)") } ?? "")]
        if rows.isEmpty { out.append("  Nothing in the feed names a trip, stop or route.") }
        let width = (rows.map(\.name.count).max() ?? 0) + 2
        for row in rows {
            for (i, line) in row.lines.enumerated() {
                out.append("  " + (i == 0 ? row.name : "").padding(toLength: width, withPad: " ", startingAt: 0) + line)
            }
        }
        // Nothing at all matching is nearly always the wrong static feed, not a broken realtime one.
        let tallies = [m.trips, m.vehicles, m.routes, m.alertStops, m.alertTrips]
        if tallies.allSatisfy({ $0.matched == 0 }) && tallies.contains(where: { $0.unknown > 0 }) {
            out.append(t.yellow("  Nothing matched: is this the static feed the realtime data belongs to? "
                                + (dto.otherFeeds == nil ? "Pass it with --feed." : "Name it: NAME=FILE_OR_URL, or pass it with --feed.")))
        }
        return out
    }

    /// "17 at unknown stops: 6084, 6085", or no line when all matched.
    private func unknown(_ tally: RealtimeInspectDTO.Tally, _ what: String, _ t: Terminal) -> [String] {
        guard tally.unknown > 0 else { return [] }
        let more = tally.unknownIds.count < tally.unknown && !tally.unknownIds.isEmpty ? ", …" : ""
        let ids = tally.unknownIds.isEmpty ? "" : ": " + tally.unknownIds.joined(separator: ", ") + more
        return [t.yellow("\(count(tally.unknown)) \(what)") + ids]
    }

    /// "fullDataset" → "full dataset", "inTransitTo" → "in transit to".
    private func words(_ camel: String) -> String {
        camel.reduce(into: "") { s, ch in s += ch.isUppercase ? " " + ch.lowercased() : String(ch) }
    }

    /// The HH:MM:SS of an ISO 8601 time.
    private func clock(_ iso: String) -> String {
        guard let t = iso.firstIndex(of: "T") else { return iso }
        return String(iso[iso.index(after: t)...].prefix(8))
    }

    /// 20251106 → 2025-11-06; anything else as given.
    private func dashed(_ yyyymmdd: String) -> String {
        guard yyyymmdd.count == 8, yyyymmdd.allSatisfy(\.isNumber) else { return yyyymmdd }
        let s = Array(yyyymmdd)
        return String(s[0..<4]) + "-" + String(s[4..<6]) + "-" + String(s[6..<8])
    }

    /// A delay as "+4m47s", "−19s", "+1h02m".
    private func signed(_ seconds: Int, _ t: Terminal) -> String {
        let a = abs(seconds)
        let body = a >= 3600 ? "\(a / 3600)h" + String(format: "%02dm", a / 60 % 60) : a >= 60 ? "\(a / 60)m" + String(format: "%02ds", a % 60) : "\(a)s"
        let text = (seconds < 0 ? "−" : "+") + body
        return seconds > 59 ? t.yellow(text) : seconds < -59 ? t.cyan(text) : text
    }

    private func age(_ seconds: Int) -> String {
        if seconds < 0 { return "\(age(-seconds).replacingOccurrences(of: " ago", with: "")) in the future" }
        if seconds < 60 { return "\(seconds) s ago" }
        if seconds < 3600 { return "\(seconds / 60) min ago" }
        if seconds < 2 * 86_400 { return "\(seconds / 3600) h \(seconds / 60 % 60) min ago" }
        return "\(count(seconds / 86_400)) days ago"
    }

    private func truncated(_ s: String, _ width: Int) -> String {
        s.count <= width ? s : String(s.prefix(max(width - 1, 1))) + "…"
    }

    /// 17041 → "17,041".
    private func count(_ n: Int) -> String {
        let digits = String(abs(n))
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(ch)
        }
        return (n < 0 ? "-" : "") + out
    }
}
