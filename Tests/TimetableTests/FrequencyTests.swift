import Foundation
import GTFS
import OnwardCore
import OnwardTesting
import Testing
import Timetable

/// frequencies.txt: the trip's stop times are a template shifted to each start time.
@Suite("Frequencies")
struct FrequencyTests {
    /// HEADWAY: template 06:00 A, 06:10 B, 06:25 C; every 10 min from 07:00 to 08:00, exact_times=0.
    /// EXACT: template starting 00:00:00 — A +0, B +5, C +12 min; every 20 min 10:00–11:00 and every 15 min 17:00–17:30, exact_times=1.
    static func feed() throws -> Timetable {
        try InlineFeed.load([
            "stops.txt": Feed.stops, "routes.txt": Feed.routes, "calendar.txt": Feed.daily,
            "trips.txt": "route_id,service_id,trip_id,trip_headsign\nR,DAILY,HEADWAY,Charlie\nR,DAILY,EXACT,Charlie\n",
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                HEADWAY,06:00:00,06:00:00,A,1
                HEADWAY,06:10:00,06:10:00,B,2
                HEADWAY,06:25:00,06:25:00,C,3
                EXACT,00:00:00,00:00:00,A,1
                EXACT,00:05:00,00:05:00,B,2
                EXACT,00:12:00,00:12:00,C,3
                """,
            "frequencies.txt": """
                trip_id,start_time,end_time,headway_secs,exact_times
                HEADWAY,07:00:00,08:00:00,600,0
                EXACT,17:00:00,17:30:00,900,1
                EXACT,10:00:00,11:00:00,1200,1
                """,
        ]).timetable
    }

    @Test func headwayRunsStartStrictlyBeforeEndTime() throws {
        let tt = try Self.feed()
        // Runs start 07:00, 07:10 … 07:50; 08:00 is end_time and starts no run.
        let rows = try tt.board(at: "A", from: Clock.est("2025-01-10", "06:00"), window: 3 * 3600)
            .filter { $0.tripID == "test:HEADWAY" }
        #expect(rows.map(\.scheduled) == (0..<6).map { Clock.est("2025-01-10", "07:\($0)0") })
        #expect(rows.allSatisfy { $0.headwaySeconds == 600 && !$0.exactTimes })
        #expect(rows.map(\.startTime) == (0..<6).map { "07:\($0)0:00" })
        #expect(rows.allSatisfy { $0.serviceDate == ServiceDate(iso: "2025-01-10") })
    }

    @Test func headwayRunsAtALaterStopAreShiftedByTheTemplateOffset() throws {
        let tt = try Self.feed()
        // At B, 10 min into the template: 07:10 … 08:00, six runs.
        let rows = try tt.board(at: "B", from: Clock.est("2025-01-10", "07:00"), window: 2 * 3600)
            .filter { $0.tripID == "test:HEADWAY" }
        #expect(rows.map(\.scheduled) == [Clock.est("2025-01-10", "07:10"), Clock.est("2025-01-10", "07:20"),
                                          Clock.est("2025-01-10", "07:30"), Clock.est("2025-01-10", "07:40"),
                                          Clock.est("2025-01-10", "07:50"), Clock.est("2025-01-10", "08:00")])
        #expect(rows.last?.startTime == "07:50:00")
        // Counting over a partial window: 07:25 to 07:45 holds the runs at 07:30 and 07:40.
        let partial = try tt.board(at: "B", from: Clock.est("2025-01-10", "07:25"), window: 1200)
        #expect(partial.map(\.scheduled) == [Clock.est("2025-01-10", "07:30"), Clock.est("2025-01-10", "07:40")])
        // Arrivals at C (25 min in): 07:25 … 08:15.
        let arrivals = try tt.board(.arrivals, at: "C", from: Clock.est("2025-01-10", "07:00"), window: 2 * 3600)
            .filter { $0.tripID == "test:HEADWAY" }
        #expect(arrivals.count == 6)
        #expect(arrivals.first?.scheduled == Clock.est("2025-01-10", "07:25"))
        #expect(arrivals.last?.scheduled == Clock.est("2025-01-10", "08:15"))
        // A trip's first stop is not an arrival, even for a frequency trip.
        #expect(try tt.board(.arrivals, at: "A", from: Clock.est("2025-01-10", "00:00"), window: 86_400).isEmpty)
        // Its last stop is not a departure.
        #expect(try tt.board(at: "C", from: Clock.est("2025-01-10", "00:00"), window: 86_400).isEmpty)
    }

    @Test func limitOnAFrequencyBoard() throws {
        let tt = try Self.feed()
        let rows = try tt.board(at: "A", from: Clock.est("2025-01-10", "07:05"), limit: 3)
        #expect(rows.map(\.scheduled) == [Clock.est("2025-01-10", "07:10"), Clock.est("2025-01-10", "07:20"),
                                          Clock.est("2025-01-10", "07:30")])
    }

    @Test func exactTimesTemplateFromMidnight() throws {
        let tt = try Self.feed()
        // EXACT at B (+5 min): runs 10:00, 10:20, 10:40 then 17:00, 17:15 (17:30 is end_time) pass B at +5.
        let rows = try tt.board(at: "B", from: Clock.est("2025-01-10", "09:00"), window: 9 * 3600)
            .filter { $0.tripID == "test:EXACT" }
        #expect(rows.map(\.scheduled) == [Clock.est("2025-01-10", "10:05"), Clock.est("2025-01-10", "10:25"),
                                          Clock.est("2025-01-10", "10:45"), Clock.est("2025-01-10", "17:05"),
                                          Clock.est("2025-01-10", "17:20")])
        #expect(rows.allSatisfy { $0.exactTimes })
        #expect(rows.map(\.headwaySeconds) == [1200, 1200, 1200, 900, 900])
        #expect(rows.map(\.startTime) == ["10:00:00", "10:20:00", "10:40:00", "17:00:00", "17:15:00"])
        let arrivals = try tt.board(.arrivals, at: "C", from: Clock.est("2025-01-10", "10:00"), window: 3600)
        #expect(arrivals.map(\.scheduled) == [Clock.est("2025-01-10", "10:12"), Clock.est("2025-01-10", "10:32"),
                                              Clock.est("2025-01-10", "10:52")])
    }

    @Test func defaultBoardIsTwentyRows() throws {
        // Every 5 minutes all day: far more than 20 runs.
        let tt = try InlineFeed.load([
            "stops.txt": Feed.stops, "routes.txt": Feed.routes, "calendar.txt": Feed.daily,
            "trips.txt": "route_id,service_id,trip_id\nR,DAILY,F\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nF,00:00:00,00:00:00,A,1\nF,00:04:00,00:04:00,B,2\n",
            "frequencies.txt": "trip_id,start_time,end_time,headway_secs\nF,05:00:00,23:00:00,300\n",
        ]).timetable
        let rows = try tt.board(at: "A", from: Clock.est("2025-01-10", "12:01"))
        #expect(rows.count == 20)
        #expect(rows.first?.scheduled == Clock.est("2025-01-10", "12:05"))
        #expect(rows.last?.scheduled == Clock.est("2025-01-10", "13:40"))
        // exact_times left blank means 0.
        #expect(rows.allSatisfy { !$0.exactTimes && $0.headwaySeconds == 300 })
    }

    @Test func serviceDetailsOfARunPickedByStartTime() throws {
        let tt = try Self.feed()
        let trip = try #require(tt.trip(id: "EXACT"))
        let date = try #require(ServiceDate(iso: "2025-01-10"))
        func times(_ d: ServiceDetails) -> [Instant] { d.calls.map(\.scheduledDeparture) }

        let run = try tt.service(trip, on: date, startTime: 10 * 3600 + 20 * 60)
        #expect(run.calls.map(\.stopID) == ["test:A", "test:B", "test:C"])
        #expect(times(run) == [Clock.est("2025-01-10", "10:20"), Clock.est("2025-01-10", "10:25"), Clock.est("2025-01-10", "10:32")])
        #expect(run.calls.last?.scheduledArrival == Clock.est("2025-01-10", "10:32"))
        #expect(run.headwaySeconds == 1200)

        // Between runs: the next run (10:40).
        let next = try tt.service(trip, on: date, startTime: 10 * 3600 + 25 * 60)
        #expect(times(next).first == Clock.est("2025-01-10", "10:40"))
        // No start time: the day's first run.
        let first = try tt.service(trip, on: date)
        #expect(times(first).first == Clock.est("2025-01-10", "10:00"))
        // Past the first block: the second (every 15 min from 17:00).
        let evening = try tt.service(trip, on: date, startTime: 17 * 3600 + 5 * 60)
        #expect(times(evening) == [Clock.est("2025-01-10", "17:15"), Clock.est("2025-01-10", "17:20"), Clock.est("2025-01-10", "17:27")])
        #expect(evening.headwaySeconds == 900)
        // The exact_times=0 trip: the run starting at 07:30.
        let headway = try tt.service(try #require(tt.trip(id: "HEADWAY")), on: date, startTime: 7 * 3600 + 30 * 60)
        #expect(headway.headwaySeconds == 600)
        #expect(headway.calls.map(\.scheduledDeparture).first == Clock.est("2025-01-10", "07:30"))
    }

    @Test func frequencyRunPastMidnightBelongsToItsServiceDay() throws {
        // Runs every 30 min from 23:30 to 25:00: 23:30, 24:00, 24:30 of the service day.
        let tt = try InlineFeed.load([
            "stops.txt": Feed.stops, "routes.txt": Feed.routes,
            "calendar.txt": """
                service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
                FRI,0,0,0,0,1,0,0,20250101,20250131
                """,
            "trips.txt": "route_id,service_id,trip_id\nR,FRI,OWL\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nOWL,23:30:00,23:30:00,A,1\nOWL,23:40:00,23:40:00,B,2\n",
            "frequencies.txt": "trip_id,start_time,end_time,headway_secs,exact_times\nOWL,23:30:00,25:00:00,1800,1\n",
        ]).timetable
        // Saturday 2025-01-11 00:00 EST: Friday's runs at 00:00 and 00:30.
        let rows = try tt.board(at: "A", from: Clock.est("2025-01-11", "00:00"), window: 7200)
        #expect(rows.map(\.scheduled) == [Clock.est("2025-01-11", "00:00"), Clock.est("2025-01-11", "00:30")])
        #expect(rows.map(\.serviceDate.isoString) == ["2025-01-10", "2025-01-10"])
        #expect(rows.map(\.startTime) == ["24:00:00", "24:30:00"])
        // Sunday 00:00: Saturday has no service.
        #expect(try tt.board(at: "A", from: Clock.est("2025-01-12", "00:00"), window: 7200).isEmpty)
    }
}
