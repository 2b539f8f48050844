import API
import Foundation
import OnwardCore

/// A board from any source, in the terminal, from the API's answer: the same
/// answer `--json` prints and the server sends.
struct SourceBoardView {
    var board: BoardDTO
    var now: Instant

    func render(_ t: Terminal) -> String {
        let arrivals = board.arrivals != nil
        let rows = board.arrivals ?? board.departures ?? []
        var out = [t.bold((arrivals ? "Arrivals at " : "Departures from ") + board.stop.name) + " (\(board.stop.id))"]
        if let via = board.via { out.append((arrivals ? "coming from " : "calling at ") + via.name) }
        if let live = board.live {
            var line = "live from \(board.source ?? "source")"
            if let updated = live.updatedAt { line += ", updated \(Self.local(updated, zone: board.stop.timeZone))" }
            if live.stale { line += " " + t.yellow("(stale: shown as last known)") }
            out.append(t.dim(line))
        }
        for a in board.alerts?.highPriority ?? [] { out.append(t.red("! ") + (a.header ?? a.description ?? a.id)) }
        out.append("")
        if rows.isEmpty { out.append(board.emptyReason ?? (arrivals ? "No arrivals." : "No departures.")) }
        for e in rows {
            let scheduled = arrivals ? e.scheduledArrival : e.scheduledDeparture
            let expected = arrivals ? e.expectedArrival : e.expectedDeparture
            let time = Self.hhmm(scheduled ?? expected)
            let line = e.routeShortName.isEmpty ? e.routeLongName : e.routeShortName
            let platform = e.platform.map { "plat \($0)" } ?? ""
            let place = arrivals ? e.origin : e.headsign
            let full = OccupancyText.render(e.occupancy, t)
            out.append("\(time)  \(pad(line, 6)) \(pad(place, 32)) \(pad(platform, 8)) \(status(e, scheduled: scheduled, expected: expected, t))"
                       + (full.isEmpty ? "" : t.dim(" · ") + full))
            if let calls = e.callingAt, !calls.isEmpty {
                out.append(t.dim("       calling at " + calls.map(\.stopName).joined(separator: ", ")))
            }
            if let reason = e.reason { out.append(t.dim("       " + reason)) }
        }
        let others = board.alerts?.other ?? []
        if !others.isEmpty {
            out.append("")
            for a in others { out.append("- " + (a.header ?? a.description ?? a.id)) }
        }
        return out.joined(separator: "\n")
    }

    func status(_ e: BoardEntryDTO, scheduled: String?, expected: String?, _ t: Terminal) -> String {
        let status = LiveStatus(rawValue: e.status) ?? .scheduled
        // A prediction-only row (the bus tracker) has no timetable time to be on time against.
        if status == .onTime, e.scheduledDeparture == nil, e.scheduledArrival == nil { return t.dim("predicted") }
        let instant = { (iso: String?) in iso.flatMap(Instant.init(iso8601:)) }
        return LiveText.render(status: status, expected: expected.map { Self.hhmm($0) }, delay: e.delaySeconds,
                               scheduledAt: instant(scheduled), expectedAt: instant(expected), added: e.addedTrip == true, t)
    }

    func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }

    /// "HH:MM" of an ISO 8601 local time ("2019-12-12T10:05:00+00:00").
    static func hhmm(_ iso: String?) -> String {
        guard let iso, let t = iso.firstIndex(of: "T") else { return "--:--" }
        return String(iso[iso.index(after: t)...].prefix(5))
    }

    static func local(_ isoUTC: String, zone: String) -> String {
        let f = ISO8601DateFormatter()
        guard let d = f.date(from: isoUTC), let z = TimeZone(identifier: zone) else { return isoUTC }
        return LocalTime(Instant(d), in: z).iso8601
    }
}
