import Foundation
import GTFS
import OnwardCore
import OnwardTesting
import Testing
@testable import Timetable

// Each planning rule of the journeys issue on a small feed written inline, in
// UTC so every expected instant is plain arithmetic (`Clock.utc`).
//
// S1 ─A1─▶ X1 (platform 1 of station X) ─A1─▶ S3
// X2 (platform 2 of X) ─B1, B2─▶ T;  W (300 m north of X) ─W1─▶ T
// S1 ─C1 (slow, no change)─▶ T;  S1 ─N1 (after midnight)─▶ X1 ─▶ S3
// S1 ─F (every 10 min, 06:00–07:00)─▶ T

private let date = "2025-06-02"
private func at(_ hhmm: String) -> Instant { Clock.utc(date, hhmm) }

private func files(transfers: String? = nil) -> [String: String] {
    var f = [
        "stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,platform_code
            S1,First,40.0000,-74.0,0,,
            X,Exchange,40.0100,-74.0,1,,
            X1,Exchange,40.0100,-74.0,0,X,1
            X2,Exchange,40.0100,-74.0,0,X,2
            W,West Road,40.0127,-74.0,0,,
            S3,Third,40.0200,-74.0,0,,
            T,Terminus,40.0500,-74.0,0,,
            """,
        "routes.txt": """
            route_id,agency_id,route_short_name,route_long_name,route_type
            R1,A,1,One,1
            R2,A,2,Two,1
            RW,A,W,West,3
            RC,A,C,Slow,3
            RF,A,F,Frequent,3
            """,
        "trips.txt": """
            route_id,service_id,trip_id
            R1,DAILY,A1
            R2,DAILY,B1
            R2,DAILY,B2
            RW,DAILY,W1
            RC,DAILY,C1
            R1,DAILY,N1
            RF,DAILY,F
            """,
        "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            A1,08:00:00,08:00:00,S1,1
            A1,08:10:00,08:10:00,X1,2
            A1,08:20:00,08:20:00,S3,3
            B1,08:12:00,08:12:00,X2,1
            B1,08:30:00,08:30:00,T,2
            B2,08:20:00,08:20:00,X2,1
            B2,08:38:00,08:38:00,T,2
            W1,08:16:00,08:16:00,W,1
            W1,08:33:00,08:33:00,T,2
            C1,08:05:00,08:05:00,S1,1
            C1,09:00:00,09:00:00,T,2
            N1,23:50:00,23:50:00,S1,1
            N1,24:05:00,24:05:00,X1,2
            N1,24:20:00,24:20:00,S3,3
            F,06:00:00,06:00:00,S1,1
            F,06:25:00,06:25:00,T,2
            """,
        "frequencies.txt": """
            trip_id,start_time,end_time,headway_secs,exact_times
            F,06:00:00,07:00:00,600,0
            """,
        "calendar.txt": """
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            DAILY,1,1,1,1,1,1,1,20250101,20251231
            """,
    ]
    if let transfers { f["transfers.txt"] = "from_stop_id,to_stop_id,transfer_type,min_transfer_time\n" + transfers }
    return f
}

private func planner(transfers: String? = nil) throws -> JourneyPlanner {
    JourneyPlanner(try InlineFeed.load(timeZone: "UTC", files(transfers: transfers)).timetable)
}

private extension JourneyPlanner {
    /// `cores`: the lanes a range query may use (all the machine's by default).
    func plan(_ from: String, _ to: String, at time: Instant, configure: (inout Request) -> Void = { _ in },
              overlay: RealtimeOverlay = .empty, cores: Int = JourneyPlanner.cores) throws -> [Itinerary] {
        var r = Request(from: try #require(timetable.stop(id: from)), to: try #require(timetable.stop(id: to)), time: time)
        configure(&r)
        return plan(r, overlay: overlay, cores: cores)
    }

    /// "A1 S1 08:00 → X1 08:10" per ride, "walk X1 → X2 0 s" per move: the journey as a reader checks it.
    func describe(_ j: Itinerary) -> [String] {
        j.legs.map { leg in
            switch leg {
            case .ride(let r):
                "\(timetable.tripIdentifier(r.instance.trip).split(separator: ":").last!) \(local(r.from)) \(clock(r.departure)) → \(local(r.to)) \(clock(r.arrival))"
            case .move(let from, let to, let seconds, _):
                "move \(local(from)) → \(local(to)) \(seconds) s"
            }
        }
    }

    private func local(_ s: StopIndex) -> String { String(timetable.place(s).id.split(separator: ":").last!) }
    private func clock(_ i: Instant) -> String {
        let s = ((i.epochSeconds % 86_400) + 86_400) % 86_400
        return String(format: "%02d:%02d", s / 3600, s / 60 % 60)
    }
}

@Suite("Journey planner rules, inline")
struct JourneyPlannerRuleTests {
    @Test("the Pareto set: a change at a station's other platform arrives first, the slow direct bus has no change")
    func paretoSet() throws {
        let p = try planner()
        let journeys = try p.plan("S1", "T", at: at("07:55"))
        #expect(journeys.map(p.describe) == [
            ["A1 S1 08:00 → X1 08:10", "move X1 → X2 0 s", "B1 X2 08:12 → T 08:30"],
            ["C1 S1 08:05 → T 09:00"],
        ])
        #expect(journeys.map(\.transfers) == [1, 0])
    }

    @Test("a longer transfer slack misses the 08:12 and takes the 08:20")
    func transferSlack() throws {
        let p = try planner()
        let journeys = try p.plan("S1", "T", at: at("07:55")) { $0.transferSlack = 180; $0.maxWalk = 200 }
        #expect(journeys.map(p.describe).first == ["A1 S1 08:00 → X1 08:10", "move X1 → X2 0 s", "B2 X2 08:20 → T 08:38"])
    }

    @Test("a walk by coordinates takes its walking time (300 m at 1.33 m/s: 226 s), and only up to the largest walk")
    func walkByCoordinates() throws {
        // min_transfer_time 300 s between the platforms makes the walk to W the faster change.
        let p = try planner(transfers: "X1,X2,2,300\n")
        #expect(try p.plan("S1", "T", at: at("07:55")).map(p.describe).first
            == ["A1 S1 08:00 → X1 08:10", "move X1 → W 226 s", "W1 W 08:16 → T 08:33"])
        #expect(try p.plan("S1", "T", at: at("07:55")) { $0.maxWalk = 200 }.map(p.describe).first
            == ["A1 S1 08:00 → X1 08:10", "move X1 → X2 300 s", "B2 X2 08:20 → T 08:38"])
    }

    @Test("a station-level row applies to each of its platforms; a stop-level row for the pair wins over it")
    func stationLevelRows() throws {
        let station = try planner(transfers: "X,X,2,300\n")
        #expect(try station.plan("S1", "T", at: at("07:55")) { $0.maxWalk = 200 }.map(station.describe).first
            == ["A1 S1 08:00 → X1 08:10", "move X1 → X2 300 s", "B2 X2 08:20 → T 08:38"])
        let both = try planner(transfers: "X,X,2,300\nX1,X2,0,\n")
        #expect(try both.plan("S1", "T", at: at("07:55")) { $0.maxWalk = 200 }.map(both.describe).first
            == ["A1 S1 08:00 → X1 08:10", "move X1 → X2 0 s", "B1 X2 08:12 → T 08:30"])
    }

    @Test("a default request's moves, kept in the index, are what the request allows of each move: here and on Halifax")
    func defaultMoves() throws {
        // X1 → X2 forbidden (no platform change then), X2 → W a rule of 240 s (no walk then), S1 to itself (no move).
        let ruled = try planner(transfers: "X1,X2,3,\nX2,W,2,240\nS1,S1,2,90\nW,X1,0,\n")
        func moves(_ p: JourneyPlanner, _ stop: StopIndex, general: Bool) -> [String] {
            let tt = p.timetable, request = JourneyPlanner.Request(from: stop, to: stop, time: at("08:00"))
            var found: [String] = []
            let s = stop.raw
            if general {
                RaptorSearch.nearMoves(p.index, request, from: s, rules: true) { to, sec in found.append("\(tt.stopIDString(StopIndex(raw: to))) \(sec)") }
            } else {
                RaptorSearch.forEachMove(p.index, request, from: s) { to, sec in found.append("\(tt.stopIDString(StopIndex(raw: to))) \(sec)") }
            }
            return found
        }
        func moves(_ stop: String) throws -> [String] { moves(ruled, try #require(ruled.timetable.stop(id: stop)), general: false) }
        #expect(try moves("X2") == ["test:W 240", "test:X1 0"])
        #expect(try moves("X1") == ["test:W 226"])
        #expect(try moves("W") == ["test:X1 0", "test:X2 226"])
        #expect(try moves("S1") == [])
        let halifax = JourneyPlanner(try RealFeeds.halifax.get())
        var compared = 0
        for p in [ruled, halifax] {
            for s in p.timetable.allStops {
                let fast = moves(p, s, general: false)
                #expect(fast == moves(p, s, general: true), "\(p.timetable.stopIDString(s))")
                compared += fast.count
            }
        }
        #expect(compared > 10_000, "\(compared) moves compared")
    }

    @Test("type 3 forbids the move; with no walking allowed only transfers.txt moves remain")
    func forbiddenAndNoWalk() throws {
        let forbidden = try planner(transfers: "X1,X2,3,\n")
        #expect(try forbidden.plan("S1", "T", at: at("07:55")) { $0.maxWalk = 200 }.map(forbidden.describe) == [["C1 S1 08:05 → T 09:00"]])
        let plain = try planner()
        #expect(try plain.plan("S1", "T", at: at("07:55")) { $0.maxWalk = 0 }.map(plain.describe) == [["C1 S1 08:05 → T 09:00"]])
        let ruled = try planner(transfers: "X1,X2,1,\n")
        #expect(try ruled.plan("S1", "T", at: at("07:55")) { $0.maxWalk = 0 }.map(ruled.describe).first
            == ["A1 S1 08:00 → X1 08:10", "move X1 → X2 0 s", "B1 X2 08:12 → T 08:30"])
    }

    @Test("a row from a stop to itself sets the time to change there; type 3 forbids changing there")
    func sameStopRows() throws {
        // P ─U1─▶ Q (08:10); Q ─V1─▶ R at 08:11, ─V2─▶ R at 08:20.
        func changeAtQ(_ transfers: String?) throws -> JourneyPlanner {
            var f = [
                "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nP,P,40.0,-74.0\nQ,Q,40.1,-74.0\nR,R,40.2,-74.0\n",
                "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nU,A,U,U,3\nV,A,V,V,3\n",
                "trips.txt": "route_id,service_id,trip_id\nU,DAILY,U1\nV,DAILY,V1\nV,DAILY,V2\n",
                "stop_times.txt": """
                    trip_id,arrival_time,departure_time,stop_id,stop_sequence
                    U1,08:00:00,08:00:00,P,1
                    U1,08:10:00,08:10:00,Q,2
                    V1,08:11:00,08:11:00,Q,1
                    V1,08:30:00,08:30:00,R,2
                    V2,08:20:00,08:20:00,Q,1
                    V2,08:40:00,08:40:00,R,2
                    """,
                "calendar.txt": files()["calendar.txt"]!,
            ]
            if let transfers { f["transfers.txt"] = "from_stop_id,to_stop_id,transfer_type,min_transfer_time\n" + transfers }
            return JourneyPlanner(try InlineFeed.load(timeZone: "UTC", f).timetable)
        }
        let slack = try changeAtQ(nil)
        #expect(try slack.plan("P", "R", at: at("07:55")).map(slack.describe) == [["U1 P 08:00 → Q 08:10", "V1 Q 08:11 → R 08:30"]])
        #expect(try slack.plan("P", "R", at: at("07:55")) { $0.transferSlack = 120 }.map(slack.describe)
            == [["U1 P 08:00 → Q 08:10", "V2 Q 08:20 → R 08:40"]])
        let minimum = try changeAtQ("Q,Q,2,300\n")
        #expect(try minimum.plan("P", "R", at: at("07:55")).map(minimum.describe) == [["U1 P 08:00 → Q 08:10", "V2 Q 08:20 → R 08:40"]])
        let forbidden = try changeAtQ("Q,Q,3,\n")
        #expect(try forbidden.plan("P", "R", at: at("07:55")).isEmpty)
        // The larger of the slack and min_transfer_time: a 60 s row under a 120 s slack still takes 120 s.
        let short = try changeAtQ("Q,Q,2,60\n")
        #expect(try short.plan("P", "R", at: at("07:55")) { $0.transferSlack = 120 }.map(short.describe)
            == [["U1 P 08:00 → Q 08:10", "V2 Q 08:20 → R 08:40"]])
    }

    @Test("no one boards where pickup_type=1 says so, though an earlier run of the route leaves there after one could walk there")
    func noPickupOnTheWay() throws {
        // P1 and P2 never overtake; B (222 m from A, a 167 s walk) is drop-off only. At 08:20 P1 has left A, and leaves B
        // at 08:35, after one could walk there: the scan, riding P2 from A, must not take P1 at B.
        let p = JourneyPlanner(try InlineFeed.load(timeZone: "UTC", [
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA,A,40.0,-74.0\nB,B,40.002,-74.0\nC,C,40.05,-74.0\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nP,A,P,P,3\n",
            "trips.txt": "route_id,service_id,trip_id\nP,DAILY,P1\nP,DAILY,P2\n",
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type
                P1,08:00:00,08:00:00,A,1,0
                P1,08:35:00,08:35:00,B,2,1
                P1,08:45:00,08:45:00,C,3,0
                P2,08:30:00,08:30:00,A,1,0
                P2,08:40:00,08:40:00,B,2,1
                P2,08:50:00,08:50:00,C,3,0
                """,
            "calendar.txt": files()["calendar.txt"]!,
        ]).timetable)
        #expect(try p.plan("A", "C", at: at("08:20")).map(p.describe) == [["P2 A 08:30 → C 08:50"]])
    }

    @Test("moves are allowed from the origin at the start time and to the destination after the last ride")
    func movesAtTheEnds() throws {
        let p = try planner()
        // From platform X1, B1 leaves the other platform at 08:12: the move needs no slack at the start.
        #expect(try p.plan("X1", "T", at: at("08:12")) { $0.maxWalk = 200 }.map(p.describe).first
            == ["move X1 → X2 0 s", "B1 X2 08:12 → T 08:30"])
        // To X2, A1 reaches X1 at 08:10; the move after the last ride needs no slack either.
        let toX2 = try #require(try p.plan("S1", "X2", at: at("07:55")) { $0.maxWalk = 200 }.first)
        #expect(p.describe(toX2) == ["A1 S1 08:00 → X1 08:10", "move X1 → X2 0 s"])
        #expect(toX2.arrival == at("08:10"))
        // A station as the destination means any of its platforms: no move at all.
        #expect(try p.plan("S1", "X", at: at("07:55")).map(p.describe).first == ["A1 S1 08:00 → X1 08:10"])
    }

    @Test("wheelchair: only trips the feed marks accessible, boarded and left at stops (or their stations) it marks accessible")
    func wheelchair() throws {
        // P ─U1 (accessible)─▶ R at 08:00; P ─U2 (not said)─▶ R at 07:50; Q has no step-free access.
        func feed(_ pWheelchair: String) throws -> JourneyPlanner {
            let f = [
                "stops.txt": "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,wheelchair_boarding\n"
                    + "S,Station,40.0,-74.0,1,,1\nP,P,40.0,-74.0,0,S,\(pWheelchair)\nQ,Q,40.1,-74.0,0,,2\nR,R,40.2,-74.0,0,,1\n",
                "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nU,A,U,U,3\n",
                "trips.txt": "route_id,service_id,trip_id,wheelchair_accessible\nU,DAILY,U1,1\nU,DAILY,U2,0\nU,DAILY,U3,1\n",
                "stop_times.txt": """
                    trip_id,arrival_time,departure_time,stop_id,stop_sequence
                    U1,08:00:00,08:00:00,P,1
                    U1,08:20:00,08:20:00,R,2
                    U2,07:50:00,07:50:00,P,1
                    U2,08:10:00,08:10:00,R,2
                    U3,07:45:00,07:45:00,Q,1
                    U3,07:55:00,07:55:00,R,2
                    """,
                "calendar.txt": files()["calendar.txt"]!,
            ]
            return JourneyPlanner(try InlineFeed.load(timeZone: "UTC", f).timetable)
        }
        let p = try feed("")  // no information of its own: the station's (accessible) counts
        #expect(try p.plan("P", "R", at: at("07:40")).map(p.describe).first == ["U2 P 07:50 → R 08:10"])
        #expect(try p.plan("P", "R", at: at("07:40")) { $0.wheelchair = true }.map(p.describe) == [["U1 P 08:00 → R 08:20"]])
        #expect(try p.plan("Q", "R", at: at("07:40")) { $0.wheelchair = true }.isEmpty)
        let stepped = try feed("2")  // the platform itself says no
        #expect(try stepped.plan("P", "R", at: at("07:40")) { $0.wheelchair = true }.isEmpty)
    }

    @Test("a trip of the previous service day running past midnight is caught after midnight")
    func pastMidnight() throws {
        let p = try planner()
        let journeys = try p.plan("X1", "S3", at: Clock.utc("2025-06-03", "00:00"))
        #expect(journeys.map(p.describe) == [["N1 X1 00:05 → S3 00:20"]])
        #expect(journeys.first?.arrival == Clock.utc("2025-06-03", "00:20"))
    }

    @Test("a frequency-based trip runs every headway: the first run leaving after the time is taken")
    func frequencyRuns() throws {
        let p = try planner()
        #expect(try p.plan("S1", "T", at: at("06:03")).map(p.describe).first == ["F S1 06:10 → T 06:35"])
    }

    @Test("a range query lists every option departing in the window, in departure order")
    func rangeQuery() throws {
        let p = try planner()
        let journeys = try p.plan("S1", "T", at: at("05:55")) { $0.window = 70 * 60; $0.limit = 10 }
        #expect(journeys.map { p.describe($0)[0] } == [
            "F S1 06:00 → T 06:25", "F S1 06:10 → T 06:35", "F S1 06:20 → T 06:45",
            "F S1 06:30 → T 06:55", "F S1 06:40 → T 07:05", "F S1 06:50 → T 07:15",
        ])
    }

    @Test("a range query keeps an earlier departure with fewer changes though a later one with more arrives first")
    func rangeQueryKeepsFewerChanges() throws {
        // D1 leaves S1 at 07:58 and runs straight to T by 08:50; the 08:00 with a change arrives at
        // 08:30. Searching the 08:00 first must not hide D1: it has no change, and arrives before C1.
        var f = files()
        f["trips.txt"]! += "\nRC,DAILY,D1"
        f["stop_times.txt"]! += "\nD1,07:58:00,07:58:00,S1,1\nD1,08:50:00,08:50:00,T,2"
        // On one lane too, where 07:58 is searched after 08:05 and 08:00 with their labels (with two lanes the two
        // halves are searched apart): nothing the later departures found may hide D1.
        let p = JourneyPlanner(try InlineFeed.load(timeZone: "UTC", f).timetable)
        for cores in [1, 2] {
            let journeys = try p.plan("S1", "T", at: at("07:55"), configure: { $0.window = 15 * 60; $0.limit = 10 }, cores: cores)
            #expect(journeys.map(p.describe) == [
                ["D1 S1 07:58 → T 08:50"],
                ["A1 S1 08:00 → X1 08:10", "move X1 → X2 0 s", "B1 X2 08:12 → T 08:30"],
                ["C1 S1 08:05 → T 09:00"],
            ], "\(cores) lane(s)")
        }
    }

    @Test("arrive by: the latest departure that arrives in time")
    func arriveBy() throws {
        let p = try planner()
        let journeys = try p.plan("S1", "T", at: at("08:35")) { $0.arriveBy = true; $0.limit = 1 }
        #expect(journeys.map(p.describe) == [["A1 S1 08:00 → X1 08:10", "move X1 → X2 0 s", "B1 X2 08:12 → T 08:30"]])
    }

    // MARK: Live data

    /// An overlay with one trip's live data, built by hand.
    private func overlay(_ p: JourneyPlanner, trip: String, _ live: (inout TripLive) -> Void) throws -> RealtimeOverlay {
        let t = try #require(p.timetable.trip(id: trip))
        var l = TripLive(status: .running, calls: p.timetable.callCount(of: t))
        live(&l)
        var o = RealtimeOverlay()
        o.trips[TripInstance(trip: t, serviceDay: ServiceDate(iso: date)!.dayNumber)] = l
        o.tripUpdatesTimestamp = at("07:50")
        o.reindex(timetable: p.timetable)
        return o
    }

    @Test("a cancelled run is not taken: the next one is")
    func cancelledRun() throws {
        let p = try planner()
        let live = try overlay(p, trip: "B1") { $0.status = .cancelled }
        #expect(try p.plan("S1", "T", at: at("07:55"), configure: { $0.maxWalk = 200 }, overlay: live).map(p.describe).first
            == ["A1 S1 08:00 → X1 08:10", "move X1 → X2 0 s", "B2 X2 08:20 → T 08:38"])
    }

    @Test("a skipped call is neither boarded nor left at")
    func skippedCall() throws {
        let p = try planner()
        let live = try overlay(p, trip: "B1") { $0.callStatus[0] = .skipped }
        #expect(try p.plan("S1", "T", at: at("07:55"), configure: { $0.maxWalk = 200 }, overlay: live).map(p.describe).first
            == ["A1 S1 08:00 → X1 08:10", "move X1 → X2 0 s", "B2 X2 08:20 → T 08:38"])
    }

    @Test("delays are taken into account: a late run is caught at its expected time and arrives late")
    func delays() throws {
        let p = try planner()
        // B1 five minutes late at both calls.
        let live = try overlay(p, trip: "B1") { l in
            l.departure = [at("08:17").epochSeconds, at("08:35").epochSeconds]
            l.arrival = [at("08:17").epochSeconds, at("08:35").epochSeconds]
        }
        let journey = try #require(try p.plan("S1", "T", at: at("07:55"), configure: { $0.maxWalk = 200 }, overlay: live).first)
        #expect(p.describe(journey) == ["A1 S1 08:00 → X1 08:10", "move X1 → X2 0 s", "B1 X2 08:17 → T 08:35"])
        guard case .ride(let ride) = journey.legs[2] else { Issue.record("not a ride"); return }
        #expect(ride.isLive)
        #expect(ride.scheduledDeparture == at("08:12"))
        // Early enough for it now, having missed the 08:12 by schedule: a change arriving 08:16 still makes the late B1.
        let late = try overlay(p, trip: "B1") { l in
            l.departure = [at("08:17").epochSeconds, at("08:35").epochSeconds]
            l.arrival = [at("08:17").epochSeconds, at("08:35").epochSeconds]
        }
        #expect(try p.plan("S1", "T", at: at("07:55"), configure: { $0.maxWalk = 200; $0.transferSlack = 400 }, overlay: late).map(p.describe).first
            == ["A1 S1 08:00 → X1 08:10", "move X1 → X2 0 s", "B1 X2 08:17 → T 08:35"])
    }
}
