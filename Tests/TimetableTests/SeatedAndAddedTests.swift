import Foundation
import GTFS
import OnwardCore
import OnwardTesting
import Testing
import Timetable

// Issue 26, item 6: staying on board from one trip into the next (block_id; transfers.txt types 4 and 5) and trips
// realtime data added, planned like any other. In UTC, so each instant is plain arithmetic.
//
// S1 ─A (block V1)─▶ S2 ─▶ S3 08:19:30, then B (block V1) S3 08:20 ─▶ S4 08:30; C S3 08:40 ─▶ S4 08:50 (no block).
// S5 ─D 09:00─▶ S3 09:10, then E S3 09:10 ─▶ S6 09:20 (no block: a type-4 rule D → E).
// Block V2: G S1 10:00 ─▶ S3 10:20, H (Sundays only) S3 10:21 ─▶ S4, J S3 10:22 ─▶ S6 10:40.
// Blocks V3 and V4 at a terminus, S8: K S7 11:00 ─▶ S8 11:10 waits, then M S8 11:50 ─▶ S9 12:00; L S7 11:05 ─▶ S8 11:20
// goes on at once as N S8 11:20:30 ─▶ S9 11:30.
// Block V5, three trips on: P S10 13:00 ─▶ S11 13:10, Q S11 13:10:30 ─▶ S12 13:20, T S12 13:20:30 ─▶ S13 13:30.

private let date = "2025-06-02"  // a Monday
private func at(_ hhmm: String) -> Instant { Clock.utc(date, hhmm) }

private func files(transfers: String = "") -> [String: String] {
    [
        "stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon
            S1,One,40.00,-74.0
            S2,Two,40.02,-74.0
            S3,Three,40.04,-74.0
            S4,Four,40.06,-74.0
            S5,Five,40.08,-74.0
            S6,Six,40.10,-74.0
            S7,Seven,40.20,-74.0
            S8,Eight,40.22,-74.0
            S9,Nine,40.24,-74.0
            S10,Ten,40.40,-74.0
            S11,Eleven,40.42,-74.0
            S12,Twelve,40.44,-74.0
            S13,Thirteen,40.46,-74.0
            """,
        "routes.txt": """
            route_id,route_short_name,route_long_name,route_type
            R1,1,One,3
            R2,2,Two,3
            R3,3,Three,3
            R4,4,Four,3
            R5,5,Five,3
            """,
        "trips.txt": """
            route_id,service_id,trip_id,block_id
            R1,DAILY,A,V1
            R2,DAILY,B,V1
            R2,DAILY,C,
            R3,DAILY,D,
            R3,DAILY,E,
            R1,DAILY,G,V2
            R2,SUNDAY,H,V2
            R3,DAILY,J,V2
            R4,DAILY,K,V3
            R4,DAILY,L,V4
            R5,DAILY,M,V3
            R5,DAILY,N,V4
            R1,DAILY,P,V5
            R2,DAILY,Q,V5
            R3,DAILY,T,V5
            """,
        "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            A,08:00:00,08:00:00,S1,1
            A,08:10:00,08:10:00,S2,2
            A,08:19:30,08:19:30,S3,3
            B,08:20:00,08:20:00,S3,1
            B,08:30:00,08:30:00,S4,2
            C,08:40:00,08:40:00,S3,1
            C,08:50:00,08:50:00,S4,2
            D,09:00:00,09:00:00,S5,1
            D,09:10:00,09:10:00,S3,2
            E,09:10:00,09:10:00,S3,1
            E,09:20:00,09:20:00,S6,2
            G,10:00:00,10:00:00,S1,1
            G,10:20:00,10:20:00,S3,2
            H,10:21:00,10:21:00,S3,1
            H,10:30:00,10:30:00,S4,2
            J,10:22:00,10:22:00,S3,1
            J,10:40:00,10:40:00,S6,2
            K,11:00:00,11:00:00,S7,1
            K,11:10:00,11:10:00,S8,2
            L,11:05:00,11:05:00,S7,1
            L,11:20:00,11:20:00,S8,2
            M,11:50:00,11:50:00,S8,1
            M,12:00:00,12:00:00,S9,2
            N,11:20:30,11:20:30,S8,1
            N,11:30:00,11:30:00,S9,2
            P,13:00:00,13:00:00,S10,1
            P,13:10:00,13:10:00,S11,2
            Q,13:10:30,13:10:30,S11,1
            Q,13:20:00,13:20:00,S12,2
            T,13:20:30,13:20:30,S12,1
            T,13:30:00,13:30:00,S13,2
            """,
        "calendar.txt": """
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            DAILY,1,1,1,1,1,1,1,20250101,20251231
            SUNDAY,0,0,0,0,0,0,1,20250101,20251231
            """,
        "transfers.txt": "from_stop_id,to_stop_id,from_trip_id,to_trip_id,transfer_type,min_transfer_time\n" + transfers,
    ]
}

private func planner(transfers: String = "") throws -> JourneyPlanner {
    JourneyPlanner(try InlineFeed.load(timeZone: "UTC", files(transfers: transfers)).timetable)
}

private extension JourneyPlanner {
    func earliest(_ from: String, _ to: String, at time: Instant, overlay: RealtimeOverlay = .empty) throws -> Itinerary? {
        let r = Request(from: try #require(timetable.stop(id: from)), to: try #require(timetable.stop(id: to)), time: time)
        return plan(r, overlay: overlay).min { $0.arrival < $1.arrival }
    }

    /// "A S1 08:00 → S3 08:19 seated" per ride: the journey as a reader checks it.
    func describe(_ j: Itinerary?) -> [String] {
        (j?.legs ?? []).compactMap { leg in
            guard case .ride(let r) = leg else { return nil }
            let trip = r.addedTrip.map { "added\($0)" } ?? String(timetable.tripIdentifier(r.instance.trip).split(separator: ":").last!)
            return "\(trip) \(local(r.from)) \(clock(r.departure)) → \(local(r.to)) \(clock(r.arrival))\(r.staysSeated ? " seated" : "")"
        }
    }

    private func local(_ s: StopIndex) -> String { String(timetable.place(s).id.split(separator: ":").last!) }
    private func clock(_ i: Instant) -> String {
        let s = ((i.epochSeconds % 86_400) + 86_400) % 86_400
        return String(format: "%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
    }
}

@Suite("Staying on board and added trips, inline")
struct SeatedAndAddedTests {
    @Test("block_id: on from A into B at S3 with 30 s between, which no change allows; no change is counted")
    func blockContinuation() throws {
        let p = try planner()
        let j = try p.earliest("S1", "S4", at: at("07:55"))
        #expect(p.describe(j) == ["A S1 08:00:00 → S3 08:19:30", "B S3 08:20:00 → S4 08:30:00 seated"])
        #expect(j?.transfers == 0)
        // Boarded mid-way (at S2), the same.
        #expect(p.describe(try p.earliest("S2", "S4", at: at("08:05"))) == ["A S2 08:10:00 → S3 08:19:30", "B S3 08:20:00 → S4 08:30:00 seated"])
        // In the domain's terms: the second ride stays seated, the change between says so, and the journey has no change.
        let found = try #require(j)
        let journey = p.journey(found, live: false)
        #expect(journey.transfers == 0 && journey.rides.map(\.staysSeated) == [nil, true])
        #expect(journey.changes.map(\.staysSeated) == [true])
    }

    @Test("block_id over three trips: on from P through Q into T, each ride after the first seated, no change counted")
    func blockOfThree() throws {
        let p = try planner()
        let j = try p.earliest("S10", "S13", at: at("12:55"))
        #expect(p.describe(j) == ["P S10 13:00:00 → S11 13:10:00", "Q S11 13:10:30 → S12 13:20:00 seated", "T S12 13:20:30 → S13 13:30:00 seated"])
        #expect(j?.transfers == 0)
    }

    @Test("transfer_type 5 between A and B: off at S3, and the 08:40 after a change")
    func notSeated() throws {
        let p = try planner(transfers: ",,A,B,5,\n")
        let j = try p.earliest("S1", "S4", at: at("07:55"))
        #expect(p.describe(j) == ["A S1 08:00:00 → S3 08:19:30", "C S3 08:40:00 → S4 08:50:00"])
        #expect(j?.transfers == 1)
    }

    @Test("transfer_type 4 between two trips with no block: on from D into E")
    func seatedRule() throws {
        // Without the rule, E leaves as D arrives, too soon to change: the next way to S6 is J, after a change.
        let without = try planner()
        #expect(without.describe(try without.earliest("S5", "S6", at: at("08:55"))) == ["D S5 09:00:00 → S3 09:10:00", "J S3 10:22:00 → S6 10:40:00"])
        let p = try planner(transfers: "S3,S3,D,E,4,\n")
        let j = try p.earliest("S5", "S6", at: at("08:55"))
        #expect(p.describe(j) == ["D S5 09:00:00 → S3 09:10:00", "E S3 09:10:00 → S6 09:20:00 seated"])
        #expect(j?.transfers == 0)
    }

    @Test("the block's next trip that runs that day: H runs on Sundays only, so on a Monday G goes on as J")
    func blockByDay() throws {
        let p = try planner()
        #expect(p.describe(try p.earliest("S1", "S6", at: at("09:55"))) == ["G S1 10:00:00 → S3 10:20:00", "J S3 10:22:00 → S6 10:40:00 seated"])
        // On a Sunday G goes on as H, not J: to S6, a change is needed (and J's 10:22 is 2 min after G's 10:20).
        let sunday = Clock.utc("2025-06-01", "09:55")
        #expect(p.describe(try p.earliest("S1", "S4", at: sunday)) == ["G S1 10:00:00 → S3 10:20:00", "H S3 10:21:00 → S4 10:30:00 seated"])
        let toSix = try p.earliest("S1", "S6", at: sunday)
        #expect(p.describe(toSix) == ["G S1 10:00:00 → S3 10:20:00", "J S3 10:22:00 → S6 10:40:00"] && toSix?.transfers == 1)
    }

    @Test("a later run whose vehicle goes on sooner: L into N seated, not K and a change to N, nor K into M")
    func laterRunGoesOnSooner() throws {
        let p = try planner()
        let found = p.plan(JourneyPlanner.Request(from: try #require(p.timetable.stop(id: "S7")), to: try #require(p.timetable.stop(id: "S9")),
                                                  time: at("10:55")))
        // The only answer: as soon as any, with no change (K then N, changing at S8, arrives as soon but with a change).
        #expect(found.map { p.describe($0) } == [["L S7 11:05:00 → S8 11:20:00", "N S8 11:20:30 → S9 11:30:00 seated"]])
        #expect(found.map(\.transfers) == [0])
        // Boarded after K has gone, the same.
        #expect(p.describe(try p.earliest("S7", "S9", at: at("11:01"))) == ["L S7 11:05:00 → S8 11:20:00", "N S8 11:20:30 → S9 11:30:00 seated"])
        // With live times (the runs are then searched for one by one, as live times can reorder them): N 2 min late.
        let n = try #require(p.timetable.trip(id: "N"))
        var late = TripLive(status: .running, calls: 2)
        late.departure = [at("11:22:30").epochSeconds, at("11:32").epochSeconds]
        late.arrival = late.departure
        var live = RealtimeOverlay()
        live.trips[TripInstance(trip: n, serviceDay: ServiceDate(iso: date)!.dayNumber)] = late
        live.tripUpdatesTimestamp = at("10:50")
        live.reindex(timetable: p.timetable)
        let withLive = p.plan(JourneyPlanner.Request(from: try #require(p.timetable.stop(id: "S7")), to: try #require(p.timetable.stop(id: "S9")),
                                                     time: at("10:55")), overlay: live)
        #expect(withLive.map { p.describe($0) } == [["L S7 11:05:00 → S8 11:20:00", "N S8 11:22:30 → S9 11:32:00 seated"]])
    }

    @Test("a trip realtime data added is planned like any other, with its own times; a skipped call is not boarded")
    func addedTrip() throws {
        let p = try planner()
        let tt = p.timetable
        func stop(_ id: String) throws -> StopIndex { try #require(tt.stop(id: id)) }
        var overlay = RealtimeOverlay()
        overlay.added = [AddedTrip(id: "test:extra1", route: nil, headsign: "Four", serviceDay: ServiceDate(iso: date)!.dayNumber, calls: [
            .init(stop: try stop("S1"), arrival: at("08:02").epochSeconds, departure: at("08:02").epochSeconds, skipped: false),
            .init(stop: try stop("S2"), arrival: at("08:06").epochSeconds, departure: at("08:06").epochSeconds, skipped: true),
            .init(stop: try stop("S4"), arrival: at("08:15").epochSeconds, departure: at("08:15").epochSeconds, skipped: false),
        ])]
        overlay.reindex(timetable: tt)
        let j = try p.earliest("S1", "S4", at: at("07:55"), overlay: overlay)
        #expect(p.describe(j) == ["added0 S1 08:02:00 → S4 08:15:00"])
        let found = try #require(j)
        let leg = try #require(p.journey(found, live: true, overlay: overlay).rides.first)
        #expect(leg.tripID == "test:extra1" && leg.isAddedTrip == true && leg.expectedArrival == at("08:15"))
        // It skips S2: from there, the block's A and B.
        #expect(p.describe(try p.earliest("S2", "S4", at: at("08:03"), overlay: overlay))
            == ["A S2 08:10:00 → S3 08:19:30", "B S3 08:20:00 → S4 08:30:00 seated"])
        // A range query lists it among the departures.
        var range = JourneyPlanner.Request(from: try stop("S1"), to: try stop("S4"), time: at("07:55"))
        range.window = 3_600
        #expect(p.plan(range, overlay: overlay).map { p.describe($0).first ?? "" }.contains("added0 S1 08:02:00 → S4 08:15:00"))
    }
}
