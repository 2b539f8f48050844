import Foundation
import GTFS
import OnwardCore
import OnwardTesting
import Testing
import Timetable

/// Service days run past midnight: a time of 24:30:00 belongs to the service date before the clock date.
@Suite("Service days")
struct ServiceDaySemanticsTests {
    /// MON runs on Mondays only in January 2025 (6, 13, 20, 27); its one trip leaves A at 24:30:00.
    static func mondayNightFeed() throws -> Timetable {
        try InlineFeed.load([
            "stops.txt": Feed.stops, "routes.txt": Feed.routes,
            "calendar.txt": """
                service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
                MON,1,0,0,0,0,0,0,20250101,20250131
                """,
            "trips.txt": """
                route_id,service_id,trip_id,trip_headsign
                R,MON,LATE,Bravo
                """,
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                LATE,24:30:00,24:30:00,A,1
                LATE,24:50:00,24:50:00,B,2
                """,
        ]).timetable
    }

    @Test func afterMidnightDepartureBelongsToThePreviousServiceDate() throws {
        let tt = try Self.mondayNightFeed()
        // Tuesday 2025-01-07 00:15 EST: Monday's 24:30 is Tuesday 00:30.
        let rows = try tt.board(at: "A", from: Clock.est("2025-01-07", "00:15"), window: 3600)
        #expect(rows.map(\.tripID) == ["test:LATE"])
        let row = try #require(rows.first)
        #expect(row.serviceDate == ServiceDate(iso: "2025-01-06"))
        #expect(row.scheduled == Clock.est("2025-01-07", "00:30"))
        #expect(row.headsign == "Bravo")
        #expect(row.timeZone == "America/New_York")

        let arrivals = try tt.board(.arrivals, at: "B", from: Clock.est("2025-01-07", "00:00"), window: 3600)
        #expect(arrivals.map(\.scheduled) == [Clock.est("2025-01-07", "00:50")])
        #expect(arrivals.map(\.serviceDate) == [ServiceDate(iso: "2025-01-06")])
    }

    @Test func noAfterMidnightDepartureFromADayWithoutService() throws {
        let tt = try Self.mondayNightFeed()
        // Monday 2025-01-13 00:15: Sunday 01-12 has no service, so nothing until Tuesday 00:30.
        #expect(try tt.board(at: "A", from: Clock.est("2025-01-13", "00:15"), window: 3600).isEmpty)
        // Monday 2025-01-06 00:15: likewise (and the calendar's Sunday 01-05 is not a service day).
        #expect(try tt.board(at: "A", from: Clock.est("2025-01-06", "00:15"), window: 3600).isEmpty)
        // Next two rows with a limit: the Monday services of 01-13 and 01-20, each shown on the Tuesday clock date.
        let next = try tt.board(at: "A", from: Clock.est("2025-01-13", "00:15"), limit: 2)
        #expect(next.map(\.scheduled) == [Clock.est("2025-01-14", "00:30"), Clock.est("2025-01-21", "00:30")])
        #expect(next.map(\.serviceDate.isoString) == ["2025-01-13", "2025-01-20"])
    }

    @Test func windowCrossingMidnightTakesThreeServiceDays() throws {
        // Every trip runs daily. From 2025-01-15 23:40 for 60 minutes (to 01-16 00:40):
        //   TWODAY 47:45:00 of 01-14 = 01-15 23:45   (previous service day)
        //   EVENING 23:50:00 of 01-15                (current)
        //   NIGHT 24:10:00 of 01-15 = 01-16 00:10    (current, after midnight)
        //   EARLY 00:20:00 of 01-16                  (next)
        // EARLY of 01-15 (00:20) and NIGHT of 01-14 (01-15 00:10) are before the window.
        let tt = try InlineFeed.load([
            "stops.txt": Feed.stops, "routes.txt": Feed.routes, "calendar.txt": Feed.daily,
            "trips.txt": """
                route_id,service_id,trip_id
                R,DAILY,TWODAY
                R,DAILY,EVENING
                R,DAILY,NIGHT
                R,DAILY,EARLY
                """,
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                TWODAY,47:45:00,47:45:00,A,1
                TWODAY,47:55:00,47:55:00,B,2
                EVENING,23:50:00,23:50:00,A,1
                EVENING,23:59:00,23:59:00,B,2
                NIGHT,24:10:00,24:10:00,A,1
                NIGHT,24:20:00,24:20:00,B,2
                EARLY,00:20:00,00:20:00,A,1
                EARLY,00:30:00,00:30:00,B,2
                """,
        ]).timetable
        let rows = try tt.board(at: "A", from: Clock.est("2025-01-15", "23:40"), window: 3600)
        #expect(rows.map(\.tripID) == ["test:TWODAY", "test:EVENING", "test:NIGHT", "test:EARLY"])
        #expect(rows.map(\.scheduled) == [Clock.est("2025-01-15", "23:45"), Clock.est("2025-01-15", "23:50"),
                                          Clock.est("2025-01-16", "00:10"), Clock.est("2025-01-16", "00:20")])
        #expect(rows.map(\.serviceDate.isoString) == ["2025-01-14", "2025-01-15", "2025-01-15", "2025-01-16"])
        // The headsign falls back to the last stop's name when the trip has none.
        #expect(rows.allSatisfy { $0.headsign == "Bravo" })
        // A limit gives the first rows of the same sequence.
        let limited = try tt.board(at: "A", from: Clock.est("2025-01-15", "23:40"), limit: 3)
        #expect(limited.map(\.tripID) == ["test:TWODAY", "test:EVENING", "test:NIGHT"])
    }

    @Test func windowBoundsAreInclusiveOfTheStart() throws {
        let tt = try InlineFeed.load([
            "stops.txt": Feed.stops, "routes.txt": Feed.routes, "calendar.txt": Feed.daily,
            "trips.txt": "route_id,service_id,trip_id\nR,DAILY,T1\nR,DAILY,T2\n",
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T1,08:00:00,08:00:00,A,1
                T1,08:10:00,08:10:00,B,2
                T2,08:30:00,08:30:00,A,1
                T2,08:40:00,08:40:00,B,2
                """,
        ]).timetable
        // A departure exactly at `from` is shown; one after the window is not.
        let rows = try tt.board(at: "A", from: Clock.est("2025-01-10", "08:00"), window: 1200)
        #expect(rows.map(\.tripID) == ["test:T1"])
        let later = try tt.board(at: "A", from: Clock.est("2025-01-10", "08:00:01"), window: 1800)
        #expect(later.map(\.tripID) == ["test:T2"])
        // Outside the calendar: nothing.
        #expect(try tt.board(at: "A", from: Clock.est("2025-02-10", "07:00"), window: 7200).isEmpty)
        // A limit without a window runs on into the following days.
        let next = try tt.board(at: "A", from: Clock.est("2025-01-20", "00:00"), limit: 5)
        #expect(next.map(\.tripID) == ["test:T1", "test:T2", "test:T1", "test:T2", "test:T1"])
        #expect(next.map(\.scheduled) == [Clock.est("2025-01-20", "08:00"), Clock.est("2025-01-20", "08:30"),
                                          Clock.est("2025-01-21", "08:00"), Clock.est("2025-01-21", "08:30"),
                                          Clock.est("2025-01-22", "08:00")])
    }
}

@Suite("Calendars")
struct CalendarTests {
    static let feed: [String: String] = [
        "stops.txt": Feed.stops, "routes.txt": Feed.routes,
        "calendar.txt": """
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            WK,1,1,1,1,1,0,0,20250106,20250131
            """,
        "calendar_dates.txt": """
            service_id,date,exception_type
            WK,20250115,2
            WK,20250118,1
            """,
        "trips.txt": "route_id,service_id,trip_id\nR,WK,W1\n",
        "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            W1,08:15:00,08:15:00,A,1
            W1,08:25:00,08:25:00,B,2
            """,
    ]

    @Test(arguments: [
        ("2025-01-14", true),  // Tuesday: weekly pattern
        ("2025-01-15", false), // Wednesday removed by exception_type 2
        ("2025-01-16", true),  // Thursday
        ("2025-01-18", true),  // Saturday added by exception_type 1
        ("2025-01-19", false), // Sunday: not in the pattern
        ("2025-01-11", false), // Saturday not added
        ("2025-01-03", false), // Friday before start_date
    ])
    func exceptionsOverrideTheWeeklyPattern(date: String, runs: Bool) throws {
        let tt = try InlineFeed.load(Self.feed).timetable
        let rows = try tt.board(at: "A", from: Clock.est(date, "08:00"), window: 3600)
        #expect(rows.map(\.tripID) == (runs ? ["test:W1"] : []))
        if runs { #expect(rows.first?.scheduled == Clock.est(date, "08:15")) }
        let trip = try #require(tt.trip(id: "W1"))
        #expect(tt.runs(trip, on: ServiceDate(iso: date)!) == runs)
    }

    @Test func serviceDatesListsTheRunningDays() throws {
        let tt = try InlineFeed.load(Self.feed).timetable
        let trip = try #require(tt.trip(id: "W1"))
        // Weekdays 01-06…01-31 (20 days) minus 01-15 plus 01-18 = 20.
        let dates = tt.serviceDates(of: trip).map(\.isoString)
        #expect(dates.count == 20)
        #expect(!dates.contains("2025-01-15"))
        #expect(dates.contains("2025-01-18"))
        #expect(dates.first == "2025-01-06")
        #expect(dates.last == "2025-01-31")
    }

    @Test func serviceOnARemovedDateIsNotRunning() throws {
        let tt = try InlineFeed.load(Self.feed).timetable
        let trip = try #require(tt.trip(id: "W1"))
        #expect(throws: ServiceLookupError.notRunning(trip: "test:W1", date: ServiceDate(iso: "2025-01-15")!,
                                                      runsOn: ["2025-01-16", "2025-01-17", "2025-01-18"].map { ServiceDate(iso: $0)! })) {
            try tt.service(trip, on: ServiceDate(iso: "2025-01-15")!)
        }
        let details = try tt.service(trip, on: ServiceDate(iso: "2025-01-18")!)
        #expect(details.calls.map(\.scheduledDeparture) == [Clock.est("2025-01-18", "08:15"), Clock.est("2025-01-18", "08:25")])
    }

    @Test func feedWithOnlyCalendarDates() throws {
        let tt = try InlineFeed.load([
            "stops.txt": Feed.stops, "routes.txt": Feed.routes,
            "calendar_dates.txt": """
                service_id,date,exception_type
                X,20250110,1
                X,20250112,1
                """,
            "trips.txt": "route_id,service_id,trip_id\nR,X,X1\n",
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                X1,09:00:00,09:00:00,A,1
                X1,09:30:00,09:30:00,B,2
                """,
        ]).timetable
        #expect(tt.calendarRange == ServiceDate(iso: "2025-01-10")!...ServiceDate(iso: "2025-01-12")!)
        #expect(try tt.board(at: "A", from: Clock.est("2025-01-10", "08:00"), window: 7200).map(\.tripID) == ["test:X1"])
        #expect(try tt.board(at: "A", from: Clock.est("2025-01-11", "08:00"), window: 7200).isEmpty)
        #expect(try tt.board(at: "A", from: Clock.est("2025-01-12", "08:00"), window: 7200).map(\.tripID) == ["test:X1"])
        // Next two from the 10th after the departure: the 12th, then nothing more.
        let next = try tt.board(at: "A", from: Clock.est("2025-01-10", "09:01"), limit: 2)
        #expect(next.map(\.scheduled) == [Clock.est("2025-01-12", "09:00")])
    }
}
