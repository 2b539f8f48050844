import Foundation
import OnwardCore
import Testing

@Suite("LocalTime")
struct LocalTimeTests {
    let newYork = TimeZone(identifier: "America/New_York")!

    @Test func iso8601CarriesTheOffsetInForce() {
        // 2025-11-06T12:05:00Z: EST (-05:00) in New York, UTC in London (GMT), +05:30 in Kolkata.
        let t = Instant(epochSeconds: 1_762_430_700)
        #expect(LocalTime(t, in: newYork).iso8601 == "2025-11-06T07:05:00-05:00")
        #expect(LocalTime(t, in: TimeZone(identifier: "Europe/London")!).iso8601 == "2025-11-06T12:05:00+00:00")
        #expect(LocalTime(t, in: TimeZone(identifier: "Asia/Kolkata")!).iso8601 == "2025-11-06T17:35:00+05:30")
        #expect(LocalTime(t, in: TimeZone(identifier: "America/St_Johns")!).iso8601 == "2025-11-06T08:35:00-03:30")
        #expect(LocalTime(t, in: .gmt).iso8601 == "2025-11-06T12:05:00+00:00")
        // Summer: 2025-07-01T12:00:00Z is 08:00 EDT.
        let summer = Instant(epochSeconds: 1_751_371_200)
        #expect(LocalTime(summer, in: newYork).iso8601 == "2025-07-01T08:00:00-04:00")
        #expect(summer.description == "2025-07-01T12:00:00+00:00")
    }

    @Test func iso8601IsReadWithOrWithoutFractionsOfASecond() {
        // A browser's Date.toISOString() has milliseconds; the fraction is dropped.
        #expect(Instant(iso8601: "2025-11-06T12:05:00Z")?.epochSeconds == 1_762_430_700)
        #expect(Instant(iso8601: "2025-11-06T12:05:00.987Z")?.epochSeconds == 1_762_430_700)
        #expect(Instant(iso8601: "2025-11-06T07:05:00.5-05:00")?.epochSeconds == 1_762_430_700)
        #expect(Instant(iso8601: "2025-11-06T12:05:00") == nil)
        #expect(Instant(iso8601: "yesterday") == nil)
    }

    @Test func fieldsAndDateAcrossMidnight() {
        // 2025-11-07T04:30:15Z is 23:30:15 EST on 2025-11-06.
        let t = LocalTime(Instant(epochSeconds: 1_762_489_815), in: newYork)
        #expect(t.date.isoString == "2025-11-06")
        #expect(t.hhmm == "23:30")
        #expect(t.hhmmss == "23:30:15")
        #expect(t.secondsOfDay == 23 * 3600 + 30 * 60 + 15)
        #expect(t.utcOffset == -5 * 3600)
    }

    @Test func beforeTheEpoch() {
        // 1969-12-31T23:00:00Z.
        let t = LocalTime(Instant(epochSeconds: -3600), in: .gmt)
        #expect(t.date.isoString == "1969-12-31")
        #expect(t.hhmmss == "23:00:00")
    }

    @Test func instantOnAnOrdinaryDay() throws {
        let d = try #require(ServiceDate(iso: "2025-11-06"))
        // 08:05 EST = 13:05Z = 1762434300.
        #expect(LocalTime.instant(date: d, secondsOfDay: 8 * 3600 + 300, in: newYork).epochSeconds == 1_762_434_300)
    }

    @Test func instantInsideTheSpringForwardGap() throws {
        // 2025-03-09: clocks jump from 02:00 EST (07:00Z) to 03:00 EDT. 02:30 does not exist;
        // the documented rule maps it to the instant after the gap: 02:30 read with EST = 07:30Z = 03:30 EDT.
        let d = try #require(ServiceDate(iso: "2025-03-09"))
        let gap = LocalTime.instant(date: d, secondsOfDay: 2 * 3600 + 1800, in: newYork)
        #expect(gap.epochSeconds == 1_741_505_400) // 2025-03-09T07:30:00Z
        #expect(LocalTime(gap, in: newYork).iso8601 == "2025-03-09T03:30:00-04:00")
        // Either side of the gap are unambiguous.
        #expect(LocalTime.instant(date: d, secondsOfDay: 3600 + 1800, in: newYork).epochSeconds == 1_741_501_800) // 01:30 EST = 06:30Z
        #expect(LocalTime.instant(date: d, secondsOfDay: 3 * 3600 + 1800, in: newYork).epochSeconds == 1_741_505_400) // 03:30 EDT = 07:30Z
    }

    @Test func instantInsideTheFallBackOverlapTakesTheFirst() throws {
        // 2025-11-02: 01:30 happens twice, at 05:30Z (EDT) and 06:30Z (EST). The first is documented.
        let d = try #require(ServiceDate(iso: "2025-11-02"))
        let t = LocalTime.instant(date: d, secondsOfDay: 3600 + 1800, in: newYork)
        #expect(t.epochSeconds == 1_762_061_400) // 2025-11-02T05:30:00Z
        #expect(LocalTime(t, in: newYork).iso8601 == "2025-11-02T01:30:00-04:00")
        // 02:30 is after the overlap: EST, 07:30Z.
        #expect(LocalTime.instant(date: d, secondsOfDay: 2 * 3600 + 1800, in: newYork).epochSeconds == 1_762_068_600)
        // 00:30 is before it: EDT, 04:30Z.
        #expect(LocalTime.instant(date: d, secondsOfDay: 1800, in: newYork).epochSeconds == 1_762_057_800)
    }

    @Test func instantRoundTripsThroughLocalTime() throws {
        let london = TimeZone(identifier: "Europe/London")!
        let d = try #require(ServiceDate(iso: "2025-03-30")) // London springs forward at 01:00 GMT
        for seconds in stride(from: 0, to: 86_400, by: 900) where !(3600..<7200).contains(seconds) {
            let t = LocalTime.instant(date: d, secondsOfDay: seconds, in: london)
            let back = LocalTime(t, in: london)
            #expect(back.date == d && back.secondsOfDay == seconds, "\(seconds)")
        }
    }
}
