import Foundation
import GTFS
import OnwardCore
import OnwardTesting
import Testing
import Timetable

/// GTFS times count from "noon minus 12h" of the service date in the agency's zone, which is
/// not local midnight on a day the clocks change.
///
/// Worked out by hand (and checked with Python's zoneinfo), America/New_York:
/// - 2025-03-09 (spring forward at 02:00 EST → 03:00 EDT): noon is 12:00 EDT = 16:00Z, so the
///   base is 04:00Z (23:00 EST on 03-08). 08:00:00 → 12:00Z = 08:00 EDT (as expected);
///   01:30:00 → 05:30Z = 00:30 EST (one hour earlier than the face value).
/// - 2025-11-02 (fall back at 02:00 EDT → 01:00 EST): noon is 12:00 EST = 17:00Z, base 05:00Z
///   (01:00 EDT on 11-02). 08:00:00 → 13:00Z = 08:00 EST; 01:30:00 → 06:30Z = 01:30 EST (the
///   second 01:30); 00:30:00 → 05:30Z = 01:30 EDT (the first 01:30).
/// - Ordinary days (03-08, 03-10, 11-01, 11-03): base = local midnight.
@Suite("Time zones and DST")
struct TimeZoneTests {
    static func dstFeed() throws -> Timetable {
        try InlineFeed.load(timeZone: "America/New_York", [
            "stops.txt": Feed.stops, "routes.txt": Feed.routes,
            "calendar.txt": """
                service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
                ALL,1,1,1,1,1,1,1,20250301,20251130
                """,
            "trips.txt": "route_id,service_id,trip_id\nR,ALL,T0030\nR,ALL,T0130\nR,ALL,T0800\n",
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T0030,00:30:00,00:30:00,A,1
                T0030,00:40:00,00:40:00,B,2
                T0130,01:30:00,01:30:00,A,1
                T0130,01:40:00,01:40:00,B,2
                T0800,08:00:00,08:00:00,A,1
                T0800,08:10:00,08:10:00,B,2
                """,
        ]).timetable
    }

    @Test(arguments: [
        ("2025-03-08", "T0030", "2025-03-08", "05:30"),
        ("2025-03-08", "T0130", "2025-03-08", "06:30"),
        ("2025-03-08", "T0800", "2025-03-08", "13:00"),
        ("2025-03-09", "T0030", "2025-03-09", "04:30"),
        ("2025-03-09", "T0130", "2025-03-09", "05:30"),
        ("2025-03-09", "T0800", "2025-03-09", "12:00"),
        ("2025-03-10", "T0130", "2025-03-10", "05:30"),
        ("2025-03-10", "T0800", "2025-03-10", "12:00"),
        ("2025-11-01", "T0130", "2025-11-01", "05:30"),
        ("2025-11-01", "T0800", "2025-11-01", "12:00"),
        ("2025-11-02", "T0030", "2025-11-02", "05:30"),
        ("2025-11-02", "T0130", "2025-11-02", "06:30"),
        ("2025-11-02", "T0800", "2025-11-02", "13:00"),
        ("2025-11-03", "T0130", "2025-11-03", "06:30"),
        ("2025-11-03", "T0800", "2025-11-03", "13:00"),
    ])
    func serviceTimesCountFromNoonMinusTwelveHours(serviceDate: String, trip: String, utcDate: String, utcTime: String) throws {
        let tt = try Self.dstFeed()
        let t = try #require(tt.trip(id: trip))
        let details = try tt.service(t, on: ServiceDate(iso: serviceDate)!)
        #expect(details.calls.first?.scheduledDeparture == Clock.utc(utcDate, utcTime))
        #expect(details.calls.last?.scheduledArrival == Clock.utc(utcDate, utcTime).adding(seconds: 600))
    }

    @Test func springForwardBoard() throws {
        let tt = try Self.dstFeed()
        // 2025-03-09 from 04:00Z (23:00 EST on 03-08) for 9 hours: T0030 04:30Z, T0130 05:30Z, T0800 12:00Z.
        let rows = try tt.board(at: "A", from: Clock.utc("2025-03-09", "04:00"), window: 9 * 3600)
        #expect(rows.map(\.tripID) == ["test:T0030", "test:T0130", "test:T0800"])
        #expect(rows.map(\.scheduled) == [Clock.utc("2025-03-09", "04:30"), Clock.utc("2025-03-09", "05:30"),
                                          Clock.utc("2025-03-09", "12:00")])
        #expect(rows.allSatisfy { $0.serviceDate == ServiceDate(iso: "2025-03-09") })
        // Shown on the wall clock: 23:30 EST (03-08), 00:30 EST, 08:00 EDT.
        let zone = TimeZone(identifier: "America/New_York")!
        #expect(rows.map { LocalTime($0.scheduled, in: zone).iso8601 } ==
                ["2025-03-08T23:30:00-05:00", "2025-03-09T00:30:00-05:00", "2025-03-09T08:00:00-04:00"])
    }

    @Test func fallBackBoard() throws {
        let tt = try Self.dstFeed()
        // 2025-11-02 from 04:00Z for 10 hours. 11-01's trips are all before 04:00Z except none;
        // 11-02: T0030 05:30Z, T0130 06:30Z, T0800 13:00Z.
        let rows = try tt.board(at: "A", from: Clock.utc("2025-11-02", "04:00"), window: 10 * 3600)
        #expect(rows.map(\.tripID) == ["test:T0030", "test:T0130", "test:T0800"])
        #expect(rows.map(\.scheduled) == [Clock.utc("2025-11-02", "05:30"), Clock.utc("2025-11-02", "06:30"),
                                          Clock.utc("2025-11-02", "13:00")])
        let zone = TimeZone(identifier: "America/New_York")!
        #expect(rows.map { LocalTime($0.scheduled, in: zone).iso8601 } ==
                ["2025-11-02T01:30:00-04:00", "2025-11-02T01:30:00-05:00", "2025-11-02T08:00:00-05:00"])
    }

    /// Two feeds loaded side by side, each in its own zone, with the same IDs inside.
    static func twoFeeds() throws -> Timetable {
        func files() -> [String: String] {
            [
                "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,First,0,0\nS2,Second,0.01,0\n",
                "routes.txt": "route_id,route_short_name,route_type\nR,X,3\n",
                "calendar.txt": """
                    service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
                    ALL,1,1,1,1,1,1,1,20250101,20250731
                    """,
                "trips.txt": "route_id,service_id,trip_id\nR,ALL,T1\n",
                "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,08:30:00,08:30:00,S2,2\n",
            ]
        }
        let west = InlineFeed.source(name: "west", timeZone: "America/Los_Angeles", files())
        let east = InlineFeed.source(name: "east", timeZone: "Europe/London", files())
        return try GTFSImporter.load([west, east]).timetable
    }

    @Test(arguments: [
        // 08:00 PST = 16:00Z, 08:00 PDT = 15:00Z; 08:00 GMT = 08:00Z, 08:00 BST = 07:00Z.
        ("west:S1", "2025-01-15", "16:00", "America/Los_Angeles", "west:T1"),
        ("west:S1", "2025-07-15", "15:00", "America/Los_Angeles", "west:T1"),
        ("east:S1", "2025-01-15", "08:00", "Europe/London", "east:T1"),
        ("east:S1", "2025-07-15", "07:00", "Europe/London", "east:T1"),
    ])
    func eachFeedCountsInItsOwnZone(stop: String, date: String, utcTime: String, zone: String, trip: String) throws {
        let tt = try Self.twoFeeds()
        // A whole UTC day: exactly one departure of the one trip.
        let rows = try tt.board(at: stop, from: Clock.utc(date, "00:00"), window: 86_399)
        #expect(rows.map(\.tripID) == [trip])
        #expect(rows.map(\.scheduled) == [Clock.utc(date, utcTime)])
        #expect(rows.map(\.timeZone) == [zone])
        #expect(rows.map(\.stopID) == [stop])
        #expect(rows.first?.routeID == String(stop.prefix(while: { $0 != ":" })) + ":R")
        #expect(LocalTime(try #require(rows.first).scheduled, in: TimeZone(identifier: zone)!).hhmm == "08:00")
    }

    @Test func limitBoardInAMultiZoneTimetable() throws {
        let tt = try Self.twoFeeds()
        let rows = try tt.board(at: "west:S1", from: Clock.utc("2025-01-15", "00:00"), limit: 3)
        #expect(rows.map(\.scheduled) == [Clock.utc("2025-01-15", "16:00"), Clock.utc("2025-01-16", "16:00"),
                                          Clock.utc("2025-01-17", "16:00")])
        #expect(rows.map(\.serviceDate.isoString) == ["2025-01-15", "2025-01-16", "2025-01-17"])
        #expect(tt.stop(id: "S1") == nil)
        #expect(tt.feeds.map(\.name) == ["west", "east"])
        #expect(tt.feeds.map(\.idPrefix) == ["west:", "east:"])
        let details = try tt.service(try #require(tt.trip(id: "east:T1")), on: ServiceDate(iso: "2025-07-15")!)
        #expect(details.calls.map(\.stopID) == ["east:S1", "east:S2"])
        #expect(details.calls.map(\.scheduledArrival) == [Clock.utc("2025-07-15", "07:00"), Clock.utc("2025-07-15", "07:30")])
    }
}
