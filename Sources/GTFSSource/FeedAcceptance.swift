import Foundation
import OnwardCore
import Timetable

/// The checks a new version of a static feed must pass before it replaces the one in service,
/// beyond what the import itself refuses (a bad zip, a missing file, a broken reference): a
/// timetable that has already run out, and one that lost more of its stops or trips than an
/// agency's new timetable plausibly would (a half-uploaded feed, a test feed published by mistake).
public struct FeedAcceptance: Sendable, Hashable {
    /// The largest share of stops or of trips a new version may lose (0.5: half).
    public var maxShrink: Double

    public init(maxShrink: Double = 0.5) { self.maxShrink = maxShrink }

    /// Why `feed` in `new` must not replace it in `old` (nil: accepted). `today` is the
    /// service date now in the feed's own zone. With nothing in service (`old` nil) any feed that
    /// imports is taken, even one that has run out: a timetable shown as ended (health says so)
    /// serves better than none, and an operator who names an old file means it.
    public func refusal(of feed: String, in new: Timetable, replacing old: Timetable?, today: ServiceDate) -> String? {
        guard let old else { return nil }
        if let last = new.serviceDates(of: feed)?.last, last < today {
            return "its service ends on \(last.isoString), before today (\(today.isoString))"
        }
        let before = old.counts(of: feed), after = new.counts(of: feed)
        for (what, was, now) in [("stops", before.stops, after.stops), ("trips", before.trips, after.trips)] where was > 0 {
            let lost = Double(was - now) / Double(was)
            if lost > maxShrink {
                return "it has \(now) \(what) where the version in service has \(was): \(Int((lost * 100).rounded()))% fewer, "
                    + "more than the \(Int((maxShrink * 100).rounded()))% allowed (feed_max_shrink)"
            }
        }
        return nil
    }
}

extension Timetable {
    /// The first and last service dates of `feed`: its `feed_info` dates where it gives them,
    /// else the calendars' (of the whole timetable: calendars are not kept per feed).
    public func serviceDates(of feed: String) -> (first: ServiceDate?, last: ServiceDate?)? {
        guard let summary = self.feed(named: feed) else { return nil }
        let first = summary.startDate.flatMap { ServiceDate(gtfs: $0) } ?? calendarRange?.lowerBound
        let last = summary.endDate.flatMap { ServiceDate(gtfs: $0) } ?? calendarRange?.upperBound
        return (first, last)
    }

    /// How many stops and trips `feed` has (by their IDs' prefix).
    public func counts(of feed: String) -> (stops: Int, trips: Int) {
        guard let prefix = self.feed(named: feed)?.idPrefix else { return (0, 0) }
        if feeds.count == 1 { return (stopCount, tripCount) }
        let stops = allStops.reduce(0) { $0 + (stopIDString($1).hasPrefix(prefix) ? 1 : 0) }
        let trips = (0..<UInt32(tripCount)).reduce(0) { $0 + (tripIdentifier(TripIndex(raw: $1)).hasPrefix(prefix) ? 1 : 0) }
        return (stops, trips)
    }

    /// Today's service date in the zone of `feed`'s first agency (else the first agency's, else UTC).
    public func today(of feed: String, at now: Instant) -> ServiceDate {
        let zoneID = agencies.first { $0.id.hasPrefix(self.feed(named: feed)?.idPrefix ?? "\u{0}") }?.timeZone ?? agencies.first?.timeZone
        let zone = zoneID.flatMap(TimeZone.init(identifier:)) ?? .gmt
        return LocalTime(now, in: zone).date
    }
}
