import Foundation
import OnwardCore

/// Dates and times as people and clients type them, read one way everywhere (the API, the pages,
/// the CLI): `YYYY-MM-DD` for a day that exists, `HH:MM[:SS]` within a day, and ISO 8601 instants
/// whose fields all exist (the formatter alone would roll 30 February over to 2 March).
public enum TimeText {
    /// `HH:MM` or `HH:MM:SS` as seconds since midnight; `parameter` names the field at fault.
    public static func secondsOfDay(_ text: String, parameter: String) throws(QueryError) -> Int {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard (2...3).contains(parts.count), let h = parts[0], let m = parts[1], (0...23).contains(h), (0...59).contains(m),
              parts.count == 2 || (parts[2].map { (0...59).contains($0) } ?? false) else {
            throw QueryError(.invalidParameter, "\(parameter) '\(text)' is not a time; use HH:MM or HH:MM:SS", parameter: parameter)
        }
        return h * 3600 + m * 60 + (parts.count == 3 ? parts[2]! : 0)
    }

    /// `YYYY-MM-DD`, a day that exists.
    public static func date(_ text: String, parameter: String) throws(QueryError) -> ServiceDate {
        guard let date = ServiceDate(iso: text) else {
            throw QueryError(.invalidParameter, "\(parameter) '\(text)' is not a date; use YYYY-MM-DD", parameter: parameter)
        }
        return date
    }

    /// An ISO 8601 date and time with an offset (`2026-11-23T08:00:00+07:00`, `…Z`; fractions of a second
    /// are dropped). With `localZone`, one without an offset (`2026-11-23T08:00[:00]`) is read in that zone.
    public static func instant(_ text: String, localZone: TimeZone? = nil, parameter: String) throws(QueryError) -> Instant {
        if let instant = Instant(iso8601: text) { return instant }
        if let zone = localZone, let local = localDateTime(text) {
            return LocalTime.instant(date: local.date, secondsOfDay: local.seconds, in: zone)
        }
        let without = localZone == nil ? "" : ", or without one in the local time zone"
        throw QueryError(.invalidParameter, "\(parameter) '\(text)' is not an ISO 8601 date and time with offset\(without)", parameter: parameter)
    }

    /// `YYYY-MM-DDTHH:MM[:SS]` with no offset: a day that exists and a time within it.
    static func localDateTime(_ text: String) -> (date: ServiceDate, seconds: Int)? {
        let parts = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let date = ServiceDate(iso: parts[0]), let seconds = try? secondsOfDay(String(parts[1]), parameter: "") else { return nil }
        return (date, seconds)
    }
}
