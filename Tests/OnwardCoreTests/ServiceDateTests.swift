import Foundation
import OnwardCore
import Testing

@Suite("ServiceDate")
struct ServiceDateTests {
    @Test func parsesISOAndGTFSAndFormatsBack() throws {
        let d = try #require(ServiceDate(iso: "2025-03-09"))
        #expect(d.components == (2025, 3, 9))
        #expect(d.isoString == "2025-03-09")
        #expect(d.gtfsString == "20250309")
        #expect(d.description == "2025-03-09")
        #expect(ServiceDate(gtfs: "20250309") == d)
        #expect(ServiceDate(year: 2025, month: 3, day: 9) == d)
    }

    @Test func dayNumberCountsFromTheUnixEpoch() throws {
        #expect(ServiceDate(iso: "1970-01-01")?.dayNumber == 0)
        #expect(ServiceDate(iso: "1970-01-02")?.dayNumber == 1)
        #expect(ServiceDate(iso: "1969-12-31")?.dayNumber == -1)
        // 2000-03-01: 30 years (7 leap days: 72,76,80,84,88,92,96) = 10957 days to 2000-01-01, then 31 + 29.
        #expect(ServiceDate(iso: "2000-01-01")?.dayNumber == 10_957)
        #expect(ServiceDate(iso: "2000-03-01")?.dayNumber == 11_017) // 10957 + 31 + 29
        // 2025-01-01 is 1735689600 / 86400 = 20089.
        #expect(ServiceDate(iso: "2025-01-01")?.dayNumber == 20_089)
        let back = ServiceDate(dayNumber: 20_089 + 31 + 28)
        #expect(back.isoString == "2025-03-01")
    }

    @Test(arguments: [
        ("1970-01-01", 3), // Thursday
        ("2025-03-09", 6), // Sunday
        ("2025-03-10", 0), // Monday
        ("2025-11-02", 6), // Sunday
        ("2023-11-07", 1), // Tuesday
        ("2026-05-01", 4), // Friday
        ("1969-12-29", 0), // Monday before the epoch
        ("1969-12-31", 2), // Wednesday
        ("2000-02-29", 1), // Tuesday
    ])
    func weekdayIndexIsMondayZero(iso: String, weekday: Int) throws {
        let d = try #require(ServiceDate(iso: iso))
        #expect(d.weekdayIndex == weekday)
    }

    @Test func leapYears() {
        #expect(ServiceDate(iso: "2024-02-29") != nil)
        #expect(ServiceDate(iso: "2000-02-29") != nil) // divisible by 400
        #expect(ServiceDate(iso: "1900-02-29") == nil) // divisible by 100, not 400
        #expect(ServiceDate(iso: "2100-02-29") == nil)
        #expect(ServiceDate(iso: "2025-02-29") == nil)
        #expect(ServiceDate(iso: "2024-02-28")?.adding(days: 1).isoString == "2024-02-29")
        #expect(ServiceDate(iso: "2024-02-29")?.adding(days: 1).isoString == "2024-03-01")
        #expect(ServiceDate(iso: "2025-02-28")?.adding(days: 1).isoString == "2025-03-01")
        #expect(ServiceDate(iso: "2024-12-31")?.adding(days: 1).isoString == "2025-01-01")
        #expect(ServiceDate(iso: "2025-01-01")?.adding(days: -1).isoString == "2024-12-31")
    }

    @Test(arguments: ["2025-02-30", "2025-04-31", "2025-13-01", "2025-00-10", "2025-01-00", "2025-1-01",
                      "25-01-01", "2025/01/01", "20250101", "", "2025-01-01T00", "abcd-ef-gh", "2025-01-32"])
    func rejectsInvalidISO(text: String) {
        #expect(ServiceDate(iso: text) == nil)
    }

    @Test(arguments: ["2025013", "202501011", "2025-101", "20250230", "20251301", "2025010a", "", "20250100"])
    func rejectsInvalidGTFS(text: String) {
        #expect(ServiceDate(gtfs: text) == nil)
    }

    @Test func ordersByDay() throws {
        let a = try #require(ServiceDate(iso: "2024-12-31"))
        let b = try #require(ServiceDate(iso: "2025-01-01"))
        #expect(a < b)
        #expect(a.adding(days: 1) == b)
        #expect([b, a].sorted() == [a, b])
    }

    @Test func roundTripsEveryDayOfFourHundredYears() {
        // Walk day by day and check the civil fields advance as a calendar does.
        var date = ServiceDate(year: 1900, month: 1, day: 1)!
        var (y, m, d) = (1900, 1, 1)
        func daysIn(_ m: Int, _ y: Int) -> Int {
            switch m {
            case 2: return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28
            case 4, 6, 9, 11: return 30
            default: return 31
            }
        }
        var mismatches = 0
        for _ in 0..<(400 * 365 + 97) {
            let c = date.components
            if c.year != y || c.month != m || c.day != d { mismatches += 1 }
            if ServiceDate(gtfs: date.gtfsString) != date { mismatches += 1 }
            date = date.adding(days: 1)
            d += 1
            if d > daysIn(m, y) { d = 1; m += 1 }
            if m > 12 { m = 1; y += 1 }
        }
        #expect(mismatches == 0)
        #expect(date.isoString == "2300-01-01")
    }
}
