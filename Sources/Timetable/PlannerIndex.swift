import Foundation
import OnwardCore

/// The journey planner's own indices over a `Timetable` (RAPTOR's routes,
/// routes per stop, and the moves between stops), built once per timetable.
///
/// A RAPTOR route is a run of trips that share a stop pattern and a time zone
/// and never overtake one another, so that at every stop they depart in the same
/// order and the earliest trip to catch is a binary search. A pattern whose trips
/// overtake is split into several routes. Frequency-based trips are routes of
/// their own, whose runs are worked out from their headways at query time.
struct PlannerIndex: Sendable {
    /// What the search reads of each route, side by side (`Route`).
    var routes: [Route] = []
    /// The trips of each route, in departure order (`routes[r].trips`).
    var routeTrips: [UInt32] = []
    /// Each trip's start and where its running times are (`Timetable.tripShift`, `tripTimes`), beside it in `routeTrips`.
    var routeTripShift: [Int32] = []
    var routeTripTimes: [UInt32] = []
    /// Where the trips of a route share a few sets of running times (four trips or more to a set, as most of a real
    /// feed's do), a trip's departure from call k is its start plus its set's time there: the sets are few and stay in
    /// the cache, and the route needs no times of its own (`routes[r].timesStart` is `sharedTimes`). Otherwise, the
    /// route's departure times (seconds of its service day) call by call: for call k, one per trip in the route's order
    /// (`timesStart + k * trips + j`). Either way, the search for the run to catch at a call does not read a
    /// time from each trip's own stop times (a cache miss per step, most of a query's time before).
    var routeDepartures: [Int32] = []
    static let sharedTimes = UInt32.max

    /// A RAPTOR route as the search reads it: all in one place, because on a national network each of these in an
    /// array of its own was a cache miss of its own (working out a route's days was a tenth of a query, all of it
    /// waiting for memory).
    struct Route: Sendable {
        /// Where its pattern's calls start in the timetable's `patternStop` and `patternFlags`, and how many there are.
        var callStart: UInt32
        var calls: UInt32
        /// Its trips' places in `routeTrips`.
        var tripsStart: UInt32
        var tripsEnd: UInt32
        /// Where its departure times start in `routeDepartures`, or `sharedTimes`.
        var timesStart: UInt32
        /// The service (calendar) every trip of the route runs on, or `Timetable.none` where they differ:
        /// a route of one service is looked at only on the days it runs, and its trips need no check of their own.
        var service: UInt32
        /// The latest departure of any of the route's runs from any call, in seconds of its service day
        /// (`Int32.max` for a frequency-based route): a day whose runs have all left is not looked at.
        var lastDeparture: Int32
        /// The time zone its trips' times count in.
        var zone: UInt16
        /// Whether it holds one frequency-based trip.
        var isFrequency: Bool

        var callRange: Range<Int> { Int(callStart)..<Int(callStart + calls) }
        var trips: Range<Int> { Int(tripsStart)..<Int(tripsEnd) }
    }
    /// For each trip, the time from its arrival at its route's last call to the next run's there, by the timetable (the
    /// next day's first run after the last): a later run goes on into a trip sooner than this one's vehicle only if that
    /// one waits longer (`seatedContinuations`). Empty when no trip can be ridden on into another.
    var nextRunEndGap: [Int32] = []
    /// For each trip, whether its vehicle may go on as another trip on some day (`seatedContinuations`). Empty when none can.
    var mayGoOn: [Bool] = []
    /// The routes calling at each stop, with the position of the stop in the route's pattern
    /// (`stopRouteStart[s]..<stopRouteStart[s+1]`): side by side, one cache miss for both on a national network.
    var stopRouteStart: [UInt32] = [0]
    var stopRouteCalls: [RouteCall] = []
    struct RouteCall: Sendable {
        var route: UInt32
        var position: UInt16
    }
    func routeCalls(at stop: UInt32) -> Range<Int> { Int(stopRouteStart[Int(stop)])..<Int(stopRouteStart[Int(stop) + 1]) }
    /// The moves that leave each stop: transfers.txt rows (expanded from stations to
    /// their platforms) and walks to stops near enough, with their kind and length.
    /// Walks longer than `nearWalk` are kept apart (`farMoveStart`, `farMoves`): a query asking
    /// for the default then reads only the moves it may take, a tenth of them, from memory
    /// that stays in the cache (a stop's first move was a cache miss, a sixth of a query's time).
    var moveStart: [UInt32] = [0]
    var moves: [Move] = []
    var farMoveStart: [UInt32] = [0]
    var farMoves: [Move] = []
    /// The near moves a request with the default walking speed and walks of `nearWalk` or more takes (every one but a
    /// rule forbidding its move, or one from a stop to itself), in the same order, with their seconds
    /// (`defaultMoves[defaultMoveStart[s]..<defaultMoveStart[s + 1]]`): the search relaxes them from every stop it
    /// improves, and reading a whole `Move` to check what the request allows of each was a third of that work on Halifax.
    var defaultMoveStart: [UInt32] = [0]
    var defaultMoves: [DefaultMove] = []
    struct DefaultMove: Sendable {
        var to: UInt32
        var seconds: Int32
    }
    static let nearWalk: Float = 500
    /// For each stop, what its transfers.txt row from the stop to itself says of a change there:
    /// its minimum in seconds (0 for types 0 and 1), -1 where type 3 forbids it, or `noRule`.
    var sameStopRule: [Int32] = []
    static let noRule = Int32.min
    /// The transfers.txt rules that end at each stop (`to` holds where they start).
    var rulesIntoStart: [UInt32] = [0]
    var rulesInto: [Move] = []

    /// Staying seated (`PlannerIndex+Seated.swift`): each trip's next in its block (block_id) by first departure,
    /// whatever days the two run, or `Timetable.none`.
    var blockNext: [UInt32] = []
    /// transfers.txt's trip-to-trip rules: type 4 (stay on board into `to`) by the trip it starts from, and the pairs
    /// type 5 says must not be ridden through (`from << 32 | to`).
    var seatedInto: [UInt32: [UInt32]] = [:]
    var notSeated: Set<UInt64> = []
    /// Whether any trip can be ridden on into another (worked out once: the search asks each round).
    var hasSeated = false
    /// The network's top speed, for a lower bound on the time to the destination (`PlannerIndex+Speed.swift`); nil
    /// where the timetable cannot bound it.
    var speedBound: SpeedBound?

    /// How far apart two stops may be for the index to keep a walk between them; a
    /// query walks at most its own `maxWalk`, which may not exceed this.
    static let maxWalkIndexed: Double = 2_000

    struct Move: Sendable, Hashable {
        enum Kind: UInt8, Sendable { case walk, platform, rule }
        var to: UInt32
        /// For a walk or a platform change: metres.
        var metres: Float
        /// For a rule of type 2: min_transfer_time, in seconds.
        var minimumSeconds: Int32
        /// For a walk or a platform change: its seconds at the default walking speed (`walkSeconds(atSpeed:)`).
        var defaultSeconds: Int32 = 0
        var kind: Kind
        /// For a rule: transfer_type.
        var ruleType: UInt8

        init(to: UInt32, kind: Kind, metres: Float, ruleType: UInt8, minimumSeconds: Int32) {
            self.to = to; self.kind = kind; self.metres = metres; self.ruleType = ruleType; self.minimumSeconds = minimumSeconds
            if kind != .rule { defaultSeconds = Int32(clamping: walkSeconds(atSpeed: JourneyPlanner.Request.defaultWalkSpeed)) }
        }

        /// The whole seconds a walk of `metres` takes, rounded up.
        func walkSeconds(atSpeed speed: Double) -> Int {
            // Rounded up without `rounded(.up)`, which calls the C library's ceil.
            let exact = Double(metres) / speed, whole = Int(exact)
            return Double(whole) < exact ? whole + 1 : whole
        }

        /// For a rule: the seconds it asks for (min_transfer_time for type 2, none for 0 and 1),
        /// or nil where type 3 forbids the move.
        var ruleSeconds: Int? {
            switch ruleType {
            case 3: nil
            case 2: Int(minimumSeconds)
            default: 0
            }
        }
    }

    func trips(of route: Int) -> ArraySlice<UInt32> { routeTrips[routes[route].trips] }
    /// Rules first, then the platforms of the stop's station, then walks up to `nearWalk`, nearest first.
    func moves(from stop: UInt32) -> ArraySlice<Move> { moves[Int(moveStart[Int(stop)])..<Int(moveStart[Int(stop) + 1])] }
    func rules(into stop: UInt32) -> ArraySlice<Move> { rulesInto[Int(rulesIntoStart[Int(stop)])..<Int(rulesIntoStart[Int(stop) + 1])] }
    var routeCount: Int { routes.count }

    var byteSize: Int {
        routes.count * MemoryLayout<Route>.stride
            + (routeTrips.count + routeTripShift.count + routeTripTimes.count + moveStart.count + farMoveStart.count + rulesIntoStart.count
            + routeDepartures.count + nextRunEndGap.count + sameStopRule.count + defaultMoveStart.count + 2 * defaultMoves.count) * 4
            + mayGoOn.count + stopRouteStart.count * 4 + stopRouteCalls.count * MemoryLayout<RouteCall>.stride + (moves.count + farMoves.count + rulesInto.count) * MemoryLayout<Move>.stride
            + blockNext.count * 4 + seatedInto.count * 32 + notSeated.count * 8 + (speedBound?.points.count ?? 0) * MemoryLayout<SIMD3<Double>>.stride
    }
}

extension PlannerIndex {
    init(_ tt: Timetable) {
        buildRoutes(tt)
        buildRouteTimes(tt)
        buildStopRoutes(tt)
        buildMoves(tt)
        buildSeated(tt)
        buildSpeedBound(tt)
    }

    private mutating func buildRoutes(_ tt: Timetable) {
        var byPattern: [UInt32: [UInt32]] = [:]
        for t in 0..<UInt32(tt.tripCount) where tt.tripPattern[Int(t)] != Timetable.none {
            if tt.isFrequencyBased(TripIndex(raw: t)) {
                addRoute(pattern: tt.tripPattern[Int(t)], trips: [t], frequency: true, tt)
            } else {
                byPattern[tt.tripPattern[Int(t)], default: []].append(t)
            }
        }
        for pattern in byPattern.keys.sorted() {
            let trips = byPattern[pattern]!
            // A route per service (weekdays, Saturdays, Sundays) unless that would make routes of a
            // trip or two (a feed with a service for each trip): scanning many tiny routes costs more
            // than checking each trip's day.
            let services = Dictionary(grouping: trips) { tt.tripService[Int($0)] }
            if services.count <= 3 || trips.count >= 4 * services.count {
                for service in services.keys.sorted() { addChains(pattern: pattern, trips: services[service]!, tt) }
            } else {
                addChains(pattern: pattern, trips: trips, tt)
            }
        }
    }

    /// Routes of trips on one pattern that never overtake one another.
    private mutating func addChains(pattern: UInt32, trips: [UInt32], _ tt: Timetable) {
        let calls = tt.patternRange(pattern).count
        // Sorted by zone, then first departure; each trip joins the first chain it does not overtake.
        let sorted = trips.sorted {
            (tt.tripZone[Int($0)], tt.scheduledDeparture(trip: Int($0), call: 0), $0) < (tt.tripZone[Int($1)], tt.scheduledDeparture(trip: Int($1), call: 0), $1)
        }
        var chains: [[UInt32]] = []
        for t in sorted {
            let fits = chains.firstIndex { chain in
                let last = chain[chain.count - 1]
                guard tt.tripZone[Int(last)] == tt.tripZone[Int(t)] else { return false }
                let a = Int(last), b = Int(t)
                for k in 0..<calls where tt.scheduledDeparture(trip: a, call: k) > tt.scheduledDeparture(trip: b, call: k)
                    || tt.scheduledArrival(trip: a, call: k) > tt.scheduledArrival(trip: b, call: k) { return false }
                return true
            }
            if let i = fits { chains[i].append(t) } else { chains.append([t]) }
        }
        for chain in chains { addRoute(pattern: pattern, trips: chain, frequency: false, tt) }
    }

    private mutating func addRoute(pattern: UInt32, trips: [UInt32], frequency: Bool, _ tt: Timetable) {
        let tripsStart = UInt32(routeTrips.count)
        routeTrips.append(contentsOf: trips)
        routeTripShift.append(contentsOf: trips.map { tt.tripShift[Int($0)] })
        routeTripTimes.append(contentsOf: trips.map { tt.tripTimes[Int($0)] })
        let service = tt.tripService[Int(trips[0])], p = tt.patternRange(pattern)
        let lastDeparture = frequency ? Int32.max : trips.map { t in
            let times = Int(tt.tripTimes[Int(t)])
            return (tt.departures[times..<(times + p.count)].max() ?? 0) + tt.tripShift[Int(t)]
        }.max() ?? 0
        // `timesStart` is set by `buildRouteTimes`.
        routes.append(Route(callStart: UInt32(p.lowerBound), calls: UInt32(p.count), tripsStart: tripsStart, tripsEnd: UInt32(routeTrips.count),
                            timesStart: PlannerIndex.sharedTimes, service: trips.allSatisfy { tt.tripService[Int($0)] == service } ? service : Timetable.none,
                            lastDeparture: lastDeparture, zone: tt.tripZone[Int(trips[0])], isFrequency: frequency))
    }

    private mutating func buildRouteTimes(_ tt: Timetable) {
        for r in 0..<routeCount {
            let trips = self.trips(of: r), calls = Int(routes[r].calls)
            if routes[r].isFrequency || Set(trips.map { tt.tripTimes[Int($0)] }).count * 4 <= trips.count { continue }
            routes[r].timesStart = UInt32(routeDepartures.count)
            for k in 0..<calls {
                for t in trips { routeDepartures.append(tt.scheduledDeparture(trip: Int(t), call: k)) }
            }
        }
    }

    private mutating func buildStopRoutes(_ tt: Timetable) {
        var perStop = [[RouteCall]](repeating: [], count: tt.stopCount)
        for r in 0..<routeCount {
            let p = routes[r].callRange
            for k in 0..<p.count { perStop[Int(tt.patternStop[p.lowerBound + k])].append(RouteCall(route: UInt32(r), position: UInt16(k))) }
        }
        for list in perStop {
            stopRouteCalls.append(contentsOf: list)
            stopRouteStart.append(UInt32(stopRouteCalls.count))
        }
    }

    /// transfers.txt rows at stop level, then rows naming a station for each of its
    /// platforms where no stop-level row names the pair; then walks by coordinates
    /// (within `maxWalkIndexed`) and between platforms of one station. A rule for a
    /// pair replaces the walk between them, and a rule from a stop to itself is kept
    /// for the change there.
    private mutating func buildMoves(_ tt: Timetable) {
        let n = tt.stopCount
        var rules: [UInt64: (type: UInt8, minimum: Int32, stationLevel: Bool)] = [:]
        func key(_ a: UInt32, _ b: UInt32) -> UInt64 { UInt64(a) << 32 | UInt64(b) }
        func platforms(_ s: UInt32) -> [UInt32] {
            tt.stopKind[Int(s)] == StopKind.station.rawValue ? Array(tt.stationChildren[Int(s)]) : [s]
        }
        let table = tt.transfers
        for i in 0..<table.from.count where table.from[i] != Timetable.none && table.to[i] != Timetable.none
            && table.fromTrip[i] == Timetable.none && table.toTrip[i] == Timetable.none && table.type[i] <= 3 {
            let from = table.from[i], to = table.to[i]
            let stationLevel = tt.stopKind[Int(from)] == StopKind.station.rawValue || tt.stopKind[Int(to)] == StopKind.station.rawValue
            for a in platforms(from) {
                for b in platforms(to) {
                    if let existing = rules[key(a, b)], !existing.stationLevel && stationLevel { continue }
                    rules[key(a, b)] = (table.type[i], max(table.minimumSeconds[i], 0), stationLevel)
                }
            }
        }
        var perStop = [[Move]](repeating: [], count: n)
        for (k, rule) in rules {
            let a = UInt32(k >> 32), b = UInt32(k & 0xFFFF_FFFF)
            perStop[Int(a)].append(Move(to: b, kind: .rule, metres: 0, ruleType: rule.type, minimumSeconds: rule.minimum))
        }
        // Walks: a grid of cells about `maxWalkIndexed` wide, so each stop looks at its own cell and the eight around it.
        let cell = PlannerIndex.maxWalkIndexed / 111_000
        var grid: [Int64: [UInt32]] = [:]
        func cellKey(_ lat: Double, _ lon: Double) -> (Int64, Int64) { (Int64((lat / cell).rounded(.down)), Int64((lon / cell).rounded(.down))) }
        for s in 0..<UInt32(n) where tt.stopKind[Int(s)] == StopKind.stop.rawValue && tt.stopLat[Int(s)].isFinite {
            let (y, x) = cellKey(tt.stopLat[Int(s)], tt.stopLon[Int(s)])
            grid[y << 32 ^ x, default: []].append(s)
        }
        for a in 0..<UInt32(n) where tt.stopKind[Int(a)] == StopKind.stop.rawValue && tt.stopLat[Int(a)].isFinite {
            let lat = tt.stopLat[Int(a)], lon = tt.stopLon[Int(a)]
            let (y, x) = cellKey(lat, lon)
            // Longitude cells narrow towards the poles: look as many cells east and west as the width needs.
            let span = Int64(min(8, (1 / max(cos(lat * .pi / 180), 0.125)).rounded(.up)))
            for dy in -1...Int64(1) {
                for dx in -span...span {
                    for b in grid[(y + dy) << 32 ^ (x + dx)] ?? [] where b != a && rules[key(a, b)] == nil {
                        let d = GreatCircle.metres(lat, lon, tt.stopLat[Int(b)], tt.stopLon[Int(b)])
                        let sameStation = tt.stopParent[Int(a)] != Timetable.none && tt.stopParent[Int(a)] == tt.stopParent[Int(b)]
                        if sameStation || d <= PlannerIndex.maxWalkIndexed {
                            perStop[Int(a)].append(Move(to: b, kind: sameStation ? .platform : .walk, metres: Float(d), ruleType: 0, minimumSeconds: 0))
                        }
                    }
                }
            }
            // Platforms of one station far apart (a big interchange) are still one station.
            let parent = tt.stopParent[Int(a)]
            if parent != Timetable.none {
                for b in tt.stationChildren[Int(parent)] where b != a && tt.stopKind[Int(b)] == StopKind.stop.rawValue
                    && rules[key(a, b)] == nil && !perStop[Int(a)].contains(where: { $0.to == b }) {
                    let d = GreatCircle.metres(lat, lon, tt.stopLat[Int(b)], tt.stopLon[Int(b)])
                    perStop[Int(a)].append(Move(to: b, kind: .platform, metres: Float(d), ruleType: 0, minimumSeconds: 0))
                }
            }
        }
        // Rules first, then the station's platforms, then walks nearest first: a query stops
        // reading a stop's moves at the first walk longer than it allows.
        func rank(_ m: Move) -> Int { m.kind == .rule ? 0 : m.kind == .platform ? 1 : 2 }
        for (stop, list) in perStop.enumerated() {
            let sorted = list.sorted { (rank($0), $0.metres, $0.to) < (rank($1), $1.metres, $1.to) }
            let far = sorted.firstIndex { $0.kind == .walk && $0.metres > Self.nearWalk } ?? sorted.count
            moves.append(contentsOf: sorted[..<far])
            moveStart.append(UInt32(moves.count))
            for m in sorted[..<far] where m.to != UInt32(stop) {
                if m.kind != .rule {
                    defaultMoves.append(DefaultMove(to: m.to, seconds: m.defaultSeconds))
                } else if let seconds = m.ruleSeconds {
                    defaultMoves.append(DefaultMove(to: m.to, seconds: Int32(clamping: seconds)))
                }
            }
            defaultMoveStart.append(UInt32(defaultMoves.count))
            farMoves.append(contentsOf: sorted[far...])
            farMoveStart.append(UInt32(farMoves.count))
            let own = list.first { $0.kind == .rule && $0.to == UInt32(stop) }
            sameStopRule.append(own.map { $0.ruleSeconds.map(Int32.init) ?? -1 } ?? PlannerIndex.noRule)
        }
        // The rules into each stop, for the moves to a destination after the last ride.
        var into = [[Move]](repeating: [], count: n)
        for a in 0..<n {
            for m in moves[Int(moveStart[a])..<Int(moveStart[a + 1])] where m.kind == .rule && m.to != UInt32(a) {
                into[Int(m.to)].append(Move(to: UInt32(a), kind: .rule, metres: 0, ruleType: m.ruleType, minimumSeconds: m.minimumSeconds))
            }
        }
        for list in into {
            rulesInto.append(contentsOf: list)
            rulesIntoStart.append(UInt32(rulesInto.count))
        }
    }
}
