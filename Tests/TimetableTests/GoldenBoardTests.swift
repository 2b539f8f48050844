import Foundation
import GTFS
import OnwardCore
import OnwardTesting
import Testing
import Timetable

/// Boards on real feeds, compared with rows derived independently from the feeds' files.
///
/// How the expected rows were derived: a throw-away Python script (zipfile + csv + zoneinfo, not
/// committed) read agency.txt, stops.txt, calendar*.txt, trips.txt, routes.txt and stop_times.txt;
/// took the station's child stops (location_type 0/empty); kept trips whose service runs on the date
/// (calendar_dates exception 1/2 overriding calendar.txt); dropped each trip's last call (departures)
/// and calls with pickup_type=1; timed each call as the date's local noon minus 12 h plus the GTFS
/// time; headsign = stop_headsign, else trip_headsign, else the last stop's name; sorted by time then
/// trip_id. Spot checks by `unzip -p … stop_times.txt | grep '^<trip>,'`.
@Suite("Golden boards", .enabled(if: Fixtures.hasSharedData, "needs ../shared/data"))
struct GoldenBoardTests {
    @Test func caltrain22ndStreetWeekdayMorning() throws {
        let tt = try RealFeeds.caltrain.get()
        // 2023-11-07 is a Tuesday (service 72982, weekdays); PST, UTC-8. 07:00 for 60 minutes.
        // e.g. `704,7:09:00,7:09:00,70022,2,…` and `105,7:24:00,7:24:00,70021,21,…`.
        let expected = [
            GoldenRow("704", "07:09:00", "San Jose Diridon", "70022", "2023-11-07", "B7"),
            GoldenRow("404", "07:15:00", "San Jose Diridon", "70022", "2023-11-07", "L4"),
            GoldenRow("105", "07:24:00", "San Francisco", "70021", "2023-11-07", "L1"),
            GoldenRow("304", "07:30:00", "San Jose Diridon", "70022", "2023-11-07", "L3"),
            GoldenRow("108", "07:42:00", "San Jose Diridon", "70022", "2023-11-07", "L1"),
            GoldenRow("403", "07:52:00", "San Francisco", "70021", "2023-11-07", "L4"),
        ]
        let rows = try tt.board(at: "22nd_street", from: Clock.local("2023-11-07", "07:00", offsetHours: -8), window: 3600)
        #expect(rows.map { GoldenRow($0, offsetHours: -8) } == expected.canonical("caltrain-2023-09"))
        #expect(rows.allSatisfy { $0.timeZone == "America/Los_Angeles" })
    }

    @Test func caltrainSanFranciscoArrivals() throws {
        let tt = try RealFeeds.caltrain.get()
        // Arrivals (first call of each trip excluded) at station san_francisco, 2023-11-07 07:00–08:00 PST.
        let expected = [
            GoldenRow("701", "07:03:00", "San Francisco", "70011", "2023-11-07", "B7"),
            GoldenRow("105", "07:31:00", "San Francisco", "70011", "2023-11-07", "L1"),
            GoldenRow("301", "07:41:00", "San Francisco", "70011", "2023-11-07", "L3"),
            GoldenRow("403", "07:58:00", "San Francisco", "70011", "2023-11-07", "L4"),
        ]
        let rows = try tt.board(.arrivals, at: "san_francisco", from: Clock.local("2023-11-07", "07:00", offsetHours: -8), window: 3600)
        #expect(rows.map { GoldenRow($0, offsetHours: -8) } == expected.canonical("caltrain-2023-09"))
        // Christmas, Monday 2023-12-25: calendar_dates removes weekday service 72982 (trip 701's), so 701 is absent.
        let christmas = try tt.board(.arrivals, at: "san_francisco", from: Clock.local("2023-12-25", "07:00", offsetHours: -8), window: 3600)
        #expect(!christmas.contains { $0.tripID == "caltrain-2023-09:701" })
    }

    @Test func wmataMetroCenterLimitTen() throws {
        let tt = try RealFeeds.wmata.get()
        // 2026-05-01 (Friday; calendar_dates only: service 36_R added); EDT, UTC-4. From 08:00, next 10.
        // e.g. trip 9411025_20571 calls at PF_A01_1 at 08:02:00 heading "Glenmont".
        let expected = [
            GoldenRow("9587798_20571", "08:00:00", "New Carrollton", "PF_C01_C", "2026-05-01", "O"),
            GoldenRow("9588096_20571", "08:01:00", "Ashburn", "PF_C01_C", "2026-05-01", "S"),
            GoldenRow("9411025_20571", "08:02:00", "Glenmont", "PF_A01_1", "2026-05-01", "R"),
            GoldenRow("9411109_20571", "08:03:00", "Shady Grove", "PF_A01_2", "2026-05-01", "R"),
            GoldenRow("9586894_20571", "08:04:00", "Largo", "PF_C01_C", "2026-05-01", "S"),
            GoldenRow("9587772_20571", "08:05:00", "Vienna", "PF_C01_C", "2026-05-01", "O"),
            GoldenRow("9586860_20571", "08:06:00", "Largo", "PF_C01_C", "2026-05-01", "B"),
            GoldenRow("9411029_20571", "08:07:00", "Glenmont", "PF_A01_1", "2026-05-01", "R"),
            GoldenRow("9586934_20571", "08:08:00", "Franconia-Springfield", "PF_C01_C", "2026-05-01", "B"),
            GoldenRow("9411176_20571", "08:09:00", "Shady Grove", "PF_A01_2", "2026-05-01", "R"),
        ]
        let rows = try tt.board(at: "STN_A01_C01", from: Clock.local("2026-05-01", "08:00", offsetHours: -4), limit: 10)
        #expect(rows.map { GoldenRow($0, offsetHours: -4) } == expected.canonical("wmata-metrorail-2026-04"))
        #expect(rows.allSatisfy { $0.timeZone == "America/New_York" })
    }

    @Test func halifaxBridgeTerminalTenMinutes() throws {
        let tt = try RealFeeds.halifax.get()
        // 2025-11-06 (Thursday; service 214.0.3 weekdays); AST, UTC-4 (DST ended 11-02). 08:00–08:10 inclusive.
        // Station 10001 "Bridge Terminal", bays 7601–7616. e.g. `3789116, 8:00:00,…,7614,…` (times have a leading space).
        let expected = [
            GoldenRow("3789116", "08:00:00", "3 BURNSIDE VIA BRIDGE TERMINAL", "7614", "2025-11-06", "3"),
            GoldenRow("3791444", "08:01:00", "WRIGHTS COVE VIA WINDMILL", "7616", "2025-11-06", "51B"),
            GoldenRow("3789055", "08:02:00", "3 LACEWOOD TERMINAL VIA MUMFORD TERMINAL", "7606", "2025-11-06", "3"),
            GoldenRow("3793678", "08:02:00", "6A WOODSIDE VIA PLEASANT", "7604", "2025-11-06", "6A"),
            GoldenRow("3786163", "08:03:00", "10C DALHOUSIE VIA SPRING GARDEN", "7611", "2025-11-06", "10C"),
            GoldenRow("3785419", "08:05:00", "1 SPRING GARDEN TO MUMFORD TERM", "7605", "2025-11-06", "1"),
            GoldenRow("3786117", "08:05:00", "10C WESTPHAL VIA MICMAC", "7613", "2025-11-06", "10C"),
            GoldenRow("3789828", "08:05:00", "320 AIRPORT VIA FALL RIVER", "7610", "2025-11-06", "320"),
            GoldenRow("3792227", "08:06:00", "WRIGHTS COVE VIA DARTMOUTH CROSSING", "7608", "2025-11-06", "56"),
            GoldenRow("3786486", "08:09:00", "165 EXPRESS TO UNIVERSITY AVE", "7602", "2025-11-06", "165"),
            GoldenRow("3792865", "08:09:00", "62 GASTON VIA MANOR PARK", "7601", "2025-11-06", "62"),
            GoldenRow("3785847", "08:10:00", "10B DALHOUSIE VIA SPRING GARDEN", "7611", "2025-11-06", "10B"),
            GoldenRow("3791041", "08:10:00", "5 PORTLAND HILLS TERMINAL", "7603", "2025-11-06", "5"),
            GoldenRow("3793874", "08:10:00", "6B EASTERN PASSAGE VIA WOODSIDE", "7604", "2025-11-06", "6B"),
            GoldenRow("3796561", "08:10:00", "87 SACKVILLE TERMINAL", "7615", "2025-11-06", "87"),
        ]
        let rows = try tt.board(at: "10001", from: Clock.local("2025-11-06", "08:00", offsetHours: -4), window: 600)
        #expect(GoldenRow.sorted(rows.map { GoldenRow($0, offsetHours: -4) }) == expected.canonical("halifax-transit-2025-08"))
        #expect(rows.allSatisfy { $0.timeZone == "America/Halifax" })
    }
}
