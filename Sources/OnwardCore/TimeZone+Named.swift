import Foundation

extension TimeZone {
    /// The zone with this IANA name, or UTC for a name this system does not know. Feeds' zones are checked when a
    /// timetable is built, so UTC here is only ever a last resort; one rule for every place that shows a local time.
    public static func named(_ identifier: String) -> TimeZone { TimeZone(identifier: identifier) ?? .gmt }
}
