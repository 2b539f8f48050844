import Foundation
import GTFS
import OnwardCore
import OnwardTesting
import Testing
@testable import Timetable

/// The lower bound on the time to the destination (`SpeedBound.swift`), the bound within a
/// round (the destination's routes scanned first; a route's scan stopped past its last marked call once its run is past
/// the bound; no boarding after it), and a range's bound from its later departures (`RaptorSearch.laterBest`), only drop
/// labels that cannot lead to an answer: with them and without them (`pruned`), on one lane or two,
/// the planner gives exactly the same journeys, on a city whose vehicles go on as other
/// trips between platforms (the bound's slack) and on the national network, one-to-one and over an hour's departures.
@Suite("the speed bound changes no answer")
struct SpeedBoundTests {
    /// Random pairs among the stops some service calls at, from `start` over 14 hours; `window` seconds of departures.
    static func compare(_ tt: Timetable, start: Instant, queries: Int, window: Int, seed: UInt64) throws -> (journeys: Int, tightest: Double) {
        let planner = JourneyPlanner(tt)
        try #require(planner.index.speedBound != nil, "the bound is in use on this network")
        let served = tt.allStops.filter { planner.callsAt($0) }
        var rng = SeededRandom(seed: seed)
        var journeys = 0, tightest = 0.0
        for _ in 0..<queries {
            let from = served[Int.random(in: 0..<served.count, using: &rng)]
            var to = from
            while to == from { to = served[Int.random(in: 0..<served.count, using: &rng)] }
            var request = JourneyPlanner.Request(from: from, to: to, time: start.adding(seconds: Int64(Int.random(in: 0..<14 * 3600, using: &rng))))
            request.window = window
            request.limit = 100
            let bounded = planner.plan(request, overlay: .empty, cores: 1)
            #expect(bounded == planner.plan(request, overlay: .empty, cores: 1, pruned: false),
                    "\(tt.stopIDString(from)) → \(tt.stopIDString(to)) at \(request.time.epochSeconds), window \(window)")
            // A range's later departures bound its earlier ones only within a lane.
            if window > 0 {
                #expect(bounded == planner.plan(request, overlay: .empty, cores: 2),
                        "\(tt.stopIDString(from)) → \(tt.stopIDString(to)) at \(request.time.epochSeconds), window \(window), two lanes")
            }
            journeys += bounded.count
            // The bound itself: from every stop of every journey found, no sooner at the destination than it says.
            let bound = try #require(RaptorSearch.TimeToDestination(planner, request, overlay: .empty, rounds: request.maxTransfers + 1))
            // The values point into the object's cache: it is kept until they are done with.
            let toDestination = bound.values
            defer { withExtendedLifetime(bound) {} }
            for journey in bounded {
                for leg in journey.legs {
                    let (from, to): (StopIndex, StopIndex) = switch leg {
                    case .ride(let r): (r.from, r.to)
                    case .move(let f, let t, _, _): (f, t)
                    }
                    #expect(journey.arrival.epochSeconds - leg.departure.epochSeconds >= toDestination.seconds(from: from.raw))
                    #expect(journey.arrival.epochSeconds - leg.arrival.epochSeconds >= toDestination.seconds(from: to.raw))
                    tightest = max(tightest, Double(toDestination.seconds(from: from.raw)) / Double(max(journey.arrival.epochSeconds - leg.departure.epochSeconds, 1)))
                }
            }
        }
        return (journeys, tightest)
    }

    /// One-to-one queries and one-hour ranges; `tightest`: how near the bound must come somewhere to the time a journey
    /// takes, for the check to mean something.
    static func check(_ tt: Timetable, start: Instant, oneToOne: Int, ranges: Int, seed: UInt64, tightest: Double) throws {
        let one = try compare(tt, start: start, queries: oneToOne, window: 0, seed: seed)
        let range = try compare(tt, start: start, queries: ranges, window: 3600, seed: seed + 1)
        #expect(one.journeys >= oneToOne && range.journeys >= 2 * ranges, "\(one.journeys) and \(range.journeys) journeys")
        #expect(one.tightest > tightest, "the bound is at most \(one.tightest) of the time left")
    }

    @Test("Halifax: 50 one-to-one queries and 2 one-hour ranges")
    func halifax() throws {
        // Thursday 2025-11-06 from 06:00 in Halifax (UTC-4). The bound comes less near than on the national network:
        // buses going on as other trips a block away take kilometres off every chord.
        try Self.check(try RealFeeds.halifax.get(), start: Clock.local("2025-11-06", "06:00", offsetHours: -4), oneToOne: 50, ranges: 2, seed: 41,
                       tightest: 0.2)
    }

    @Test("the national network: 150 one-to-one queries and 10 one-hour ranges")
    func national() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try NationalNetwork(rows: 120_000, seed: 3).write(to: folder.url)
        // 06:00 in Zurich in March (CET, UTC+1).
        try Self.check(try GTFSImporter.load(paths: [folder.url], names: ["nat"]).timetable, start: Clock.local("2026-03-04", "06:00", offsetHours: 1),
                       oneToOne: 150, ranges: 10, seed: 43, tightest: 0.5)
    }

    @Test("no bound where a ride leaves one place and reaches another in no time, nor with realtime data")
    func whereItDoesNotHold() throws {
        func planner(_ secondStop: String) throws -> JourneyPlanner {
            JourneyPlanner(try InlineFeed.load(timeZone: "UTC", [
                "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA,A,40.0,-74.0\nB,B,40.01,-74.0\nC,C,40.05,-74.0\n",
                "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nR,A,R,R,3\n",
                "trips.txt": "route_id,service_id,trip_id\nR,DAILY,R1\n",
                "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nR1,08:00:00,08:00:00,A,1\n\(secondStop)\nR1,08:20:00,08:20:00,C,3\n",
                "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nDAILY,1,1,1,1,1,1,1,20250101,20251231\n",
            ]).timetable)
        }
        // A to B is 1,112 m: in 2 minutes, 9.3 m/s; in no time, no speed bounds it.
        let timed = try planner("R1,08:02:00,08:02:00,B,2")
        let bound = try #require(timed.index.speedBound)
        #expect(abs(bound.metresPerSecond - 1_111.95 / 120) < 0.05, "\(bound.metresPerSecond) m/s")
        #expect(try planner("R1,08:00:00,08:00:00,B,2").index.speedBound == nil)
        // A search with realtime data does not use it: live times may be faster than the timetable.
        let tt = timed.timetable
        let request = JourneyPlanner.Request(from: try #require(tt.stop(id: "A")), to: try #require(tt.stop(id: "C")), time: Clock.utc("2025-06-02", "07:55"))
        #expect(RaptorSearch(timed, request, overlay: .empty, from: 0, to: 0).toDestination != nil)
        var overlay = RealtimeOverlay.empty
        overlay.liveSlot = [0]
        #expect(RaptorSearch(timed, request, overlay: overlay, from: 0, to: 0).toDestination == nil)
    }
}
