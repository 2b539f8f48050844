import Foundation
import OnwardCore

/// A journey a person watches: "my 07:40 from Lebak Bulus to Bundaran HI, on weekdays". From `leadMinutes`
/// before each departure until the train leaves, the server checks it against the live data and tells the
/// person once per change (`WatchFindings.news`): a delay past `thresholdMinutes`, a cancellation, a new
/// platform, a change that can no longer be made.
public struct JourneyWatch: Sendable, Hashable, Codable {
    /// Where from and to: canonical stop or station IDs, and their names (for messages).
    public var from: String
    public var to: String
    public var fromName: String
    public var toName: String
    /// The option's departure from `from`: seconds of the local day in `timeZone` (07:40 is 27,600).
    public var departureSeconds: Int
    /// The origin's time zone, in which the departure time and the days are meant.
    public var timeZone: String
    /// The days it is watched on, Monday = 0 … Sunday = 6; empty: only on `date`.
    public var days: [Int]
    /// The one day of a watch with no `days`.
    public var date: ServiceDate?
    /// How long before the departure the watching starts.
    public var leadMinutes: Int
    /// A delay is news from this many minutes (and again when it changes by as many).
    public var thresholdMinutes: Int
    /// The person's name for it ("to work"); may be empty.
    public var name: String

    public static let defaultLeadMinutes = 30
    public static let defaultThresholdMinutes = 3
    public static let leadRange = 5...180
    public static let thresholdRange = 1...60

    public init(from: String, to: String, fromName: String = "", toName: String = "", departureSeconds: Int, timeZone: String, days: [Int] = [], date: ServiceDate? = nil,
                leadMinutes: Int = defaultLeadMinutes, thresholdMinutes: Int = defaultThresholdMinutes, name: String = "") {
        self.from = from; self.to = to; self.fromName = fromName; self.toName = toName; self.departureSeconds = departureSeconds; self.timeZone = timeZone
        self.days = days; self.date = date; self.leadMinutes = leadMinutes; self.thresholdMinutes = thresholdMinutes; self.name = name
    }

    var zone: TimeZone { TimeZone.named(timeZone) }

    /// The scheduled departure on `date` (at its wall-clock time, also on a day the clocks change).
    public func departure(on date: ServiceDate) -> Instant {
        LocalTime.instant(date: date, secondsOfDay: departureSeconds, in: zone)
    }

    /// Whether the watch is kept on `date`.
    public func isWatched(on date: ServiceDate) -> Bool {
        days.isEmpty ? date == self.date : days.contains(date.weekdayIndex)
    }

    /// The departure being watched at `now`: the one whose window (`leadMinutes` before, until `graceSeconds` after
    /// its scheduled time, as a late train still has to be watched) holds `now`; nil between windows.
    public func watched(at now: Instant, graceSeconds: Int64) -> (date: ServiceDate, departure: Instant)? {
        let today = LocalTime(now, in: zone).date
        // A departure just after midnight is watched from the evening before; one late in the evening until after midnight.
        for date in [today.adding(days: -1), today, today.adding(days: 1)] where isWatched(on: date) {
            let departure = departure(on: date)
            if now >= departure.adding(seconds: -Int64(leadMinutes) * 60) && now <= departure.adding(seconds: graceSeconds) {
                return (date, departure)
            }
        }
        return nil
    }

    /// The next departure watched after `now` (within a fortnight), for a page to show; nil for a one-day watch whose day passed.
    public func nextDeparture(after now: Instant) -> Instant? {
        let today = LocalTime(now, in: zone).date
        return (-1...14).lazy.map { today.adding(days: $0) }.filter(isWatched).map(departure).first { $0 >= now }
    }

    /// What is wrong with the watch's fields, naming the field; nil when nothing is.
    public func problem() -> (message: String, field: String)? {
        if !(0..<86_400).contains(departureSeconds) { return ("the departure time must be within the day", "departure") }
        if days.isEmpty && date == nil { return ("a watch needs days or a date", "days") }
        if let bad = days.first(where: { !(0...6).contains($0) }) { return ("day \(bad) is not a day of the week (0 Monday … 6 Sunday)", "days") }
        if !Self.leadRange.contains(leadMinutes) {
            return ("leadMinutes must be between \(Self.leadRange.lowerBound) and \(Self.leadRange.upperBound)", "leadMinutes")
        }
        if !Self.thresholdRange.contains(thresholdMinutes) {
            return ("thresholdMinutes must be between \(Self.thresholdRange.lowerBound) and \(Self.thresholdRange.upperBound)", "thresholdMinutes")
        }
        if name.count > 80 { return ("name is longer than 80 characters", "name") }
        return nil
    }

    /// The days as the API names them, in order.
    public static let dayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
}
