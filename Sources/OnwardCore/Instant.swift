import Foundation

/// A moment in time, to the second, independent of any time zone.
public struct Instant: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let epochSeconds: Int64

    public init(epochSeconds: Int64) { self.epochSeconds = epochSeconds }
    public init(_ date: Date) { self.epochSeconds = Int64(date.timeIntervalSince1970.rounded(.down)) }
    /// An ISO 8601 date and time with its offset, as the API writes them ("2026-11-23T08:00:00+07:00"),
    /// with or without fractions of a second (a browser's `toISOString()` has milliseconds); the
    /// fraction is dropped.
    /// An ISO 8601 date and time with its offset (`2026-11-23T08:00:00+07:00`, `…Z`, `…+0700`), the one
    /// reading of such a time everywhere (the API's `at`, a device's sighting, a track). A day or time that
    /// does not exist is refused, never rolled over (30 February is not 2 March); any offset RFC 3339 allows
    /// (up to ±23:59) is read. Fractional seconds are allowed and dropped: instants count whole seconds.
    public init?(iso8601 text: String) {
        // Read by hand: Foundation's formatters roll impossible fields over, refuse offsets past ±18:00, and
        // ISO8601DateFormatter, made per call, was a fifth of the server's cost of a commute's position fix.
        let u = Array(text.utf8)
        func digit(_ i: Int) -> Int? { i < u.count && (48...57).contains(u[i]) ? Int(u[i] - 48) : nil }
        func two(_ i: Int) -> Int? { guard let a = digit(i), let b = digit(i + 1) else { return nil }; return a * 10 + b }
        guard u.count >= 20, u[10] == UInt8(ascii: "T") || u[10] == UInt8(ascii: "t"), u[13] == UInt8(ascii: ":"), u[16] == UInt8(ascii: ":"),
              let day = ServiceDate(iso: text.prefix(10)), let h = two(11), let m = two(14), let s = two(17), h <= 23, m <= 59, s <= 59 else { return nil }
        var i = 19
        if u[i] == UInt8(ascii: ".") {
            i += 1
            guard digit(i) != nil else { return nil }
            while digit(i) != nil { i += 1 }
        }
        guard i < u.count else { return nil }
        var offset = 0
        switch u[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard i + 1 == u.count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let colon = i + 3 < u.count && u[i + 3] == UInt8(ascii: ":")
            guard let oh = two(i + 1), let om = two(colon ? i + 4 : i + 3), oh <= 23, om <= 59, u.count == i + (colon ? 6 : 5) else { return nil }
            offset = (oh * 3600 + om * 60) * (u[i] == UInt8(ascii: "-") ? -1 : 1)
        default:
            return nil
        }
        self.init(epochSeconds: Int64(day.dayNumber) * 86_400 + Int64(h * 3600 + m * 60 + s - offset))
    }

    public static func now() -> Instant { Instant(Date()) }

    public var date: Date { Date(timeIntervalSince1970: TimeInterval(epochSeconds)) }

    public func adding(seconds: Int64) -> Instant { Instant(epochSeconds: epochSeconds + seconds) }

    public static func < (a: Instant, b: Instant) -> Bool { a.epochSeconds < b.epochSeconds }

    public var description: String { LocalTime(self, in: .gmt).iso8601 }

    /// Whole minutes from `earlier` to `later` as a clock shows them: each floored to its
    /// minute, then subtracted, so 07:02:50 to 07:05:31 is 3 minutes (07:02 to 07:05), never
    /// the 2 that 161 seconds make. A "late N min" then agrees with the two times beside it.
    public static func minutesAsShown(from earlier: Instant, to later: Instant) -> Int {
        func minute(_ i: Instant) -> Int64 { i.epochSeconds >= 0 ? i.epochSeconds / 60 : (i.epochSeconds - 59) / 60 }
        return Int(minute(later) - minute(earlier))
    }
}

/// A wall-clock reading of an instant in one time zone: what a traveller at the
/// stop sees on the station clock.
public struct LocalTime: Sendable, Hashable {
    public let instant: Instant
    public let date: ServiceDate
    /// Seconds since local midnight.
    public let secondsOfDay: Int
    /// Offset from UTC in force at that instant, in seconds.
    public let utcOffset: Int

    public init(_ instant: Instant, in zone: TimeZone) {
        self.instant = instant
        let offset = zone.secondsFromGMT(for: instant.date)
        self.utcOffset = offset
        let local = instant.epochSeconds + Int64(offset)
        let day = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        self.date = ServiceDate(dayNumber: Int32(day))
        self.secondsOfDay = Int(local - day * 86_400)
    }

    public var hour: Int { secondsOfDay / 3600 }
    public var minute: Int { secondsOfDay / 60 % 60 }
    public var second: Int { secondsOfDay % 60 }

    /// `HH:MM`.
    public var hhmm: String { pad(hour, 2) + ":" + pad(minute, 2) }
    /// `HH:MM:SS`.
    public var hhmmss: String { hhmm + ":" + pad(second, 2) }

    /// ISO 8601 local time with its UTC offset, e.g. `2025-11-06T08:05:00-04:00`.
    public var iso8601: String {
        let sign = utcOffset < 0 ? "-" : "+"
        let a = abs(utcOffset)
        return date.isoString + "T" + hhmmss + sign + pad(a / 3600, 2) + ":" + pad(a / 60 % 60, 2)
    }

    /// The instant at which a local wall-clock time occurs. On a day when clocks
    /// go forward, a time inside the gap maps to the instant after the gap; on a
    /// day when they go back, an ambiguous time maps to its first occurrence.
    public static func instant(date: ServiceDate, secondsOfDay: Int, in zone: TimeZone) -> Instant {
        let naive = Int64(date.dayNumber) * 86_400 + Int64(secondsOfDay)
        // Try the offsets in force a day either side: one of them is right.
        let before = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(naive - 86_400))))
        let after = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(naive + 86_400))))
        var candidates: [Int64] = []
        for off in [before, after] {
            let t = naive - off
            if Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t)))) == off { candidates.append(t) }
        }
        if let first = candidates.min() { return Instant(epochSeconds: first) }
        // In a spring-forward gap: no offset fits; use the earlier offset, which lands after the gap.
        return Instant(epochSeconds: naive - before)
    }
}
