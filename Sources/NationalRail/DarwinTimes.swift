import Foundation
import OnwardCore

/// Darwin's clock: every time it sends (`std`, `etd`, `st`, `at`, …) is an `HH:MM`
/// reading of a station clock in Europe/London, with no date. This places such a
/// reading on the right day.
///
/// The rule: a reading belongs to whichever of the day before, the day of or the
/// day after the reference's London date puts it nearest to the reference. Boards
/// span midnight both ways (at 23:50 a 00:10 departure is tomorrow's; at 00:05 a
/// 23:55 arrival was yesterday's), and on the two clock-change days a day is 23 or
/// 25 hours long, so the candidates are real instants, not "date + minutes".
///
/// A value type with a small cache of each day's UTC offsets, because one board
/// holds hundreds of times and asking `TimeZone` for each costs more than parsing
/// the XML. Make one per document (it is cheap) and resolve through it.
public struct DarwinClock: Sendable {
    /// Darwin's zone, and the zone every National Rail time is shown in.
    public static let zoneIdentifier = "Europe/London"

    private let zone: TimeZone
    /// Local day number → the offsets in force before and after that day (equal on
    /// all but the two clock-change days).
    private var offsets: [Int32: (before: Int64, after: Int64)] = [:]

    public init() {
        // Europe/London is in every tz database Foundation ships; GMT would be wrong in summer.
        zone = TimeZone(identifier: DarwinClock.zoneIdentifier) ?? TimeZone(secondsFromGMT: 0)!
    }

    /// Minutes since midnight of an `HH:MM` (or `H:MM`) reading; nil for anything else
    /// ("On time", "Delayed", an empty string).
    public static func minutes(_ text: some StringProtocol) -> Int? {
        var hours = 0, minutes = 0, digits = 0, sawColon = false
        for c in text.utf8 {
            if c >= 48 && c <= 57 {
                if sawColon { minutes = minutes * 10 + Int(c - 48) } else { hours = hours * 10 + Int(c - 48) }
                digits += 1
            } else if c == 58 && !sawColon {
                guard digits == 1 || digits == 2 else { return nil }
                sawColon = true; digits = 0
            } else if c == 32 || c == 9 || c == 10 || c == 13 {
                continue
            } else {
                return nil
            }
        }
        guard sawColon, digits == 2, hours < 24, minutes < 60 else { return nil }
        return hours * 60 + minutes
    }

    /// The London date of an instant: the service date National Rail shows it under.
    public func date(of instant: Instant) -> ServiceDate { LocalTime(instant, in: zone).date }

    /// The instant of the reading `text` nearest to `reference` (see the type's rule);
    /// nil when `text` is not a clock reading.
    public mutating func resolve(_ text: some StringProtocol, near reference: Instant) -> Instant? {
        guard let m = DarwinClock.minutes(text) else { return nil }
        return resolve(minutes: m, near: reference)
    }

    /// The instant of `minutes` past local midnight, on the day before, of or after
    /// `reference`'s London date, whichever is nearest to `reference` (the earlier on a tie).
    public mutating func resolve(minutes: Int, near reference: Instant) -> Instant {
        let day = localDay(of: reference)
        var best: Instant?
        var bestDistance = Int64.max
        for d in (day - 1)...(day + 1) {
            let (first, second) = occurrences(day: d, secondsOfDay: minutes * 60)
            for candidate in [first, second] {
                guard let candidate else { continue }
                let distance = abs(candidate.epochSeconds - reference.epochSeconds)
                if distance < bestDistance || (distance == bestDistance && candidate < best!) {
                    best = candidate; bestDistance = distance
                }
            }
        }
        return best!
    }

    private mutating func localDay(of instant: Instant) -> Int32 {
        // The offset at the instant itself is needed only to find the local date.
        let local = instant.epochSeconds + Int64(zone.secondsFromGMT(for: instant.date))
        return Int32(local >= 0 ? local / 86_400 : (local - 86_399) / 86_400)
    }

    /// Where a local reading falls on local day `day`: once on an ordinary day; twice
    /// in the repeated hour when clocks go back (both are candidates: a board at
    /// 01:40 GMT means the second 01:30, not the first); and in the hour that is
    /// skipped when clocks go forward, at the instant after the gap (as `LocalTime`).
    private mutating func occurrences(day: Int32, secondsOfDay: Int) -> (Instant?, Instant?) {
        let naive = Int64(day) * 86_400 + Int64(secondsOfDay)
        let (before, after) = dayOffsets(day)
        if before == after { return (Instant(epochSeconds: naive - before), nil) }
        var found: [Int64] = []
        for off in [before, after] {
            let t = naive - off
            if Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t)))) == off, !found.contains(t) {
                found.append(t)
            }
        }
        found.sort()
        switch found.count {
        case 0: return (Instant(epochSeconds: naive - before), nil)
        case 1: return (Instant(epochSeconds: found[0]), nil)
        default: return (Instant(epochSeconds: found[0]), Instant(epochSeconds: found[1]))
        }
    }

    private mutating func dayOffsets(_ day: Int32) -> (before: Int64, after: Int64) {
        if let cached = offsets[day] { return cached }
        // Noon UTC of the day before and of the day after: London changes its clocks
        // at 01:00 UTC, so any change that affects local day `day` lies between them.
        let start = Int64(day) * 86_400
        let before = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(start - 43_200))))
        let after = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(start + 86_400 + 43_200))))
        offsets[day] = (before, after)
        return (before, after)
    }
}

/// One timed event of a service at one place (a departure, an arrival, a call):
/// its timetable time and what Darwin says about it now.
public struct DarwinEvent: Sendable, Hashable {
    public var scheduled: Instant
    /// The expected time, or the actual time once it happened; nil when Darwin
    /// knows no time ("Delayed", "Cancelled", "No report").
    public var expected: Instant?
    public var status: LiveStatus
    /// `expected − scheduled` in seconds (whole minutes), when both are known.
    public var delaySeconds: Int?
    /// Whether `expected` is an actual time (`atd`, `ata`, `at`).
    public var isActual: Bool

    public init(scheduled: Instant, expected: Instant?, status: LiveStatus, delaySeconds: Int?, isActual: Bool) {
        self.scheduled = scheduled; self.expected = expected; self.status = status
        self.delaySeconds = delaySeconds; self.isActual = isActual
    }
}

extension DarwinClock {
    /// Reads one event: a scheduled reading (`std`, `sta`, `st`) placed near `reference`,
    /// then the estimate (`etd`, `eta`, `et`) or the actual (`atd`, `ata`, `at`) placed
    /// near the scheduled instant. Nil without a scheduled time.
    ///
    /// Estimates: a time (late, early or on time by `LiveStatus.forDelay`), "On time"
    /// (expected = scheduled), "Delayed" (late by an unknown amount), "Cancelled",
    /// "No report" (no live data). Actuals: a time or "On time" → departed (arrived)
    /// at that time; "Cancelled"; "No report", which Darwin sends for a call the train
    /// has passed without a report, → departed with no time. `cancelled` (an
    /// `isCancelled` flag) wins over everything.
    public mutating func event(scheduled: String?, estimate: String?, actual: String?, cancelled: Bool,
                               near reference: Instant) -> DarwinEvent? {
        guard let scheduledText = scheduled, let scheduledAt = resolve(scheduledText, near: reference) else { return nil }
        var event = DarwinEvent(scheduled: scheduledAt, expected: nil, status: .noLiveData, delaySeconds: nil, isActual: false)
        if let actual = actual?.trimmingCharacters(in: .whitespacesAndNewlines), !actual.isEmpty {
            event.isActual = true
            event.status = .departed
            if let at = resolve(actual, near: scheduledAt) {
                event.expected = at
            } else if DarwinClock.same(actual, "On time") {
                event.expected = scheduledAt
            } else if DarwinClock.same(actual, "Cancelled") {
                event.status = .cancelled; event.isActual = false
            }
        } else if let estimate = estimate?.trimmingCharacters(in: .whitespacesAndNewlines), !estimate.isEmpty {
            if let et = resolve(estimate, near: scheduledAt) {
                event.expected = et
                let delay = Int(et.epochSeconds - scheduledAt.epochSeconds)
                event.status = LiveStatus.forDelay(delay)
            } else if DarwinClock.same(estimate, "On time") {
                event.expected = scheduledAt; event.status = .onTime
            } else if DarwinClock.same(estimate, "Delayed") {
                event.status = .delayed
            } else if DarwinClock.same(estimate, "Cancelled") {
                event.status = .cancelled
            } else {
                // "No report", or words this adapter does not know: say nothing live.
                event.status = .noLiveData
            }
        }
        if let expected = event.expected { event.delaySeconds = Int(expected.epochSeconds - scheduledAt.epochSeconds) }
        if cancelled {
            event.status = .cancelled; event.expected = nil; event.delaySeconds = nil; event.isActual = false
        }
        return event
    }

    static func same(_ a: String, _ b: String) -> Bool { a.caseInsensitiveCompare(b) == .orderedSame }
}
