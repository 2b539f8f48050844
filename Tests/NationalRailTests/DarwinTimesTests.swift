import Foundation
import NationalRail
import OnwardCore
import Testing

/// Darwin's `HH:MM` readings placed on the day that puts them nearest to the
/// reference, across midnight and on both clock-change days.
@Suite struct DarwinTimesTests {
    func resolve(_ hhmm: String, near iso: String) -> Instant? {
        var clock = DarwinClock()
        return clock.resolve(hhmm, near: DarwinFixtures.utc(iso))
    }

    @Test func readsClockReadings() {
        #expect(DarwinClock.minutes("08:08") == 488)
        #expect(DarwinClock.minutes("0:05") == 5)
        #expect(DarwinClock.minutes(" 23:59 ") == 1439)
        #expect(DarwinClock.minutes("On time") == nil)
        #expect(DarwinClock.minutes("24:00") == nil)
        #expect(DarwinClock.minutes("12:60") == nil)
        #expect(DarwinClock.minutes("1234") == nil)
        #expect(DarwinClock.minutes("") == nil)
    }

    @Test func sameDay() {
        #expect(resolve("08:08", near: "2019-12-17T08:16:54Z") == DarwinFixtures.utc("2019-12-17T08:08:00Z"))
        // Summer: 16:42 BST is 15:42 UTC.
        #expect(resolve("16:42", near: "2019-07-01T15:30:00Z") == DarwinFixtures.utc("2019-07-01T15:42:00Z"))
    }

    @Test func departureAfterMidnightIsTomorrow() {
        // Generated at 23:50 GMT: a 00:10 departure is the next day's.
        #expect(resolve("00:10", near: "2019-12-12T23:50:00Z") == DarwinFixtures.utc("2019-12-13T00:10:00Z"))
        // In summer, 23:50 BST is 22:50 UTC; 00:10 BST tomorrow is 23:10 UTC today.
        #expect(resolve("00:10", near: "2019-07-01T22:50:00Z") == DarwinFixtures.utc("2019-07-01T23:10:00Z"))
    }

    @Test func arrivalBeforeMidnightIsYesterday() {
        // Generated at 00:05: a 23:55 arrival was the previous day's.
        #expect(resolve("23:55", near: "2019-12-13T00:05:00Z") == DarwinFixtures.utc("2019-12-12T23:55:00Z"))
        // 00:05 BST on 2 July is 23:05 UTC on 1 July; 23:55 BST on 1 July is 22:55 UTC.
        #expect(resolve("23:55", near: "2019-07-01T23:05:00Z") == DarwinFixtures.utc("2019-07-01T22:55:00Z"))
    }

    @Test func clocksGoBack2019() {
        // 27 Oct 2019: 02:00 BST became 01:00 GMT, so 01:00–01:59 happened twice.
        // At 01:30 BST (00:30 UTC), 01:45 is the first 01:45, fifteen minutes on.
        #expect(resolve("01:45", near: "2019-10-27T00:30:00Z") == DarwinFixtures.utc("2019-10-27T00:45:00Z"))
        // At 01:40 GMT (the second time round), 01:30 is the second 01:30, ten minutes ago.
        #expect(resolve("01:30", near: "2019-10-27T01:40:00Z") == DarwinFixtures.utc("2019-10-27T01:30:00Z"))
        #expect(resolve("02:10", near: "2019-10-27T01:40:00Z") == DarwinFixtures.utc("2019-10-27T02:10:00Z"))
        // 00:50 BST on the 27th (23:50 UTC on the 26th): a 23:55 arrival was Saturday's, in BST.
        #expect(resolve("23:55", near: "2019-10-26T23:50:00Z") == DarwinFixtures.utc("2019-10-26T22:55:00Z"))
        // Late that Sunday evening (GMT), 00:10 is Monday's.
        #expect(resolve("00:10", near: "2019-10-27T23:50:00Z") == DarwinFixtures.utc("2019-10-28T00:10:00Z"))
        // A board at 00:55 BST (23:55 UTC on the 26th): 01:20 is the first 01:20 (BST), 25 minutes on.
        #expect(resolve("01:20", near: "2019-10-26T23:55:00Z") == DarwinFixtures.utc("2019-10-27T00:20:00Z"))
    }

    @Test func clocksGoForward2020() {
        // 29 Mar 2020: 01:00 GMT became 02:00 BST; 01:00–01:59 did not happen.
        #expect(resolve("00:55", near: "2020-03-29T00:50:00Z") == DarwinFixtures.utc("2020-03-29T00:55:00Z"))
        #expect(resolve("02:05", near: "2020-03-29T00:50:00Z") == DarwinFixtures.utc("2020-03-29T01:05:00Z"))
        // Saturday 23:55 GMT: 00:10 is Sunday's, still GMT.
        #expect(resolve("00:10", near: "2020-03-28T23:55:00Z") == DarwinFixtures.utc("2020-03-29T00:10:00Z"))
        // A reading inside the gap lands just after it (01:30 → 02:30 BST), as LocalTime does.
        #expect(resolve("01:30", near: "2020-03-29T00:50:00Z") == DarwinFixtures.utc("2020-03-29T01:30:00Z"))
        // Sunday evening BST: 23:30 BST is 22:30 UTC.
        #expect(resolve("23:30", near: "2020-03-29T22:00:00Z") == DarwinFixtures.utc("2020-03-29T22:30:00Z"))
    }

    @Test func estimatesAndActuals() throws {
        let ref = DarwinFixtures.utc("2019-12-12T23:50:00Z")
        func event(_ scheduled: String?, _ estimate: String?, _ actual: String?, cancelled: Bool = false) -> DarwinEvent? {
            var clock = DarwinClock()
            return clock.event(scheduled: scheduled, estimate: estimate, actual: actual, cancelled: cancelled, near: ref)
        }
        // Late across midnight: expected after scheduled, not 24 hours before.
        let late = try #require(event("23:58", "00:05", nil))
        #expect(late.scheduled == DarwinFixtures.utc("2019-12-12T23:58:00Z"))
        #expect(late.expected == DarwinFixtures.utc("2019-12-13T00:05:00Z"))
        #expect(late.status == .late && late.delaySeconds == 420)

        let onTime = try #require(event("23:58", "On time", nil))
        #expect(onTime.status == .onTime && onTime.expected == onTime.scheduled && onTime.delaySeconds == 0)

        let early = try #require(event("23:58", "23:56", nil))
        #expect(early.status == .early && early.delaySeconds == -120)

        let delayed = try #require(event("23:58", "Delayed", nil))
        #expect(delayed.status == .delayed && delayed.expected == nil && delayed.delaySeconds == nil)

        let cancelled = try #require(event("23:58", "Cancelled", nil))
        #expect(cancelled.status == .cancelled && cancelled.expected == nil)

        let noReport = try #require(event("23:58", "No report", nil))
        #expect(noReport.status == .noLiveData && noReport.expected == nil)

        let departed = try #require(event("23:40", nil, "23:43"))
        #expect(departed.status == .departed && departed.isActual && departed.delaySeconds == 180)
        #expect(departed.expected == DarwinFixtures.utc("2019-12-12T23:43:00Z"))

        let departedOnTime = try #require(event("23:40", nil, "On time"))
        #expect(departedOnTime.status == .departed && departedOnTime.expected == departedOnTime.scheduled)

        let passedNoReport = try #require(event("23:40", nil, "No report"))
        #expect(passedNoReport.status == .departed && passedNoReport.expected == nil)

        let flagged = try #require(event("23:58", "00:05", nil, cancelled: true))
        #expect(flagged.status == .cancelled && flagged.expected == nil && flagged.delaySeconds == nil)

        #expect(event(nil, "On time", nil) == nil)
    }

    @Test func londonDates() {
        let clock = DarwinClock()
        // 23:30 UTC on 1 July is 00:30 BST on 2 July.
        #expect(clock.date(of: DarwinFixtures.utc("2019-07-01T23:30:00Z")) == ServiceDate(year: 2019, month: 7, day: 2))
        #expect(clock.date(of: DarwinFixtures.utc("2019-12-01T23:30:00Z")) == ServiceDate(year: 2019, month: 12, day: 1))
    }
}
