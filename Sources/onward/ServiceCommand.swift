import API
import App
import ArgumentParser
import Foundation
import OnwardCore
import Timetable

struct ServiceCommand: ParsableCommand {
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

    func run() throws {
        try runReporting {
            let tt = try feeds.load().timetable
            guard let trip = tt.trip(id: tripID) else { throw CLIError("no trip '\(tripID)' in this timetable") }
            let startTime = try when.parsedTime().map(Int32.init)
            var date = try when.parsedDate()
            if date == nil {
                // Today where the trip runs, or the next day it runs.
                let today = LocalTime(.now(), in: TimeZone(identifier: tt.tripTimeZoneIdentifier(trip)) ?? .gmt).date
                date = tt.runs(trip, on: today) ? today : tt.serviceDates(of: trip).first { $0 > today } ?? today
            }
            let details: ServiceDetails
            do {
                details = try tt.service(trip, on: date!, startTime: startTime)
            } catch let error as ServiceLookupError {
                switch error {
                case .unknownTrip(let id): throw CLIError("no trip '\(id)'")
                case .skippedAtImport(let id): throw CLIError("trip '\(id)' was skipped at import (see `onward import` notices)")
                case .notRunning(let id, let d, let runsOn):
                    let dates = runsOn.map(\.isoString).joined(separator: ", ")
                    throw CLIError("trip '\(id)' does not run on \(d.isoString)\(dates.isEmpty ? "" : "; it runs on \(dates)")")
                }
            }
            if json { try printJSON(ServiceDTO(details)) } else { print(render(details, .stdout)) }
        }
    }

    func render(_ s: ServiceDetails, _ t: Terminal) -> String {
        var lines = [t.bold("\(s.routeShortName.isEmpty ? s.routeLongName : s.routeShortName) to \(s.headsign)") + t.dim(" · trip \(s.tripID) · \(s.serviceDate.isoString)")]
        if let h = s.headwaySeconds { lines.append(t.dim("Runs every \(max(h / 60, 1)) min; showing one run.")) }
        lines.append("")
        var table = TextTable(headers: ["Arr", "Dep", "Stop", "Plat", "Notes"])
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
            table.rows.append([arr, t.bold(dep), c.stopName, c.platform ?? "", t.dim(notes.joined(separator: ", "))])
        }
        lines.append(table.render(t))
        return lines.joined(separator: "\n")
    }
}
