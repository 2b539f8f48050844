import Foundation
import GTFS
import OnwardCore
import OnwardTesting
import Testing
import Timetable

/// Which calls a board shows: pickup/drop-off rules, trip ends, loops, stations and the `via` filter.
@Suite("Board rules")
struct BoardRulesTests {
    static let day = "2025-01-14"

    /// P: A 08:00 → B 08:10 (pickup_type=1: drop-off only) → C 08:20 (drop_off_type=1: pickup only) → D 08:30.
    static func pickupFeed() throws -> Timetable {
        try InlineFeed.load([
            "stops.txt": Feed.stops, "routes.txt": Feed.routes, "calendar.txt": Feed.daily,
            "trips.txt": "route_id,service_id,trip_id\nR,DAILY,P\n",
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,drop_off_type
                P,08:00:00,08:00:00,A,1,0,0
                P,08:10:00,08:10:00,B,2,1,0
                P,08:20:00,08:20:00,C,3,0,1
                P,08:30:00,08:30:00,D,4,0,0
                """,
        ]).timetable
    }

    @Test(arguments: [
        ("A", true, false),  // first stop: a departure, never an arrival
        ("B", false, true),  // pickup_type=1: drop-off only
        ("C", true, false),  // drop_off_type=1: pickup only
        ("D", false, true),  // last stop: an arrival, never a departure
    ])
    func boardingRules(stop: String, departs: Bool, arrives: Bool) throws {
        let tt = try Self.pickupFeed()
        let from = Clock.est(Self.day, "07:00")
        let deps = try tt.board(at: stop, from: from, window: 7200)
        let arrs = try tt.board(.arrivals, at: stop, from: from, window: 7200)
        #expect(deps.map(\.tripID) == (departs ? ["test:P"] : []))
        #expect(arrs.map(\.tripID) == (arrives ? ["test:P"] : []))
    }

    @Test func serviceKeepsTheRules() throws {
        let tt = try Self.pickupFeed()
        let details = try tt.service(try #require(tt.trip(id: "P")), on: ServiceDate(iso: Self.day)!)
        #expect(details.calls.map(\.pickup) == [.regular, .none, .regular, .regular])
        #expect(details.calls.map(\.dropOff) == [.regular, .regular, .none, .regular])
        #expect(details.calls.map(\.stopSequence) == [1, 2, 3, 4])
    }

    @Test func viaNeedsAStopWherePassengersMayAlight() throws {
        let tt = try Self.pickupFeed()
        let from = Clock.est(Self.day, "07:00")
        // B allows drop-off: A → B is a journey.
        #expect(try tt.board(at: "A", from: from, window: 7200, via: "B").map(\.tripID) == ["test:P"])
        // C is pickup only: nobody can get off there.
        #expect(try tt.board(at: "A", from: from, window: 7200, via: "C").isEmpty)
        // Arrivals at D from C: C allows pickup. From B: it does not.
        #expect(try tt.board(.arrivals, at: "D", from: from, window: 7200, via: "C").map(\.tripID) == ["test:P"])
        #expect(try tt.board(.arrivals, at: "D", from: from, window: 7200, via: "B").isEmpty)
    }

    @Test func loopTripDepartsFromItsFirstCallAndArrivesAtItsLast() throws {
        // LOOP: A 09:00 → B 09:10 → A 09:20.
        let tt = try InlineFeed.load([
            "stops.txt": Feed.stops, "routes.txt": Feed.routes, "calendar.txt": Feed.daily,
            "trips.txt": "route_id,service_id,trip_id,trip_headsign\nR,DAILY,LOOP,Circular\n",
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                LOOP,09:00:00,09:00:00,A,1
                LOOP,09:10:00,09:10:00,B,2
                LOOP,09:20:00,09:20:00,A,3
                """,
        ]).timetable
        let from = Clock.est(Self.day, "08:00")
        let deps = try tt.board(at: "A", from: from, window: 7200)
        #expect(deps.map(\.scheduled) == [Clock.est(Self.day, "09:00")])
        let arrs = try tt.board(.arrivals, at: "A", from: from, window: 7200)
        #expect(arrs.map(\.scheduled) == [Clock.est(Self.day, "09:20")])
        #expect(arrs.first?.origin == "Alpha")
        #expect(deps.first?.headsign == "Circular")
        // Departing A for A: the loop reaches A again at 09:20.
        let round = try tt.board(at: "A", from: from, window: 7200, via: "A")
        #expect(round.map(\.destinationArrival) == [Clock.est(Self.day, "09:20")])
    }

    /// V1: A 08:00 → B 08:10 → C 08:20. V2: C 08:05 → B 08:15 → A 08:25. V3: B 08:30 → D 08:40.
    /// C belongs to station CS; B to station BS with platforms B and B2 (V4 leaves from B2 at 08:12 for C).
    static func viaFeed() throws -> Timetable {
        try InlineFeed.load([
            "stops.txt": """
                stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,platform_code
                A,Alpha,40.0,-74.0,0,,
                BS,Bravo Station,40.01,-74.0,1,,
                B,Bravo,40.01,-74.0,0,BS,1
                B2,Bravo,40.0101,-74.0,0,BS,2
                BE,Bravo Entrance,40.0102,-74.0,2,BS,
                CS,Charlie Station,40.02,-74.0,1,,
                C,Charlie,40.02,-74.0,0,CS,
                D,Delta,40.03,-74.0,0,,
                """,
            "routes.txt": Feed.routes, "calendar.txt": Feed.daily,
            "trips.txt": "route_id,service_id,trip_id\nR,DAILY,V1\nR,DAILY,V2\nR,DAILY,V3\nR,DAILY,V4\n",
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                V1,08:00:00,08:00:00,A,1
                V1,08:10:00,08:11:00,B,2
                V1,08:20:00,08:20:00,C,3
                V2,08:05:00,08:05:00,C,1
                V2,08:15:00,08:16:00,B,2
                V2,08:25:00,08:25:00,A,3
                V3,08:30:00,08:30:00,B,1
                V3,08:40:00,08:40:00,D,2
                V4,08:12:00,08:12:00,B2,1
                V4,08:22:00,08:22:00,C,2
                """,
        ]).timetable
    }

    @Test func viaKeepsOnlyServicesThatCallThereLater() throws {
        let tt = try Self.viaFeed()
        let from = Clock.est(Self.day, "08:00")
        // From B: V1 (dep 08:11, at C 08:20), V2 (dep 08:16) calls at C only before B, V3 never calls at C.
        let rows = try tt.board(at: "B", from: from, window: 3600, via: "C")
        #expect(rows.map(\.tripID) == ["test:V1"])
        #expect(rows.first?.scheduled == Clock.est(Self.day, "08:11"))
        #expect(rows.first?.destinationArrival == Clock.est(Self.day, "08:20"))
        #expect(rows.first?.destinationStopID == "test:C")
        // Unfiltered, all three leave B.
        #expect(try tt.board(at: "B", from: from, window: 3600).map(\.tripID) == ["test:V1", "test:V2", "test:V3"])
        // Via the station CS finds the call at its platform C.
        let station = try tt.board(at: "B", from: from, window: 3600, via: "CS")
        #expect(station.map(\.destinationStopID) == ["test:C"])
    }

    @Test func arrivalsFromAStopCarryTheDepartureThere() throws {
        let tt = try Self.viaFeed()
        let from = Clock.est(Self.day, "08:00")
        // Arrivals at B that came from A: V1 (left A 08:00). V2 reaches A only after B.
        let rows = try tt.board(.arrivals, at: "B", from: from, window: 3600, via: "A")
        #expect(rows.map(\.tripID) == ["test:V1"])
        #expect(rows.first?.scheduled == Clock.est(Self.day, "08:10"))
        #expect(rows.first?.destinationArrival == Clock.est(Self.day, "08:00"))
        #expect(rows.first?.destinationStopID == "test:A")
    }

    @Test func stationBoardGathersItsPlatforms() throws {
        let tt = try Self.viaFeed()
        let from = Clock.est(Self.day, "08:00")
        let rows = try tt.board(at: "BS", from: from, window: 3600)
        #expect(rows.map(\.tripID) == ["test:V1", "test:V4", "test:V2", "test:V3"])
        #expect(rows.map(\.stopID) == ["test:B", "test:B2", "test:B", "test:B"])
        #expect(rows.map(\.platform) == ["1", "2", "1", "1"])
        #expect(rows.map(\.scheduled) == [Clock.est(Self.day, "08:11"), Clock.est(Self.day, "08:12"),
                                          Clock.est(Self.day, "08:16"), Clock.est(Self.day, "08:30")])
        // A platform's own board shows only its calls.
        #expect(try tt.board(at: "B2", from: from, window: 3600).map(\.tripID) == ["test:V4"])
        // Station to station with via: BS → CS is V1 (platform B) and V4 (platform B2).
        let toC = try tt.board(at: "BS", from: from, window: 3600, via: "CS")
        #expect(toC.map(\.tripID) == ["test:V1", "test:V4"])
        #expect(toC.map(\.destinationArrival) == [Clock.est(Self.day, "08:20"), Clock.est(Self.day, "08:22")])
    }

    @Test func stopTimeZoneShowsTimesInTheStopsZone() throws {
        // The agency counts in New York; stop Z says it is in Chicago. Times still count in the agency's zone.
        let tt = try InlineFeed.load([
            "stops.txt": """
                stop_id,stop_name,stop_lat,stop_lon,stop_timezone
                A,Alpha,40.0,-74.0,
                Z,Zulu,41.8,-87.6,America/Chicago
                """,
            "routes.txt": Feed.routes, "calendar.txt": Feed.daily,
            "trips.txt": "route_id,service_id,trip_id\nR,DAILY,TZ\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nTZ,08:00:00,08:00:00,A,1\nTZ,10:00:00,10:00:00,Z,2\n",
        ]).timetable
        let rows = try tt.board(.arrivals, at: "Z", from: Clock.est(Self.day, "09:00"), window: 7200)
        #expect(rows.map(\.timeZone) == ["America/Chicago"])
        // 10:00 EST = 15:00 UTC (= 09:00 in Chicago).
        #expect(rows.map(\.scheduled) == [Clock.utc(Self.day, "15:00")])
        #expect(try tt.board(at: "A", from: Clock.est(Self.day, "07:00"), window: 7200).map(\.timeZone) == ["America/New_York"])
    }
}
