import Foundation
import GTFS
import OnwardCore
import OnwardTesting
import Testing
import Timetable

/// Issue 26, items 2 and 6: on a feed made in the test from a seed, with vehicles that go on from one trip into the
/// next (block_id), trips a type-4 rule joins, pairs a type-5 rule parts, and trips realtime data added, the planner's
/// earliest arrival equals a plain connection scan's, written here from the test's own trips (not the timetable's).
@Suite("the planner against a connection scan, with blocks, in-seat rules and added trips")
struct SeatedScanTests {
    /// A trip as the test made it: its stops and times (seconds of the day), its block, and its place in the feed.
    struct Trip {
        var id: String
        var block: String
        var stops: [Int]
        var times: [Int]
        var skipped: Set<Int> = []
    }

    /// Stops 0–12; patterns a vehicle runs in turn, each starting where the last ended.
    static let cycles: [[[Int]]] = [
        [[0, 1, 2, 3, 4], [4, 5, 6, 7], [7, 6, 5, 4], [4, 3, 2, 1, 0]],
        [[2, 8, 9, 10], [10, 9, 8, 2]],
    ]
    static let shuttles: [[Int]] = [[5, 11, 12], [12, 11, 5]]

    struct World {
        var trips: [Trip] = []
        /// Type 4 and type 5 rules, by trip ID.
        var seated: [(String, String)] = []
        var parted: Set<String> = []
        var added: [Trip] = []
    }

    /// Vehicles start every `headway` from 06:00 and run the same times, so each route's runs keep their order.
    static func world(seed: UInt64) -> World {
        var random = SeededRandom(seed: seed)
        var w = World()
        for (c, cycle) in cycles.enumerated() {
            let hop = Int.random(in: 120...300, using: &random), layover = [0, 30, 60, 240].randomElement(using: &random)!
            let headway = Int.random(in: 600...1_500, using: &random)
            var vehicle = 0
            while 6 * 3600 + vehicle * headway < 9 * 3600 {
                var t = 6 * 3600 + vehicle * headway
                for lap in 0..<3 {
                    for (n, pattern) in cycle.enumerated() {
                        let id = "c\(c)v\(vehicle)l\(lap)p\(n)"
                        w.trips.append(Trip(id: id, block: "c\(c)v\(vehicle)", stops: pattern, times: pattern.indices.map { t + $0 * hop }))
                        t += (pattern.count - 1) * hop + layover
                    }
                }
                vehicle += 1
            }
        }
        // Some ends of a block's trips where the traveller must get off.
        for (a, b) in zip(w.trips, w.trips.dropFirst()) where a.block == b.block && Int.random(in: 0..<5, using: &random) == 0 {
            w.parted.insert(a.id + " " + b.id)
        }
        // Shuttles with no block; each run out joined to the run back by a type-4 rule, as often as not.
        let hop = 200
        for run in 0..<20 {
            let out = 6 * 3600 + run * 700, back = out + 2 * hop + Int.random(in: 0...90, using: &random)
            w.trips.append(Trip(id: "s\(run)o", block: "", stops: shuttles[0], times: [out, out + hop, out + 2 * hop]))
            w.trips.append(Trip(id: "s\(run)b", block: "", stops: shuttles[1], times: [back, back + hop, back + 2 * hop]))
            if Bool.random(using: &random) { w.seated.append(("s\(run)o", "s\(run)b")) }
        }
        // Trips added by realtime data: across the network, one with a call it skips.
        for n in 0..<4 {
            var stops = Array(Set((0..<6).map { _ in Int.random(in: 0...12, using: &random) })).shuffled(using: &random)
            if stops.count < 3 { stops += [12, 0].filter { !stops.contains($0) } }
            let start = Int.random(in: 6 * 3600...9 * 3600, using: &random)
            var trip = Trip(id: "x\(n)", block: "", stops: stops, times: stops.indices.map { start + $0 * 150 })
            if n == 0 { trip.skipped = [1] }
            w.added.append(trip)
        }
        return w
    }

    static func files(_ w: World) -> [String: String] {
        func clock(_ s: Int) -> String { String(format: "%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) }
        var stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for trip in w.trips {
            for (k, (s, t)) in zip(trip.stops, trip.times).enumerated() { stopTimes += "\(trip.id),\(clock(t)),\(clock(t)),S\(s),\(k + 1)\n" }
        }
        var transfers = "from_stop_id,to_stop_id,from_trip_id,to_trip_id,transfer_type,min_transfer_time\n"
        for (a, b) in w.seated { transfers += ",,\(a),\(b),4,\n" }
        for pair in w.parted { let p = pair.split(separator: " "); transfers += ",,\(p[0]),\(p[1]),5,\n" }
        return [
            // 0.05° apart (over 4 km): no walk between stops.
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\n" + (0...12).map { "S\($0),Stop \($0),\(40 + Double($0) * 0.05),-74" }.joined(separator: "\n"),
            "routes.txt": "route_id,route_short_name,route_long_name,route_type\nR,1,One,3\n",
            "trips.txt": "route_id,service_id,trip_id,block_id\n" + w.trips.map { "R,DAILY,\($0.id),\($0.block)" }.joined(separator: "\n"),
            "stop_times.txt": stopTimes,
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nDAILY,1,1,1,1,1,1,1,20250101,20251231\n",
            "transfers.txt": transfers,
        ]
    }

    struct Connection {
        var trip: Int, from: Int, to: Int, departure: Int, arrival: Int
    }

    /// The earliest arrival at `to` leaving `origin` at `start` (seconds of the day) with at most 6 boardings and 60 s to
    /// change, staying seated from a trip into the next of its block (unless parted) or into the trip a rule names,
    /// when that leaves no earlier than the first arrives.
    static func scan(_ w: World, from origin: Int, to: Int, start: Int) -> Int? {
        // The day's trips, the next day's (a journey found late may end on them), then the added ones.
        let n = w.trips.count
        let all = w.trips + w.trips.map { var t = $0; t.times = t.times.map { $0 + 86_400 }; return t } + w.added
        var connections: [Connection] = []
        for (n, trip) in all.enumerated() {
            let calls = trip.stops.indices.filter { !trip.skipped.contains($0) }
            for (a, b) in zip(calls, calls.dropFirst()) {
                connections.append(Connection(trip: n, from: trip.stops[a], to: trip.stops[b], departure: trip.times[a], arrival: trip.times[b]))
            }
        }
        connections.sort { $0.departure < $1.departure }
        // The trips each trip may be stayed on from.
        var stayedFrom: [Int: [Int]] = [:]
        let place = Dictionary(uniqueKeysWithValues: w.trips.enumerated().map { ($1.id, $0) })
        for day in [0, n] {
            for (a, b) in zip(w.trips.indices, w.trips.indices.dropFirst())
                where !w.trips[a].block.isEmpty && w.trips[a].block == w.trips[b].block && !w.parted.contains(w.trips[a].id + " " + w.trips[b].id) {
                stayedFrom[day + b, default: []].append(day + a)
            }
            for (a, b) in w.seated { stayedFrom[day + place[b]!, default: []].append(day + place[a]!) }
        }
        let maxRides = 6, never = Int.max, stops = 13
        // ready[k * stops + s]: when one can board at s having ridden k times (or fewer).
        var ready = [Int](repeating: never, count: (maxRides + 1) * stops)
        var onTrip = [Int](repeating: Int.max, count: all.count)
        var best = never
        for k in 0...maxRides { ready[k * stops + origin] = start }
        for c in connections where c.departure >= start {
            if c.departure >= best { break }
            var rides = onTrip[c.trip]
            // At a trip's first call: on board already when on a trip it goes on from, which has arrived by now.
            if c.from == all[c.trip].stops[0] {
                for a in stayedFrom[c.trip] ?? [] where all[a].times.last! <= c.departure { rides = min(rides, onTrip[a]) }
            }
            if let k = (0..<min(rides, maxRides + 1) - 1).first(where: { ready[$0 * stops + c.from] <= c.departure }) { rides = k + 1 }
            guard rides <= maxRides else { continue }
            onTrip[c.trip] = rides
            if c.to == to { best = min(best, c.arrival) }
            guard rides < maxRides else { continue }
            for k in rides...maxRides where c.arrival + 60 < ready[k * stops + c.to] { ready[k * stops + c.to] = c.arrival + 60 }
        }
        return best == never ? nil : best
    }

    @Test("200 random pairs and times: the same earliest arrival", arguments: [UInt64(7), 26])
    func sameEarliestArrival(seed: UInt64) throws {
        let w = Self.world(seed: seed)
        let tt = try InlineFeed.load(timeZone: "UTC", Self.files(w)).timetable
        let planner = JourneyPlanner(tt)
        let day = Clock.utc("2025-06-02", "00:00").epochSeconds
        var overlay = RealtimeOverlay()
        overlay.added = try w.added.map { trip in
            AddedTrip(id: "test:\(trip.id)", route: nil, headsign: "", serviceDay: ServiceDate(iso: "2025-06-02")!.dayNumber, calls: try trip.stops.indices.map { k in
                AddedTrip.Call(stop: try #require(tt.stop(id: "S\(trip.stops[k])")), arrival: day + Int64(trip.times[k]), departure: day + Int64(trip.times[k]),
                               skipped: trip.skipped.contains(k))
            })
        }
        overlay.reindex(timetable: tt)
        var random = SeededRandom(seed: seed + 100)
        var compared = 0, unreachable = 0, seatedUsed = 0, addedUsed = 0
        for _ in 0..<200 {
            let from = Int.random(in: 0...12, using: &random), to = Int.random(in: 0...12, using: &random)
            guard from != to else { continue }
            let start = Int.random(in: 6 * 3600...10 * 3600, using: &random)
            var request = JourneyPlanner.Request(from: try #require(tt.stop(id: "S\(from)")), to: try #require(tt.stop(id: "S\(to)")),
                                                 time: Instant(epochSeconds: day + Int64(start)))
            request.maxWalk = 0
            let journeys = planner.plan(request, overlay: overlay)
            let planned = journeys.map(\.arrival.epochSeconds).min().map { Int($0 - day) }
            #expect(planned == Self.scan(w, from: from, to: to, start: start), "S\(from) → S\(to) at \(start)")
            compared += 1
            if planned == nil { unreachable += 1 }
            let rides = journeys.flatMap(\.legs).compactMap { if case .ride(let r) = $0 { r } else { nil } }
            if rides.contains(where: \.staysSeated) { seatedUsed += 1 }
            if rides.contains(where: { $0.addedTrip != nil }) { addedUsed += 1 }
        }
        // The check means something: most pairs are reachable, and answers stay on board and ride added trips.
        #expect(compared > 170 && unreachable < compared / 4 && seatedUsed > 20 && addedUsed > 3,
                "\(unreachable) of \(compared) unreachable; \(seatedUsed) stayed seated, \(addedUsed) rode an added trip")
    }
}
