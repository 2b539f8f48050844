import Foundation
import GTFS
import OnwardCore
import OnwardTesting
import Testing
@testable import Timetable

/// Trips that run with the same times from their start share them in the timetable (`Timetable.arrivals`): each
/// trip's own times, on boards, in its service, in a snapshot and in journeys, are still its own.
@Suite("Shared running times")
struct SharedRunningTimesTests {
    /// T1, T2 and T4 (past midnight) run A–B–C alike; T3 takes two minutes longer to B. U1 and U2 run A–D with
    /// T1's running times (another pattern: shared all the same).
    static func feed() throws -> Timetable {
        try InlineFeed.load([
            "stops.txt": Feed.stops, "routes.txt": Feed.routes, "calendar.txt": Feed.daily,
            "trips.txt": "route_id,service_id,trip_id\nR,DAILY,T1\nR,DAILY,T2\nR,DAILY,T3\nR,DAILY,T4\nR,DAILY,U1\nR,DAILY,U2\n",
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T1,08:00:00,08:00:00,A,1
                T1,08:05:00,08:05:00,B,2
                T1,08:12:00,08:12:00,C,3
                T2,09:00:00,09:00:00,A,1
                T2,09:05:00,09:05:00,B,2
                T2,09:12:00,09:12:00,C,3
                T3,10:00:00,10:00:00,A,1
                T3,10:07:00,10:07:00,B,2
                T3,10:12:00,10:12:00,C,3
                T4,24:30:00,24:30:00,A,1
                T4,24:35:00,24:35:00,B,2
                T4,24:42:00,24:42:00,C,3
                U1,07:00:00,07:00:00,A,1
                U1,07:05:00,07:05:00,B,2
                U1,07:12:00,07:12:00,D,3
                U2,11:00:00,11:00:00,A,1
                U2,11:05:00,11:05:00,B,2
                U2,11:12:00,11:12:00,D,3
                """,
        ]).timetable
    }

    @Test("two sets of running times for six trips; every stop time still counted")
    func shared() throws {
        let tt = try Self.feed()
        #expect(tt.stopTimeCount == 18)
        #expect(tt.arrivals.count == 6 && tt.departures.count == 6)
        let t1 = try #require(tt.trip(id: "T1")), t3 = try #require(tt.trip(id: "T3")), u2 = try #require(tt.trip(id: "U2"))
        #expect(tt.tripTimes[Int(u2.raw)] == tt.tripTimes[Int(t1.raw)])
        #expect(tt.tripTimes[Int(t3.raw)] != tt.tripTimes[Int(t1.raw)])
    }

    @Test("boards, a service and a snapshot give each trip its own times")
    func ownTimes() throws {
        for tt in [try Self.feed(), try Timetable(snapshot: try Self.feed().snapshotData())] {
            let atB = try tt.board(at: "B", from: Clock.est("2025-01-10", "08:00"), window: 17 * 3600)
            #expect(atB.map(\.tripID) == ["test:T1", "test:T2", "test:T3", "test:U2", "test:T4"])
            #expect(atB.map(\.scheduled) == ["08:05", "09:05", "10:07", "11:05", "00:35"].enumerated().map {
                Clock.est($0.offset == 4 ? "2025-01-11" : "2025-01-10", $0.element)
            })
            let atC = try tt.board(.arrivals, at: "C", from: Clock.est("2025-01-10", "09:00"), limit: 2)
            #expect(atC.map(\.scheduled) == [Clock.est("2025-01-10", "09:12"), Clock.est("2025-01-10", "10:12")])
            let t4 = try tt.service(try #require(tt.trip(id: "T4")), on: ServiceDate(iso: "2025-01-10")!)
            #expect(t4.calls.map(\.scheduledArrival) == [Clock.est("2025-01-11", "00:30"), Clock.est("2025-01-11", "00:35"),
                                                         Clock.est("2025-01-11", "00:42")])
        }
    }

    @Test("journeys ride each trip at its own times, on a route of shared times and on one of mixed times")
    func journeys() throws {
        let tt = try Self.feed()
        let planner = JourneyPlanner(tt)
        func arrival(_ from: String, _ to: String, _ at: Instant) throws -> Instant? {
            planner.plan(JourneyPlanner.Request(from: try #require(tt.stop(id: from)), to: try #require(tt.stop(id: to)), time: at)).first?.arrival
        }
        #expect(try arrival("A", "C", Clock.est("2025-01-10", "08:55")) == Clock.est("2025-01-10", "09:12"))
        #expect(try arrival("A", "C", Clock.est("2025-01-10", "09:30")) == Clock.est("2025-01-10", "10:12"))
        #expect(try arrival("B", "C", Clock.est("2025-01-10", "23:00")) == Clock.est("2025-01-11", "00:42"))
        #expect(try arrival("A", "D", Clock.est("2025-01-10", "07:01")) == Clock.est("2025-01-10", "11:12"))
        #expect(try arrival("B", "D", Clock.est("2025-01-10", "06:00")) == Clock.est("2025-01-10", "07:12"))
        // A range query sees every departure of both routes.
        var range = JourneyPlanner.Request(from: try #require(tt.stop(id: "A")), to: try #require(tt.stop(id: "B")), time: Clock.est("2025-01-10", "06:30"))
        range.window = 5 * 3600
        range.limit = 10
        #expect(planner.plan(range).map(\.departure) == ["07:00", "08:00", "09:00", "10:00", "11:00"].map { Clock.est("2025-01-10", $0) })
    }
}
