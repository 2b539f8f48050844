import API
import App
import ArgumentParser
import Foundation
import OnwardCore
import Transit

struct ServiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "service",
        abstract: "Every calling point of one trip on one service date."
    )

    @Argument(help: "The trip ID (as a board shows it).")
    var tripID: String

    @OptionGroup var when: TimeOptions

    @Flag(help: "Print one JSON document.")
    var json = false

    @OptionGroup var feeds: FeedOptions

    @OptionGroup var live: RealtimeOptions

    @OptionGroup var sources: SourceOptions

    func run() async throws {
        try await runReporting {
            let opened = try await CommandSources(feeds: feeds, live: live, sources: sources, for: tripID)
            let date = try when.parsedDate(), startTime = try when.parsedTime()
            var now = Instant.now()
            if date != nil || startTime != nil {
                // "As of" the day and time given, in the service's own zone (known once it is found).
                let plain: ServiceDTO
                do { plain = try await opened.queries().service(tripID, date: date, startTime: startTime) } catch let e as QueryError { throw e.cli }
                let zone = TimeZone.named(plain.timeZone ?? "UTC")
                now = LocalTime.instant(date: ServiceDate(iso: plain.serviceDate) ?? date ?? LocalTime(now, in: zone).date,
                                        secondsOfDay: startTime ?? 0, in: zone)
            }
            await opened.readLive(asOf: now)
            let service: ServiceDTO
            do {
                service = try await opened.queries(now: now).service(tripID, date: date, startTime: startTime, languages: live.languages)
            } catch let e as QueryError { throw e.cli }
            if json { try printJSON(service); return }
            if opened.network == nil {
                print(SourceServiceView(service: service).render(.stdout))
                return
            }
            let zone = TimeZone.named(service.timeZone ?? "UTC")
            var text = render(service, .stdout)
            if let alerts = service.alerts, !alerts.isEmpty {
                let view = AlertText(names: opened.queries().names(of: alerts), at: now, zone: zone)
                text += "\n\n" + alerts.flatMap { view.block($0, .stdout) }.joined(separator: "\n")
            }
            print(text)
        }
    }

    func render(_ s: ServiceDTO, _ t: Terminal) -> String {
        let live = s.live
        var lines = [t.bold("\(s.routeShortName.isEmpty ? s.routeLongName : s.routeShortName) to \(s.headsign)") + t.dim(" · trip \(s.tripId) · \(s.serviceDate)")]
        if let h = s.headwaySeconds { lines.append(t.dim("Runs every \(max(h / 60, 1)) min; showing one run.")) }
        if s.cancelled == true { lines.append(t.red("This service is cancelled.")) }
        let vehicleCall = s.vehicle.flatMap { v in s.calls.firstIndex { $0.stopId == v.stopId } }
        if let v = s.vehicle { lines.append(VehicleLine.render(v, calls: s.calls, callIndex: vehicleCall, zone: TimeZone.named(s.timeZone ?? "UTC"), t)) }
        lines.append("")
        var table = TextTable(headers: live == nil ? ["Arr", "Dep", "Stop", "Plat", "Notes"] : ["Arr", "Dep", "Live", "Stop", "Plat", "Notes"])
        // Each call's time as written: in its own stop's zone.
        let hhmm = { (iso: String?) in iso.map { SourceBoardView.hhmm($0) } ?? "" }
        for (i, c) in s.calls.enumerated() {
            let last = i == s.calls.count - 1
            var notes: [String] = []
            if c.pickup == "none" && !last { notes.append("set down only") }
            if c.dropOff == "none" && i > 0 { notes.append("pick up only") }
            if c.pickup == "phoneAgency" || c.dropOff == "phoneAgency" { notes.append("phone to arrange") }
            if c.pickup == "coordinateWithDriver" || c.dropOff == "coordinateWithDriver" { notes.append("tell the driver") }
            if !c.timepoint { notes.append("approximate") }
            if !last, let full = c.occupancy?.level { notes.append(OccupancyText.words(full) + " on leaving") }
            if let u = c.usualDelay, u.enough, !HistoryText.usual(u.usual).isEmpty { notes.append(HistoryText.usual(u.usual)) }
            var row = [i == 0 ? "" : hhmm(c.scheduledArrival), t.bold(last ? "" : hhmm(c.scheduledDeparture))]
            if live != nil {
                let expected = last ? c.expectedArrival : c.expectedDeparture ?? c.expectedArrival
                let scheduled = last || c.expectedDeparture == nil ? c.scheduledArrival : c.scheduledDeparture
                row.append(LiveText.render(status: LiveStatus(rawValue: c.status) ?? .scheduled, expected: expected.map { hhmm($0) },
                                           delay: c.delaySeconds, scheduledAt: Instant.init(iso8601:)(scheduled),
                                           expectedAt: expected.flatMap(Instant.init(iso8601:)), t))
            }
            var here = ""
            if let v = s.vehicle, vehicleCall == i { here = v.stopStatus == "stoppedAt" ? " ◉ here" : " ← next" }
            row += [c.stopName + t.cyan(here), (c.platform ?? "") + (c.platformChanged == true ? t.yellow(" changed") : ""),
                    t.dim(notes.joined(separator: ", "))]
            table.rows.append(row)
        }
        lines.append(table.render(t))
        if let live {
            lines.append("")
            lines.append(LiveText.footer(live, zone: TimeZone.named(s.timeZone ?? "UTC"), t))
        }
        return lines.joined(separator: "\n")
    }
}
