import Foundation
import OnwardCore
import Testing

/// The delay history's values: the hour of the week on the stop's clock (daylight-saving days too), percentiles from
/// minute histograms, and what "usually" says.
@Suite("delay history values")
struct DelayHistoryValueTests {
    @Test func theHourOfTheWeekIsTheStopsClocksAcrossTheEndOfSummerTime() throws {
        let halifax = try #require(TimeZone(identifier: "America/Halifax"))
        // Sunday 2025-11-02: 02:00 ADT (05:00 UTC) becomes 01:00 AST; 04:30 UTC is 01:30 ADT, 05:30 UTC is 01:30 AST.
        let before = Instant(epochSeconds: 1_762_057_800), after = before.adding(seconds: 3600)
        #expect(HourOfWeek(before, in: halifax) == HourOfWeek(weekday: 6, hour: 1))
        #expect(HourOfWeek(after, in: halifax) == HourOfWeek(weekday: 6, hour: 1))
        #expect(HourOfWeek(after.adding(seconds: 1800), in: halifax) == HourOfWeek(weekday: 6, hour: 2))
        // Every quarter hour of that day and the next, from the offset alone, as from the zone.
        for q in 0..<(2 * 96) {
            let t = Instant(epochSeconds: 1_762_041_600 + Int64(q * 900))
            #expect(HourOfWeek(t, utcOffset: halifax.secondsFromGMT(for: t.date)) == HourOfWeek(t, in: halifax), "\(t)")
        }
        // Sunday 23:00 then Monday 00:00 (a service day past midnight is counted on the clock's day).
        let jakarta = try #require(TimeZone(identifier: "Asia/Jakarta"))
        let sundayNight = Instant(epochSeconds: 1_795_366_800 - 3600)   // 2026-11-22 23:00 +07:00
        #expect(HourOfWeek(sundayNight, in: jakarta) == HourOfWeek(weekday: 6, hour: 23))
        #expect(HourOfWeek(sundayNight.adding(seconds: 3600), in: jakarta) == HourOfWeek(weekday: 0, hour: 0))
        #expect(HourOfWeek(weekday: 5, hour: 8).dayKind == .saturday && HourOfWeek(weekday: 4, hour: 8).dayKind == .weekday)
    }

    @Test func percentilesComeFromWholeMinutesAndSurviveTheirTextColumn() throws {
        var h = DelayHistogram()
        for s in [-100, 0, 29, 31, 150, 170, 200, 400, 2_000, 99_999] { h.add(seconds: s) }
        // Minutes: -2, 0, 0, 1, 3, 3, 3, 7, 33, 180 (clamped).
        #expect(h.total == 10)
        #expect(h.percentile(0.2) == 0 && h.percentile(0.5) == 3 && h.percentile(0.8) == 7 && h.percentile(1) == 180)
        #expect(h.encoded == "-2:1,0:2,1:1,3:3,7:1,33:1,180:1")
        #expect(DelayHistogram(encoded: h.encoded) == h)
        #expect(DelayHistogram(encoded: "3:x") == nil && DelayHistogram(encoded: "999:1") == nil)
        #expect(DelayHistogram().percentile(0.5) == nil)
    }

    @Test func usuallySaysOnTimeLateByARangeUpToOrEarly() {
        func usual(_ low: Int, _ high: Int, cancelled: Int = 0) -> UsualDelay {
            UsualDelay(dayKind: .weekday, hour: 8, observed: 24, cancelled: cancelled, days: 4, departureLow: low, departureMedian: low,
                       departureHigh: high, arrivalMedian: low, arrivalHigh: high)
        }
        #expect(usual(0, 1).departureBand == .onTime)
        #expect(usual(3, 6).departureBand == .late(from: 3, to: 6))
        #expect(usual(0, 5).departureBand == .upTo(5))
        #expect(usual(-4, -2).departureBand == .early(4))
        #expect(usual(0, 1, cancelled: 2).oneCancelledIn == 13 && usual(0, 1).oneCancelledIn == nil)
        #expect(usual(3, 6).arrivalAllowance(0.5) == 180 && usual(3, 6).arrivalAllowance(0.8) == 360 && usual(-4, -2).arrivalAllowance(0.8) == 0)
        #expect(usual(3, 6).isEnough)
    }
}
