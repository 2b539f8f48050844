import ArgumentParser
import Foundation
import OnwardCore

extension ServiceDate {
    /// "Monday", for the headings of boards and journeys.
    var weekdayName: String { ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][weekdayIndex] }
}

/// `--date` and `--time`, read in the stop's own time zone.
struct TimeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Service date, YYYY-MM-DD (default: today at the stop).", valueName: "YYYY-MM-DD"))
    var date: String?

    @Option(help: ArgumentHelp("Local time at the stop, HH:MM or HH:MM:SS (default: now).", valueName: "HH:MM[:SS]"))
    var time: String?

    func parsedDate() throws -> ServiceDate? {
        guard let date else { return nil }
        guard let d = ServiceDate(iso: date) else { throw CLIError("--date '\(date)' is not a date; use YYYY-MM-DD, e.g. 2025-11-06") }
        return d
    }

    /// Seconds since midnight, or nil when not given.
    func parsedTime() throws -> Int? {
        guard let time else { return nil }
        let parts = time.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), let h = Int(parts[0]), let m = Int(parts[1]), (0...23).contains(h), (0...59).contains(m),
              parts.count == 2 || (Int(parts[2]).map { (0...59).contains($0) } ?? false) else {
            throw CLIError("--time '\(time)' is not a time; use HH:MM or HH:MM:SS, e.g. 08:30")
        }
        return h * 3600 + m * 60 + (parts.count == 3 ? Int(parts[2])! : 0)
    }

    /// The instant these options name in `zone`: missing parts default to now.
    func instant(in zone: TimeZone, now: Instant = .now()) throws -> Instant {
        let current = LocalTime(now, in: zone)
        let d = try parsedDate() ?? current.date
        let t = try parsedTime() ?? (date == nil ? current.secondsOfDay : 0)
        return LocalTime.instant(date: d, secondsOfDay: t, in: zone)
    }
}
