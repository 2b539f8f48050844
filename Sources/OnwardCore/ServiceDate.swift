/// A calendar date as GTFS uses it: the day a service is scheduled on, which may
/// run past midnight (a 25:10:00 departure belongs to the previous service date).
///
/// Stored as a day number (days since 1970-01-01 in the proleptic Gregorian
/// calendar) so that comparison and arithmetic are integer operations.
public struct ServiceDate: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public let dayNumber: Int32

    public init(dayNumber: Int32) { self.dayNumber = dayNumber }

    /// Returns nil for an impossible date such as 2025-02-30.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= ServiceDate.daysIn(month: month, year: year) else { return nil }
        self.dayNumber = Int32(ServiceDate.daysFromCivil(year: year, month: month, day: day))
    }

    /// Parses GTFS `YYYYMMDD`.
    public init?(gtfs text: some StringProtocol) {
        let u = Array(text.utf8)
        guard u.count == 8, u.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        func num(_ r: Range<Int>) -> Int { r.reduce(0) { $0 * 10 + Int(u[$1] - 48) } }
        self.init(year: num(0..<4), month: num(4..<6), day: num(6..<8))
    }

    /// Parses ISO `YYYY-MM-DD`.
    public init?(iso text: some StringProtocol) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    public var components: (year: Int, month: Int, day: Int) { ServiceDate.civilFromDays(Int(dayNumber)) }

    /// Monday = 0 … Sunday = 6, the column order of calendar.txt.
    public var weekdayIndex: Int {
        // 1970-01-01 was a Thursday (index 3).
        let w = (Int(dayNumber) + 3) % 7
        return w < 0 ? w + 7 : w
    }

    public func adding(days: Int) -> ServiceDate { ServiceDate(dayNumber: dayNumber + Int32(days)) }

    /// `YYYY-MM-DD`.
    public var isoString: String {
        let c = components
        return pad(c.year, 4) + "-" + pad(c.month, 2) + "-" + pad(c.day, 2)
    }

    /// `YYYYMMDD`.
    public var gtfsString: String {
        let c = components
        return pad(c.year, 4) + pad(c.month, 2) + pad(c.day, 2)
    }

    public var description: String { isoString }

    public static func < (a: ServiceDate, b: ServiceDate) -> Bool { a.dayNumber < b.dayNumber }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's civil-date algorithms: exact for every Gregorian date.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ z0: Int) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}

@inline(__always)
func pad(_ value: Int, _ width: Int) -> String {
    let s = String(value)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}
