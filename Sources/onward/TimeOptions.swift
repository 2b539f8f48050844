import ArgumentParser
import Foundation
import OnwardCore
import Transit

extension ServiceDate {
    /// "Monday", for the headings of boards and journeys.
    var weekdayName: String { ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][weekdayIndex] }
}

/// `--date` and `--time`, read in the stop's own time zone by the query layer's one reader of dates and times.
struct TimeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Service date, YYYY-MM-DD (default: today at the stop).", valueName: "YYYY-MM-DD"))
    var date: String?

    @Option(help: ArgumentHelp("Local time at the stop, HH:MM or HH:MM:SS (default: now).", valueName: "HH:MM[:SS]"))
    var time: String?

    /// The options under the API's parameter names.
    var parameters: [String: String?] { ["date": date, "time": time] }

    var given: Bool { date != nil || time != nil }

    /// The date given, if one is.
    func parsedDate() throws -> ServiceDate? {
        do { return try date.map { d throws(QueryError) in try TimeText.date(d, parameter: "date") } } catch { throw error.cli }
    }

    /// The time given, as seconds since midnight, if one is.
    func parsedTime() throws -> Int? {
        do { return try time.map { t throws(QueryError) in try TimeText.secondsOfDay(t, parameter: "time") } } catch { throw error.cli }
    }

    /// The instant these options name in `zone` (missing parts default to now), or nil when neither is given.
    func instant(in zone: TimeZone, now: Instant = .now()) throws -> Instant? {
        do { return try RequestParameters(options: parameters).moment(in: zone, now: now) } catch { throw error.cli }
    }
}
