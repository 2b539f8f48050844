import CTABusTracker
import OnwardCore
import Testing

/// Bus tracker times are Chicago wall-clock readings without an offset; these pin the
/// two days a year where that is ambiguous or impossible.
@Suite struct CTATimeTests {
    /// `yyyy-MM-ddTHH:MM:SSZ` as epoch seconds, to state expectations in UTC.
    func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int = 0) -> Instant {
        let day = ServiceDate(year: y, month: mo, day: d)!
        return Instant(epochSeconds: Int64(day.dayNumber) * 86_400 + Int64(h * 3600 + mi * 60 + s))
    }

    @Test func ordinaryTimesInWinterAndSummer() {
        // CST is UTC-6, CDT is UTC-5.
        #expect(CTATime.instant("20150214 12:25") == utc(2015, 2, 14, 18, 25))
        #expect(CTATime.instant("20180404 20:27") == utc(2018, 4, 5, 1, 27))
        #expect(CTATime.instant("20150214 11:31:13") == utc(2015, 2, 14, 17, 31, 13))
    }

    @Test func theRepeatedHourIsCDTUnlessTheReferenceSaysOtherwise() {
        // 2019-11-03 01:30 happens twice: 06:30 UTC (CDT) and 07:30 UTC (CST).
        #expect(CTATime.candidates(CTATime.reading("20191103 01:30")!) == [utc(2019, 11, 3, 6, 30), utc(2019, 11, 3, 7, 30)])
        #expect(CTATime.instant("20191103 01:30") == utc(2019, 11, 3, 6, 30))
        // A prediction of 01:05 made at 01:58 CDT is seven minutes later, after the change: 01:05 CST.
        let madeAt = CTATime.instant("20191103 01:58")!
        #expect(madeAt == utc(2019, 11, 3, 6, 58))
        #expect(CTATime.instant("20191103 01:05", near: madeAt) == utc(2019, 11, 3, 7, 5))
        // A feed stamped in the second 01:50 (now 07:51 UTC) puts 01:58 in CST too.
        let secondPass = CTATime.instant("20191103 01:50", near: utc(2019, 11, 3, 7, 51))!
        #expect(secondPass == utc(2019, 11, 3, 7, 50))
        #expect(CTATime.instant("20191103 01:58", near: secondPass) == utc(2019, 11, 3, 7, 58))
        // In CDT's last minutes, a prediction of 01:40 stays CDT.
        #expect(CTATime.instant("20191103 01:40", near: utc(2019, 11, 3, 6, 20)) == utc(2019, 11, 3, 6, 40))
    }

    @Test func theSkippedHourDoesNotExist() {
        // 2019-03-10 02:30 never shows on a Chicago clock: read as 03:30 CDT (08:30 UTC).
        #expect(CTATime.candidates(CTATime.reading("20190310 02:30")!).isEmpty)
        #expect(CTATime.instant("20190310 02:30") == utc(2019, 3, 10, 8, 30))
        #expect(CTATime.instant("20190310 01:59") == utc(2019, 3, 10, 7, 59))
        #expect(CTATime.instant("20190310 03:00") == utc(2019, 3, 10, 8, 0))
    }

    @Test func serviceDatesAreChicagoDates() {
        // 01:27 UTC on 5 April is still 4 April in Chicago.
        #expect(CTATime.serviceDate(of: utc(2018, 4, 5, 1, 27)) == ServiceDate(year: 2018, month: 4, day: 4))
        #expect(CTATime.nextMidnight(after: utc(2018, 4, 5, 1, 27)) == utc(2018, 4, 5, 5, 0))
    }

    @Test(arguments: ["", "2015021412:25", "20150214 1225", "20150214 24:00", "20150230 10:00", "20150214 12:25:61",
                      "20150214T12:25", "abcdefgh 12:25"])
    func malformedTimesAreRejected(_ text: String) {
        #expect(CTATime.instant(text) == nil)
    }
}
