import Foundation
import GTFS
import OnwardCore
import OnwardTesting
import Testing
import Timetable

/// The national network the country-scale figures are measured on (`onward-bench synth --national`), made small:
/// what it promises (towns with their own stops, rail between them with changes at shared stations, nights past
/// midnight, holidays, transfers, the size asked for, the same feed from the same seed) holds, and it imports cleanly.
@Suite("a national network made from a seed")
struct NationalNetworkTests {
    static let network = NationalNetwork(rows: 200_000, seed: 7)

    /// The files compared and read below are kept in memory, and their folder removed: a static lives to the end of the
    /// run, so a folder kept with it was left behind in the temporary directory.
    static let comparedFiles = ["stops.txt", "trips.txt", "stop_times.txt", "transfers.txt"]
    static let imported = Result<(Timetable, [String: Data]), any Error> {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try network.write(to: folder.url)
        let result = try GTFSImporter.load(paths: [folder.url], names: ["nat"])
        #expect(result.notices.isEmpty, "\(result.notices.prefix(3))")
        var files: [String: Data] = [:]
        for file in comparedFiles { files[file] = try Data(contentsOf: folder.file(file)) }
        return (result.timetable, files)
    }

    @Test("about the size asked for, from the same seed the same feed, and imported without a notice")
    func sizeAndSeed() throws {
        let (tt, files) = try Self.imported.get()
        #expect(abs(tt.stopTimeCount - 200_000) < 20_000, "\(tt.stopTimeCount) stop_times")
        // Stops: rows / 500, with each town's station (a parent, a platform and the bus stop) on top.
        #expect(abs(tt.stopCount - 400) < 80, "\(tt.stopCount) stops")
        let again = try TemporaryFolder()
        defer { again.remove() }
        _ = try Self.network.write(to: again.url)
        for file in Self.comparedFiles {
            #expect(try files[file] == Data(contentsOf: again.file(file)), "\(file) differs")
        }
        let other = try TemporaryFolder()
        defer { other.remove() }
        _ = try NationalNetwork(rows: 200_000, seed: 8).write(to: other.url)
        #expect(try files["stops.txt"] != Data(contentsOf: other.file("stops.txt")))
    }

    @Test("each town's buses call at its own stops; trains call at stations; a night bus runs past midnight; holidays run the Sunday service")
    func structure() throws {
        let (tt, files) = try Self.imported.get()
        let times = String(decoding: try #require(files["stop_times.txt"]), as: UTF8.self).split(separator: "\n").dropFirst()
        var pastMidnight = 0
        for row in times {
            let f = row.split(separator: ",", omittingEmptySubsequences: false)
            let trip = f[0], stop = f[3]
            if trip.hasPrefix("B") {
                // B{town}_{line}_… calls at T{town}S… or T{town}B (the bus stop at the station).
                let town = trip.dropFirst().prefix { $0 != "_" }
                #expect(stop.hasPrefix("T\(town)S") || stop == "T\(town)B", "\(trip) calls at \(stop)")
            } else {
                #expect(stop.hasPrefix("T") && stop.hasSuffix("R"), "\(trip) calls at \(stop)")
            }
            if let hour = Int(f[1].prefix(2)), hour >= 24 { pastMidnight += 1 }
        }
        #expect(pastMidnight > 0)
        // Good Friday 2026-04-03: the weekday service does not run, the Sunday one does.
        let friday = try #require(ServiceDate(iso: "2026-04-03")), thursday = try #require(ServiceDate(iso: "2026-04-02"))
        let weekdayBus = try #require(tt.trip(id: "nat:B0_0_WD_420_0")), sundayBus = try #require(tt.trip(id: "nat:B0_0_SU_420_0"))
        #expect(tt.runs(weekdayBus, on: thursday) && !tt.runs(weekdayBus, on: friday))
        #expect(!tt.runs(sundayBus, on: thursday) && tt.runs(sundayBus, on: friday))
    }

    @Test("from a village bus stop to another town's: the journey changes to a train at one station and back to a bus at another")
    func acrossTheCountry() throws {
        let (tt, _) = try Self.imported.get()
        let planner = JourneyPlanner(tt)
        // 08:00 in Zurich in March (CET, UTC+1).
        let time = Clock.local("2026-03-04", "08:00", offsetHours: 1)
        let from = try #require(tt.stop(id: "nat:T1S3")), to = try #require(tt.stop(id: "nat:T12S2"))
        let first = try #require(planner.plan(.init(from: from, to: to, time: time)).first)
        let routes = first.legs.compactMap { leg -> String? in
            guard case .ride(let r) = leg else { return nil }
            return tt.routeInfo(tt.route(of: r.instance.trip)).id
        }
        #expect(routes.first?.hasPrefix("nat:B1_") == true && routes.last?.hasPrefix("nat:B12_") == true, "\(routes)")
        #expect(routes.contains { $0.hasPrefix("nat:R") || $0.hasPrefix("nat:IC") }, "\(routes)")
    }
}

/// The planner's earliest arrival on the national network, checked against a plain connection scan written here
/// from the timetable's public answers (each trip's calls on each day), for random pairs and times. The rules are the
/// planner's with walking off (`maxWalk` 0, so that no coordinates are involved): a change at one stop takes the
/// 60 s slack, or transfers.txt's time from the stop to itself when longer (2 minutes on a rail platform); the rule
/// between a station's platform and its bus stop takes its 3 minutes (without the slack from the origin, and to the
/// destination); at most 6 rides.
@Suite("the planner against a connection scan on a national network")
struct NationalNetworkScanTests {
    struct Connection {
        var trip: Int32, from: Int32, to: Int32, departure: Int64, arrival: Int64
    }

    /// Every connection of the trips that run on the day before, the day and the day after, by departure.
    static func connections(_ tt: Timetable, around date: ServiceDate) throws -> [Connection] {
        var out: [Connection] = []
        for (n, offset) in [-1, 0, 1].enumerated() {
            let day = ServiceDate(dayNumber: date.dayNumber + Int32(offset))
            for t in 0..<UInt32(tt.tripCount) where tt.runs(TripIndex(raw: t), on: day) {
                let calls = try tt.service(TripIndex(raw: t), on: day).calls
                let id = Int32(Int(t) * 3 + n)
                for (a, b) in zip(calls, calls.dropFirst()) {
                    out.append(Connection(trip: id, from: Int32(tt.stop(id: a.stopID)!.raw), to: Int32(tt.stop(id: b.stopID)!.raw),
                                          departure: a.scheduledDeparture.epochSeconds, arrival: b.scheduledArrival.epochSeconds))
                }
            }
        }
        return out.sorted { $0.departure < $1.departure }
    }

    /// The earliest arrival at `to` leaving `from` at `start`, with at most `maxRides` rides.
    static func scan(_ connections: [Connection], stops: Int, tripSlots: Int, from: Int, to: Int, start: Int64,
                     change: (Int) -> Int, rules: [Int: [(to: Int, seconds: Int)]], walks: [Int: [(to: Int, seconds: Int)]] = [:],
                     maxRides: Int = 6) -> Int64? {
        let never = Int64.max
        // ready[k * stops + s]: when one can board at s having ridden k times (or fewer).
        var ready = [Int64](repeating: never, count: (maxRides + 1) * stops)
        var onTrip = [Int8](repeating: Int8.max, count: tripSlots)
        var best = never
        func reached(_ s: Int, _ k: Int, _ time: Int64) {
            for j in k...maxRides where time < ready[j * stops + s] { ready[j * stops + s] = time }
        }
        reached(from, 0, start)
        for move in (rules[from] ?? []) + (walks[from] ?? []) { reached(move.to, 0, start + Int64(move.seconds)) }
        for c in connections where c.departure >= start {
            if c.departure >= best { break }
            var rides = Int(onTrip[Int(c.trip)])
            if rides > maxRides {
                // Boarding here: the fewest rides before it that let one be at the stop in time.
                if let k = (0..<maxRides).first(where: { ready[$0 * stops + Int(c.from)] <= c.departure }) { rides = k + 1 }
            } else if let k = (0..<(rides - 1)).first(where: { ready[$0 * stops + Int(c.from)] <= c.departure }) {
                rides = k + 1
            }
            guard rides <= maxRides else { continue }
            onTrip[Int(c.trip)] = Int8(rides)
            let s = Int(c.to), a = c.arrival
            if s == to { best = min(best, a) }
            for move in (rules[s] ?? []) + (walks[s] ?? []) where move.to == to { best = min(best, a + Int64(move.seconds)) }
            guard rides < maxRides else { continue }
            reached(s, rides, a + Int64(change(s)))
            for move in (rules[s] ?? []) + (walks[s] ?? []) { reached(move.to, rides, a + Int64(max(60, move.seconds))) }
        }
        return best == never ? nil : best
    }

    @Test("200 random pairs on a weekday: the same earliest arrival, with no walks and with walks of up to 500 m", arguments: [0.0, 500])
    func sameEarliestArrival(maxWalk: Double) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try NationalNetwork(rows: 120_000, seed: 3).write(to: folder.url)
        let tt = try GTFSImporter.load(paths: [folder.url], names: ["nat"]).timetable
        let date = try #require(ServiceDate(iso: "2026-03-04"))
        let connections = try Self.connections(tt, around: date)
        // transfers.txt, read from the timetable's own rules: platform to itself, platform and bus stop both ways.
        var rules: [Int: [(to: Int, seconds: Int)]] = [:], sameStop: [Int: Int] = [:]
        for s in tt.allStops {
            for r in tt.transfers(from: s) where r.fromStopID == tt.stopIDString(s) {
                guard let to = r.toStopID.flatMap({ tt.stop(id: $0) }), let seconds = r.minimumSeconds else { continue }
                if to == s { sameStop[Int(s.raw)] = seconds } else { rules[Int(s.raw), default: []].append((Int(to.raw), seconds)) }
            }
        }
        // Walks: between stops (not stations) within `maxWalk` of each other that no rule joins, at 1.33 m/s rounded
        // up to the second; the platforms of one station at any distance.
        var walks: [Int: [(to: Int, seconds: Int)]] = [:]
        if maxWalk > 0 {
            let places = tt.allStops.map { tt.place($0) }
            var byCell: [Int64: [Int]] = [:]
            for (i, p) in places.enumerated() where p.kind == .stop { byCell[Int64((p.latitude * 100).rounded(.down)) << 32 ^ Int64((p.longitude * 100).rounded(.down)), default: []].append(i) }
            for (i, p) in places.enumerated() where p.kind == .stop {
                let y = Int64((p.latitude * 100).rounded(.down)), x = Int64((p.longitude * 100).rounded(.down))
                for dy in -1...Int64(1) {
                    for dx in -1...Int64(1) {
                        for j in byCell[(y + dy) << 32 ^ (x + dx)] ?? [] where j != i && !(rules[i] ?? []).contains(where: { $0.to == j }) {
                            let metres = GreatCircle.metres(p.latitude, p.longitude, places[j].latitude, places[j].longitude)
                            let sameStation = p.parentID != nil && p.parentID == places[j].parentID
                            guard sameStation || metres <= maxWalk else { continue }
                            walks[i, default: []].append((j, Int((metres / 1.33).rounded(.up))))
                        }
                    }
                }
            }
        }
        let planner = JourneyPlanner(tt)
        let served = tt.allStops.filter { planner.callsAt($0) }
        var random = SeededRandom(seed: 26)
        var compared = 0, unreachable = 0, walkingMatters = 0
        for _ in 0..<200 {
            let from = served.randomElement(using: &random)!, to = served.randomElement(using: &random)!
            guard from != to else { continue }
            // 06:00–22:00 in Zurich in March (CET, UTC+1).
            let start = Clock.local("2026-03-04", "06:00", offsetHours: 1).adding(seconds: Int64.random(in: 0..<16 * 3600, using: &random))
            var request = JourneyPlanner.Request(from: from, to: to, time: start)
            request.maxWalk = maxWalk
            let planned = planner.plan(request).map(\.arrival.epochSeconds).min()
            let scanned = Self.scan(connections, stops: tt.stopCount, tripSlots: tt.tripCount * 3, from: Int(from.raw), to: Int(to.raw),
                                    start: start.epochSeconds, change: { max(60, sameStop[$0] ?? 0) }, rules: rules, walks: walks)
            #expect(planned == scanned, "\(tt.stopIDString(from)) → \(tt.stopIDString(to)) at \(start.epochSeconds)")
            if maxWalk > 0, scanned != Self.scan(connections, stops: tt.stopCount, tripSlots: tt.tripCount * 3, from: Int(from.raw), to: Int(to.raw),
                                                 start: start.epochSeconds, change: { max(60, sameStop[$0] ?? 0) }, rules: rules) {
                walkingMatters += 1
            }
            compared += 1
            if scanned == nil { unreachable += 1 }
        }
        #expect(compared > 190 && unreachable < compared / 4, "\(unreachable) of \(compared) pairs unreachable")
        // With walks allowed, they change the answer for some pairs: the check covers them.
        #expect(maxWalk == 0 || walkingMatters >= 10, "walks changed \(walkingMatters) of \(compared) answers")
    }
}
