import OnwardCore

/// A time as the API writes it (ISO 8601 with the stop's UTC offset, e.g.
/// `2026-11-23T08:05:00+07:00`), read back as the wall-clock reading at the
/// stop. Pages show this reading as it is: converting it to the server's (or
/// the reader's) zone would show a traveller in Jakarta London's clock.
public struct WallClock: Sendable, Hashable {
    /// The local calendar date.
    public let date: ServiceDate
    /// Seconds since local midnight.
    public let secondsOfDay: Int
    /// The offset from UTC written in the text, in seconds.
    public let utcOffset: Int

    /// Reads `YYYY-MM-DDTHH:MM[:SS[.fff]]` followed by `Z` or `±HH:MM` (or
    /// `±HHMM`); nil for anything else.
    public init?(iso text: String) {
        let chars = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= chars.count else { return nil }
            var n = 0
            for c in chars[from..<(from + count)] {
                guard c >= 48, c <= 57 else { return nil }
                n = n * 10 + Int(c - 48)
            }
            return n
        }
        guard chars.count >= 16, chars[4] == 45, chars[7] == 45, chars[10] == 84 || chars[10] == 116, chars[13] == 58,
              let y = number(0, 4), let mo = number(5, 2), let d = number(8, 2), let h = number(11, 2), let mi = number(14, 2),
              let date = ServiceDate(year: y, month: mo, day: d), h < 24, mi < 60 else { return nil }
        var i = 16
        var s = 0
        if i < chars.count, chars[i] == 58 {
            guard let sec = number(i + 1, 2), sec < 61 else { return nil }
            s = min(sec, 59)
            i += 3
            if i < chars.count, chars[i] == 46 || chars[i] == 44 {
                i += 1
                while i < chars.count, chars[i] >= 48, chars[i] <= 57 { i += 1 }
            }
        }
        var offset = 0
        if i < chars.count {
            switch chars[i] {
            case 90, 122: // Z
                guard i + 1 == chars.count else { return nil }
            case 43, 45: // + -
                let sign = chars[i] == 45 ? -1 : 1
                guard let oh = number(i + 1, 2) else { return nil }
                var om = 0
                if i + 3 < chars.count {
                    let at = chars[i + 3] == 58 ? i + 4 : i + 3
                    guard let m = number(at, 2), at + 2 == chars.count else { return nil }
                    om = m
                } else if i + 3 != chars.count { return nil }
                offset = sign * (oh * 3600 + om * 60)
            default:
                return nil
            }
        }
        self.date = date
        self.secondsOfDay = h * 3600 + mi * 60 + s
        self.utcOffset = offset
    }

    public var hour: Int { secondsOfDay / 3600 }
    public var minute: Int { secondsOfDay / 60 % 60 }

    /// `HH:MM`, the way boards show times.
    public var hhmm: String {
        (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
    }

    /// The moment this reading names.
    public var instant: Instant {
        Instant(epochSeconds: Int64(date.dayNumber) * 86_400 + Int64(secondsOfDay) - Int64(utcOffset))
    }

    /// `HH:MM` of an API time, or nil when it is absent or unreadable.
    public static func hhmm(_ iso: String?) -> String? { iso.flatMap(WallClock.init(iso:))?.hhmm }

    /// Whole minutes from `iso` to `now`, never negative; nil when unreadable.
    static func minutes(since iso: String?, now: Instant) -> Int? {
        guard let t = iso.flatMap(WallClock.init(iso:)) else { return nil }
        return max(0, Int(now.epochSeconds - t.instant.epochSeconds) / 60)
    }
}
