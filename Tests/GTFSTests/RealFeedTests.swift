import Foundation
import GTFS
import OnwardCore
import OnwardTesting
import Testing
import Timetable

/// Row counts of each real feed, as listed in shared/data/README.md.
struct RealFeed: Sendable, CustomTestStringConvertible {
    var name: String
    var stops: Int
    var routes: Int
    var trips: Int
    var stopTimes: Int
    var calendar: Int?
    var calendarDates: Int?

    var testDescription: String { name }

    static let all: [RealFeed] = [
        RealFeed(name: "bart-2019-02", stops: 48, routes: 8, trips: 2_641, stopTimes: 32_185, calendar: 3, calendarDates: 12),
        RealFeed(name: "caltrain-2023-09", stops: 109, routes: 9, trips: 176, stopTimes: 3_498, calendar: 2, calendarDates: 20),
        RealFeed(name: "cdmx-mexico-city-2018", stops: 6_021, routes: 145, trips: 1_741, stopTimes: 70_714, calendar: 99, calendarDates: nil),
        RealFeed(name: "halifax-transit-2025-08", stops: 2_386, routes: 80, trips: 9_472, stopTimes: 328_499, calendar: 10, calendarDates: 72),
        RealFeed(name: "mrt-jakarta-ns-2026", stops: 128, routes: 1, trips: 504, stopTimes: 6_528, calendar: 2, calendarDates: nil),
        RealFeed(name: "trimet-streetcar-2routes-2021-10", stops: 103, routes: 2, trips: 2_341, stopTimes: 43_813, calendar: 18, calendarDates: 168),
        RealFeed(name: "wmata-metrorail-2026-04", stops: 2_175, routes: 7, trips: 16_514, stopTimes: 352_668, calendar: nil, calendarDates: 82),
    ]
}

@Suite("Real feeds", .enabled(if: Fixtures.hasSharedData, "needs the real feeds in ../shared/data/gtfs"))
struct RealFeedTests {
    /// Each feed is loaded once, here; everything about it is checked on that one load.
    @Test(arguments: RealFeed.all)
    func importsWithTheDocumentedRowCounts(feed: RealFeed) throws {
        let url = Fixtures.gtfs(feed.name)
        try #require(FileManager.default.fileExists(atPath: url.path), "missing \(url.path)")
        let result = try GTFSImporter.load(paths: [url])
        let tt = result.timetable
        #expect(result.rowCounts["stops.txt"] == feed.stops)
        #expect(result.rowCounts["routes.txt"] == feed.routes)
        #expect(result.rowCounts["trips.txt"] == feed.trips)
        #expect(result.rowCounts["stop_times.txt"] == feed.stopTimes)
        #expect(result.rowCounts["calendar.txt"] == feed.calendar)
        #expect(result.rowCounts["calendar_dates.txt"] == feed.calendarDates)
        #expect(tt.stopCount == feed.stops)
        #expect(tt.tripCount == feed.trips)
        // These feeds are clean: no trip is skipped, so every stop time is kept.
        #expect(result.notices.isEmpty, "\(NoticeSummary(result.notices).groups.map { "\($0.kind): \($0.count)" })")
        #expect(tt.stopTimeCount == feed.stopTimes)
    }

    @Test func caltrainTrip501() throws {
        let result = try GTFSImporter.load([try ZipGTFSSource(url: Fixtures.gtfs("caltrain-2023-09"))])
        let tt = result.timetable
        // The feed writes single-digit hours ("5:00:00") and ends agency.txt without a newline.
        #expect(result.rowCounts["agency.txt"] == 1)
        #expect(result.rowCounts["transfers.txt"] == 10)
        let wednesday = ServiceDate(iso: "2023-11-08")!
        let pacific = TimeZone(identifier: "America/Los_Angeles")!
        let got = try calls(tt, "501", on: wednesday, zone: pacific)
        #expect(got.count == 13)
        #expect(got.first == Call(stop: "caltrain-2023-09:70271", sequence: 1, arrival: "05:00:00", departure: "05:00:00"))
        #expect(got.last == Call(stop: "caltrain-2023-09:70011", sequence: 13, arrival: "06:20:00", departure: "06:20:00"))
        #expect(got.map(\.sequence) == Array(1...13))
        let trip = try #require(tt.trip(id: "501"))
        #expect(tt.tripTimeZoneIdentifier(trip) == "America/Los_Angeles")
        #expect(!tt.runs(trip, on: ServiceDate(iso: "2023-11-11")!)) // a Saturday
    }
}
