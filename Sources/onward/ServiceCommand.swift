import API
import App
import ArgumentParser
import Foundation
import GTFSRealtime
import OnwardCore
import Timetable
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
            let registry = try sources.registry()
            if registry.owns(tripID) {
                let queries = SourceQueries(registry, now: .now())
                let date = try when.parsedDate()
                let service: ServiceDTO
                do { service = try await queries.service(tripID, date: date, languages: live.languages) } catch let e as QueryError {
                    throw CLIError(e.message)
                }
                if json { try printJSON(service) } else { print(SourceServiceView(service: service).render(.stdout)) }
                return
            }
            try sources.explainUnconfigured(tripID)
            let tt = try feeds.load().timetable
            let trip: TripIndex
            switch tt.lookupTrip(id: tripID) {
            case .found(let t): trip = t
            case .ambiguous(let ids): throw CLIError("several feeds have a trip '\(tripID)'; name one by ID:\n" + ids.map { "  " + $0 }.joined(separator: "\n"))
            case .notFound: throw CLIError("no trip '\(tripID)' in this timetable")
            }
            let startTime = try when.parsedTime().map(Int32.init)
            var date = try when.parsedDate()
            if date == nil {
                // Today where the trip runs, or the next day it runs.
                let today = LocalTime(.now(), in: TimeZone(identifier: tt.tripTimeZoneIdentifier(trip)) ?? .gmt).date
                date = tt.runs(trip, on: today) ? today : tt.serviceDates(of: trip).first { $0 > today } ?? today
            }
            let zone = TimeZone(identifier: tt.tripTimeZoneIdentifier(trip)) ?? .gmt
            let now = when.date == nil && when.time == nil ? Instant.now()
                : LocalTime.instant(date: date!, secondsOfDay: Int(startTime ?? 0), in: zone)
            let liveData = await live.load(tt, now: now)
            let details: ServiceDetails
            do {
                if let data = liveData {
                    details = try tt.liveService(trip, on: date!, startTime: startTime, overlay: data.overlay, now: now)
                } else {
                    details = try tt.service(trip, on: date!, startTime: startTime)
                }
            } catch let error as ServiceLookupError {
                switch error {
                case .unknownTrip(let id): throw CLIError("no trip '\(id)'")
                case .skippedAtImport(let id): throw CLIError("trip '\(id)' was skipped at import (see `onward import` notices)")
                case .notRunning(let id, let d, let runsOn):
                    let dates = runsOn.map(\.isoString).joined(separator: ", ")
                    throw CLIError("trip '\(id)' does not run on \(d.isoString)\(dates.isEmpty ? "" : "; it runs on \(dates)")")
                }
            }
            let summary = live.summary(liveData, now: now)
            let book = liveData?.alertBook(tt)
            let alerts = book?.serviceAlerts(route: details.routeID, trip: details.tripID, at: now) ?? []
            if json {
                try printJSON(ServiceDTO(details, live: summary, alerts: book == nil ? nil : alerts.map { AlertDTO($0, languages: live.languages, timeZone: zone) }))
            } else {
                var text = render(details, live: summary, .stdout)
                if let book, !alerts.isEmpty {
                    let view = AlertsView(timetable: tt, book: book, alerts: alerts, inactive: 0, at: now, zone: zone, languages: live.languages,
                                          simulated: summary?.simulated ?? false, subject: nil)
                    text += "\n\n" + alerts.flatMap { view.block($0, .stdout) }.joined(separator: "\n")
                }
                print(text)
            }
        }
    }

    func render(_ s: ServiceDetails, live: LiveDTO?, _ t: Terminal) -> String {
        var lines = [t.bold("\(s.routeShortName.isEmpty ? s.routeLongName : s.routeShortName) to \(s.headsign)") + t.dim(" · trip \(s.tripID) · \(s.serviceDate.isoString)")]
        if let h = s.headwaySeconds { lines.append(t.dim("Runs every \(max(h / 60, 1)) min; showing one run.")) }
        if s.isCancelled { lines.append(t.red("This service is cancelled.")) }
        if let v = s.vehicle { lines.append(VehicleLine.render(v, calls: s.calls, t)) }
        lines.append("")
        var table = TextTable(headers: live == nil ? ["Arr", "Dep", "Stop", "Plat", "Notes"] : ["Arr", "Dep", "Live", "Stop", "Plat", "Notes"])
        for (i, c) in s.calls.enumerated() {
            let zone = TimeZone(identifier: c.timeZone) ?? .gmt
            let arr = i == 0 ? "" : LocalTime(c.scheduledArrival, in: zone).hhmm
            let dep = i == s.calls.count - 1 ? "" : LocalTime(c.scheduledDeparture, in: zone).hhmm
            var notes: [String] = []
            if c.pickup == .none && i < s.calls.count - 1 { notes.append("set down only") }
            if c.dropOff == .none && i > 0 { notes.append("pick up only") }
            if c.pickup == .phoneAgency || c.dropOff == .phoneAgency { notes.append("phone to arrange") }
            if c.pickup == .coordinateWithDriver || c.dropOff == .coordinateWithDriver { notes.append("tell the driver") }
            if !c.isTimepoint { notes.append("approximate") }
            var row = [arr, t.bold(dep)]
            if live != nil {
                let last = i == s.calls.count - 1
                let expected = (last ? c.expectedArrival : c.expectedDeparture ?? c.expectedArrival)
                row.append(LiveText.render(status: c.status, expected: expected.map { LocalTime($0, in: zone).hhmm }, delay: c.delaySeconds,
                                           scheduledAt: last || c.expectedDeparture == nil ? c.scheduledArrival : c.scheduledDeparture,
                                           expectedAt: expected, t))
            }
            var here = ""
            if let v = s.vehicle, v.callIndex == i {
                here = v.stopStatus == .stoppedAt ? " ◉ here" : " ← next"
            }
            row += [c.stopName + t.cyan(here), (c.platform ?? "") + (c.platformChanged ? t.yellow(" changed") : ""),
                    t.dim(notes.joined(separator: ", "))]
            table.rows.append(row)
        }
        lines.append(table.render(t))
        if let live {
            lines.append("")
            lines.append(LiveText.footer(live, zone: TimeZone(identifier: s.calls.first?.timeZone ?? "UTC") ?? .gmt, t))
        }
        return lines.joined(separator: "\n")
    }
}
