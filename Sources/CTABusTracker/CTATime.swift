import Foundation
import OnwardCore

/// The bus tracker's clock: times are `yyyyMMdd HH:mm` (or `yyyyMMdd HH:mm:ss`, as the
/// v2 XML `gettime` and `tmres=s` answers give them), wall-clock time in Chicago, with
/// no offset. Turning them into instants has to get the two DST changes right.
public enum CTATime {
    /// The zone every bus tracker time is in.
    public static let timeZoneIdentifier = "America/Chicago"
    /// Chicago. (`TimeZone(identifier:)` fails only for an unknown name; this one is in every tz database.)
    public static let timeZone = TimeZone(identifier: timeZoneIdentifier)!

    /// The wall-clock reading of a bus tracker time: its date and seconds since midnight.
    public struct Reading: Sendable, Hashable {
        public var date: ServiceDate
        public var secondsOfDay: Int
    }

    /// Reads `yyyyMMdd HH:mm` or `yyyyMMdd HH:mm:ss`; nil for anything else.
    public static func reading(_ text: String) -> Reading? {
        let u = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        guard u.count == 14 || u.count == 17, u[8] == 0x20, u[11] == 0x3A else { return nil }
        func digits(_ r: Range<Int>) -> Int? {
            var v = 0
            for i in r {
                guard u[i] >= 0x30, u[i] <= 0x39 else { return nil }
                v = v * 10 + Int(u[i] - 0x30)
            }
            return v
        }
        guard let date = ServiceDate(gtfs: String(decoding: u[0..<8], as: UTF8.self)),
              let h = digits(9..<11), let m = digits(12..<14), h < 24, m < 60 else { return nil }
        var s = 0
        if u.count == 17 {
            guard u[14] == 0x3A, let sec = digits(15..<17), sec < 60 else { return nil }
            s = sec
        }
        return Reading(date: date, secondsOfDay: h * 3600 + m * 60 + s)
    }

    /// Every instant at which Chicago's clocks show `reading`: one on most days, two in
    /// the hour repeated when clocks go back (CDT first), none in the hour skipped when
    /// they go forward.
    public static func candidates(_ reading: Reading) -> [Instant] {
        let naive = Int64(reading.date.dayNumber) * 86_400 + Int64(reading.secondsOfDay)
        // The offsets in force a day either side of the reading include every offset it can have.
        let offsets = Set([naive - 86_400, naive + 86_400].map {
            Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval($0))))
        })
        return offsets.compactMap { off -> Instant? in
            let t = naive - off
            return Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t)))) == off
                ? Instant(epochSeconds: t) : nil
        }.sorted()
    }

    /// The instant a bus tracker time stands for.
    ///
    /// - Parameter reference: when the time was made, roughly (the answer's `tmstmp`, or
    ///   now). In the repeated hour a time could be CDT or CST: the one nearer the reference
    ///   wins, so a prediction of 01:05 made at 01:58 CDT is 01:05 CST, seven minutes later.
    ///   Without a reference, the first occurrence (CDT). A time in the skipped hour
    ///   (02:30 on the day clocks go forward) does not exist: it is read with the offset in
    ///   force before the change, which lands as far after the gap (03:30 CDT).
    public static func instant(_ text: String, near reference: Instant? = nil) -> Instant? {
        guard let r = reading(text) else { return nil }
        return instant(r, near: reference)
    }

    /// The instant a reading stands for, by the rules of `instant(_:near:)` above.
    public static func instant(_ reading: Reading, near reference: Instant? = nil) -> Instant {
        let found = candidates(reading)
        if found.isEmpty {
            // In the spring-forward gap: OnwardCore's rule (the earlier offset) gives the instant after the gap.
            return LocalTime.instant(date: reading.date, secondsOfDay: reading.secondsOfDay, in: timeZone)
        }
        guard found.count > 1, let reference else { return found[0] }
        // min(by:) keeps the first of equals, so a tie goes to the earlier (CDT) reading.
        return found.min { abs($0.epochSeconds - reference.epochSeconds) < abs($1.epochSeconds - reference.epochSeconds) }!
    }

    /// The Chicago calendar date of an instant: a prediction's service date.
    public static func serviceDate(of instant: Instant) -> ServiceDate {
        LocalTime(instant, in: timeZone).date
    }

    /// The next Chicago midnight after `instant`: when the bus tracker's daily allowance starts again.
    public static func nextMidnight(after instant: Instant) -> Instant {
        let today = serviceDate(of: instant)
        return LocalTime.instant(date: today.adding(days: 1), secondsOfDay: 0, in: timeZone)
    }
}
