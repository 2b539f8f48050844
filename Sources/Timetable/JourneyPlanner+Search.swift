import OnwardCore

/// The RAPTOR rounds. Round k rides k vehicles. Two labels per stop and round:
/// when one can be there having ridden (`arrival`), and when one can board there
/// for the next ride (`board`: after the change, or a move from a nearby stop).
/// Labels are kept across the departures of a range query (rRAPTOR: a later
/// departure's labels bound an earlier one's), which is why the search is a type.
struct RaptorSearch {
    let planner: JourneyPlanner
    let request: JourneyPlanner.Request
    let overlay: RealtimeOverlay
    let rounds: Int
    let stopCount: Int
    /// The labels (`RaptorLabels`), per round, per stop (`round * stopCount + stop`): `arrival`, with the run ridden
    /// there (`arrivalRun`), the call it was boarded at (`arrivalBoardCall`) and the call left at (`arrivalCall`);
    /// `board`, with the stop a move to here came from (`boardFrom`, `none` when one boards where one arrived, or at
    /// the origin) and its seconds (`boardMoveSeconds`).
    /// `arrivalChain`: where the traveller stayed on board into later trips to arrive here, for a label whose
    /// `arrivalBoardCall` has its top bit set (`seatedFlag`): an index into `chains` (the runs ridden, in order, the
    /// first boarded at the call the other bits give). Empty when no trip goes on as another: most labels are of one
    /// run, and a fourth column written with each would slow every search (by 12–15% on WMATA and the national network).
    /// `bestArrival` and `bestBoard`: the best at each stop over all rounds of one departure, for pruning. Not kept
    /// from one departure to the next, as the labels of each round are: a later departure reaching a stop first with
    /// more rides must not hide an earlier one reaching it with fewer.
    let labels: RaptorLabels
    /// A lower bound on the time from a stop to the destination (`SpeedBound.swift`), or nil.
    let toDestination: TimeToDestination?
    static let seatedFlag: UInt16 = 0x8000
    var chains: [[JourneyPlanner.Run]] = []
    let origins: [UInt32]
    /// For each stop, the destination stop reached from it after the last ride and the move's seconds
    /// (`egressTo` is `none` where there is none; a destination stop reaches itself in 0 s).
    var egressTo: [UInt32]
    var egressSeconds: [Int32]
    /// The routes calling at a stop the destination is reached from (`egressTo`): each round scans them first, and the
    /// destination's arrival in the round bounds the rest of its scan. Empty without pruning.
    private(set) var reachesDestination: [Bool] = []
    /// For a range query, per number of rides k, the best arrival at the destination with at most k rides of the
    /// departures this search ran so far (each later than the one it runs now): a label of round k that cannot beat it
    /// leads only to journeys one of a later departure beats (leaving later, arriving no later, with no more changes),
    /// or to ones leaving after the window that `JourneyPlanner.listed` does not list. Empty for one departure, or
    /// without pruning.
    private(set) var laterBest: [Int64] = []
    /// Whether an arrival at the destination bounds the rest of its round (with pruning).
    var boundsWithinRound: Bool { !reachesDestination.isEmpty }

    /// `bound` lowered by an arrival at `stop` at `a`, when the destination is reached from there and the search bounds
    /// within a round.
    @inline(__always) func lowered(_ bound: Int64, arriving a: Int64, at stop: UInt32) -> Int64 {
        guard boundsWithinRound, egressTo[Int(stop)] != Self.none else { return bound }
        return min(bound, a + Int64(egressSeconds[Int(stop)]))
    }
    /// The search's first departure, and the service days it looks at.
    let t0: Int64
    let days: JourneyPlanner.SearchDays
    /// Each route's days (`JourneyPlanner.routeDays`) with bit 15 set once worked out; 0 until then.
    var routeDays: [UInt16]
    /// The calls of trips realtime data added, by stop: (place in the overlay's `added`, call). Empty without any.
    let addedCalls: [UInt32: [(trip: Int, call: Int)]]

    /// The destination reached after some rides: at `via` by the last ride, then a move to `to` (or `via` itself).
    struct Reached {
        var rides: Int
        var arrival: Int64
        var via: UInt32
        var to: UInt32
        var moveSeconds: Int
    }

    static let unreached = Int64.max
    static let none = UInt32.max

    /// A search for departures from `t0` to `t1`.
    init(_ planner: JourneyPlanner, _ request: JourneyPlanner.Request, overlay: RealtimeOverlay, from t0: Int64, to t1: Int64, pruned: Bool = true) {
        self.planner = planner
        self.request = request
        self.overlay = overlay
        self.t0 = t0
        days = planner.searchDays(from: t0, to: t1)
        routeDays = Array(repeating: 0, count: planner.index.routeCount)
        rounds = max(request.maxTransfers, 0) + 1
        stopCount = planner.timetable.stopCount
        toDestination = pruned ? TimeToDestination(planner, request, overlay: overlay, rounds: rounds) : nil
        labels = planner.labelPool.take(cells: (rounds + 1) * stopCount, stops: stopCount, routes: planner.index.routeCount, seated: planner.index.hasSeated)
        var addedCalls: [UInt32: [(trip: Int, call: Int)]] = [:]
        // The feed says nothing of an added trip's access: it is not offered to a traveller asking for step-free journeys.
        if !request.wheelchair {
            for (t, trip) in overlay.added.enumerated() {
                for (k, call) in trip.calls.enumerated() where !call.skipped { addedCalls[call.stop.raw, default: []].append((t, k)) }
            }
        }
        self.addedCalls = addedCalls
        origins = planner.timetable.boardStops(request.from)
        egressTo = Array(repeating: Self.none, count: stopCount)
        egressSeconds = Array(repeating: 0, count: stopCount)
        var near: [UInt32] = []
        for d in planner.timetable.boardStops(request.to) {
            setEgress(from: d, to: d, seconds: 0)
            near.append(d)
            // Walks and platform changes go both ways; rules only the way they are written.
            Self.forEachMove(planner.index, request, from: d, rules: false) { to, sec in setEgress(from: to, to: d, seconds: sec); near.append(to) }
            for m in planner.index.rules(into: d) {
                near.append(m.to)
                if let sec = moveSeconds(m) { setEgress(from: m.to, to: d, seconds: sec) } else if egressTo[Int(m.to)] == d { egressTo[Int(m.to)] = Self.none }
            }
        }
        if t1 > t0 && pruned { laterBest = Array(repeating: Self.unreached, count: rounds + 2) }
        if pruned {
            var reaches = Array(repeating: false, count: planner.index.routeCount)
            for s in near where egressTo[Int(s)] != Self.none {
                for i in planner.index.routeCalls(at: s) { reaches[Int(planner.index.stopRouteCalls[i].route)] = true }
            }
            reachesDestination = reaches
        }
    }

    private mutating func setEgress(from s: UInt32, to d: UInt32, seconds: Int) {
        if egressTo[Int(s)] == Self.none || Int(egressSeconds[Int(s)]) > seconds {
            egressTo[Int(s)] = d
            egressSeconds[Int(s)] = Int32(seconds)
        }
    }

    /// Route `r`'s days (see `JourneyPlanner.routeDays`), worked out on first use. Static, as
    /// `forEachMove` is, so that it never copies the search.
    static func days(of r: Int, _ cache: inout [UInt16], _ planner: JourneyPlanner, _ days: JourneyPlanner.SearchDays, from t0: Int64,
                     overlay: RealtimeOverlay) -> UInt16 {
        if cache[r] == 0 { cache[r] = planner.routeDays(r, days, from: t0, overlay: overlay) | 0x8000 }
        return cache[r] & 0x7FFF
    }

    // MARK: One departure

    /// Runs the rounds for a departure at `t` from the origin. Returns, per number
    /// of rides, the destination arrival improved in this run (and how it was reached).
    mutating func run(departingAt t: Int64) -> [Reached] {
        let labels = self.labels, arrival = labels.arrival, isMarked = labels.isMarked, toDestination = self.toDestination?.values
        labels.clearBest()
        // `firstCall` and `lastCall` are left as they started by each round's scan; `isMarked` by each round, but is cheap to make sure of.
        isMarked.update(repeating: false)
        var marked = StopList(labels.markedRoom), improved = StopList(labels.improvedRoom)
        for o in origins {
            improveBoard(round: 0, stop: o, time: t, from: Self.none, seconds: 0, bound: Self.unreached, toDestination, marked: &marked)
            Self.forEachMove(planner.index, request, from: o) { to, s in
                improveBoard(round: 0, stop: to, time: t + Int64(s), from: o, seconds: s, bound: Self.unreached, toDestination, marked: &marked)
            }
        }
        var found: [Reached] = []
        var bestAtDestination = Self.unreached
        for k in 1...rounds {
            if marked.isEmpty { break }
            for s in marked { isMarked[Int(s)] = false }
            scanRoutes(round: k, marked: marked, bound: bound(bestAtDestination, rides: k), toDestination, improved: &improved)
            marked.removeAll()
            // The destination, reached by a ride, or by a move after the last ride.
            var best: Reached?
            for s in improved where egressTo[Int(s)] != Self.none {
                let a = arrival[k * stopCount + Int(s)] + Int64(egressSeconds[Int(s)])
                if best == nil || a < best!.arrival {
                    best = Reached(rides: k, arrival: a, via: s, to: egressTo[Int(s)], moveSeconds: Int(egressSeconds[Int(s)]))
                }
            }
            if let best, best.arrival < bestAtDestination {
                bestAtDestination = best.arrival
                found.append(best)
            }
            if k == rounds { break }
            // A board label of round k is for ride k + 1.
            let boardBound = bound(bestAtDestination, rides: k + 1)
            for s in improved {
                let a = arrival[k * stopCount + Int(s)]
                // Nothing boarded after the best arrival at the destination so far can arrive before it.
                guard Self.mayBeat(boardBound, from: s, at: a, toDestination) else { continue }
                if let change = sameStopChange(s) {
                    improveBoard(round: k, stop: s, time: a + Int64(change), from: Self.none, seconds: 0, bound: boardBound, toDestination,
                                 marked: &marked)
                }
                let slack = request.transferSlack
                Self.forEachMove(planner.index, request, from: s) { to, sec in
                    improveBoard(round: k, stop: to, time: a + Int64(max(slack, sec)), from: s, seconds: sec, bound: boardBound, toDestination,
                                 marked: &marked)
                }
            }
        }
        // What this departure reached bounds the earlier ones searched next (with as many rides or more).
        if !laterBest.isEmpty {
            for reached in found {
                for k in reached.rides..<laterBest.count { laterBest[k] = min(laterBest[k], reached.arrival) }
            }
        }
        return found
    }

    /// The bound for labels leading to journeys of `rides` rides or more: the best arrival at the destination so far in
    /// this departure's search, or with no more rides in a later departure's (which leaves later, so beats whatever
    /// arrives no earlier with as many rides).
    @inline(__always) private func bound(_ bestAtDestination: Int64, rides: Int) -> Int64 {
        laterBest.isEmpty ? bestAtDestination : min(bestAtDestination, laterBest[rides])
    }

    private func improveBoard(round k: Int, stop: UInt32, time: Int64, from: UInt32, seconds: Int, bound: Int64, _ toDestination: TimeToDestination.Values?,
                              marked: inout StopList) {
        let cell = k * stopCount + Int(stop), labels = self.labels, isMarked = labels.isMarked
        guard time < labels.board[cell], time < labels.bestBoard[Int(stop)], Self.mayBeat(bound, from: stop, at: time, toDestination) else { return }
        labels.noteCell(cell)
        labels.noteStop(Int(stop))
        labels.board[cell] = time
        labels.bestBoard[Int(stop)] = time
        labels.boardFrom[cell] = from
        labels.boardMoveSeconds[cell] = Int32(seconds)
        if !isMarked[Int(stop)] {
            isMarked[Int(stop)] = true
            marked.append(stop)
        }
    }

    /// Scans every route calling at a marked stop from the first marked call on,
    /// riding the earliest run one can board; `improved` becomes the stops whose arrival improved.
    private mutating func scanRoutes(round k: Int, marked: StopList, bound roundBound: Int64, _ toDestination: TimeToDestination.Values?,
                                     improved: inout StopList) {
        // Locals, once: calling the planner's methods through `self` while `self` changes made
        // Swift copy the planner (a large struct) for every call.
        let planner = self.planner, overlay = self.overlay, wheelchair = request.wheelchair, days = self.days, t0 = self.t0
        let tt = planner.timetable, index = planner.index, seated = index.hasSeated
        let labels = self.labels, arrival = labels.arrival, bestArrival = labels.bestArrival, board = labels.board
        let isMarked = labels.isMarked, firstCall = labels.firstCall, lastCall = labels.lastCall
        let reachesDestination = self.reachesDestination, tightens = boundsWithinRound
        // The routes to scan, with their days; a route that runs on none of them is not looked at. The routes to the
        // destination come first: an arrival there in this round bounds the rest of the round (`bound`, below).
        var routes = RouteList(labels)
        for s in marked {
            for i in index.routeCalls(at: s) {
                let r = index.stopRouteCalls[i].route, position = Int32(index.stopRouteCalls[i].position)
                if firstCall[Int(r)] == Int32.max {
                    let mask = Self.days(of: Int(r), &routeDays, planner, days, from: t0, overlay: overlay)
                    guard mask != 0 else { continue }
                    routes.append(Int(r), days: mask, first: !tightens || reachesDestination[Int(r)])
                }
                firstCall[Int(r)] = min(firstCall[Int(r)], position)
                lastCall[Int(r)] = max(lastCall[Int(r)], position)
            }
        }
        // The best arrival at the destination so far, this round's included (with pruning): a label of this round that
        // cannot beat it gives neither a better journey with this many rides nor, ridden on from, one with more.
        var bound = roundBound
        // Past a route's last marked call nothing is boarded, and by the timetable a run's later calls are reached later:
        // once it reaches a call after the bound, the rest of the route can improve nothing. (Not with live times, which may
        // go back. In a range query a later departure's search left board labels at stops not marked now: what boarding
        // there leads to leaves no earlier than that departure, and the search of the departure it leaves at found it,
        // or what beats it, or it leaves after the window and is not listed, `JourneyPlanner.listed`.)
        let stopsAtBound = tightens && overlay.liveSlot.isEmpty
        improved.removeAll()
        var ridden: [(run: JourneyPlanner.Run, next: JourneyPlanner.Run, boardCall: Int)] = []
        let previous = (k - 1) * stopCount, current = k * stopCount
        for n in 0..<routes.count {
            let (r, mask) = routes[n]
            let start = Int(firstCall[r]), last = Int(lastCall[r])
            firstCall[r] = Int32.max
            lastCall[r] = -1
            let p = index.routes[r].callRange
            var run: (run: JourneyPlanner.Run, boardCall: Int, position: Int)?
            for call in start..<p.count {
                // Nothing ridden, and nothing more to board: the rest of the route is not reached.
                if tightens, run == nil, call > last { break }
                let stop = tt.patternStop[p.lowerBound + call]
                let usable = !wheelchair || tt.isWheelchairAccessible(stop)
                if usable, let (riding, boardCall, _) = run, let a = planner.arrival(of: riding, call: call, pattern: p.lowerBound, overlay: overlay) {
                    let cell = current + Int(stop)
                    // Checked here before the call: most calls improve nothing, and this is the planner's hottest loop.
                    if a < arrival[cell], a < bestArrival[Int(stop)], Self.mayBeat(bound, from: stop, at: a, toDestination) {
                        improveArrival(stop, at: current, time: a, run: riding, boardCall: boardCall, call: call, chain: -1, bound: bound, toDestination,
                                       improved: &improved)
                        bound = lowered(bound, arriving: a, at: stop)
                    }
                    if stopsAtBound, a >= bound, call > last { break }
                }
                let canBoard = board[previous + Int(stop)]
                // A run boarded after the bound reaches nothing before it (as above, by the timetable).
                guard canBoard != Self.unreached, usable, !stopsAtBound || canBoard < bound else { continue }
                if let (riding, _, _) = run, planner.currentDeparture(of: riding, call: call, overlay: overlay) <= canBoard { continue }
                let earlier = run.flatMap { (riding, _, position) in
                    planner.earliestRun(route: r, call: call, after: canBoard, before: riding, position: position, overlay: overlay, wheelchair: wheelchair,
                                        days: days, mask: mask)
                }
                if let found = earlier ?? planner.earliestRun(route: r, call: call, after: canBoard, overlay: overlay, wheelchair: wheelchair, days: days, mask: mask) {
                    if let (riding, _, _) = run, planner.currentDeparture(of: riding, call: call, overlay: overlay) <= found.departure { continue }
                    run = (found.run, call, found.position)
                }
            }
            // Riding on into the trips the vehicle goes on as, once every route is scanned (kept out of this loop, so
            // that nothing in it can grow the search's arrays): from the run ridden to the end (the earliest one can
            // catch), and from any later run whose vehicle goes on sooner.
            if seated, let (riding, boardCall, position) = run, boardCall < Int(Self.seatedFlag) {
                planner.seatedContinuations(route: r, riding: riding, position: position, boardCall: boardCall, bound: bound, overlay: overlay, wheelchair: wheelchair,
                                            days: days, mask: mask, into: &ridden)
            }
        }
        for (riding, next, boardCall) in ridden {
            rideOn(from: riding, into: next, boardCall: boardCall, round: k, bound: &bound, toDestination, planner, improved: &improved)
        }
        if !addedCalls.isEmpty { scanAdded(round: k, marked: marked, bound: bound, toDestination, improved: &improved) }
        for s in improved { isMarked[Int(s)] = false }
    }

    /// Improves the arrival at `stop` in the round whose labels start at `current`. `isMarked` doubles as "improved
    /// this round" until the round's moves are done.
    @inline(__always) @discardableResult
    func improveArrival(_ stop: UInt32, at current: Int, time a: Int64, run: JourneyPlanner.Run, boardCall: Int, call: Int,
                        chain: Int32, bound: Int64, _ toDestination: TimeToDestination.Values?, improved: inout StopList) -> Bool {
        let cell = current + Int(stop), labels = self.labels
        guard a < labels.arrival[cell], a < labels.bestArrival[Int(stop)], Self.mayBeat(bound, from: stop, at: a, toDestination) else { return false }
        if !labels.isMarked[Int(stop)] {
            labels.isMarked[Int(stop)] = true
            improved.append(stop)
        }
        labels.noteCell(cell)
        labels.noteStop(Int(stop))
        labels.arrival[cell] = a
        labels.bestArrival[Int(stop)] = a
        labels.arrivalRun[cell] = run
        labels.arrivalCall[cell] = UInt16(call)
        if chain >= 0 {
            labels.arrivalBoardCall[cell] = Self.seatedFlag | UInt16(boardCall)
            labels.arrivalChain[cell] = chain
        } else {
            labels.arrivalBoardCall[cell] = UInt16(boardCall)
        }
        return true
    }

    /// Trips realtime data added: each is a route of one run, scanned from its first call at a marked stop.
    private func scanAdded(round k: Int, marked: StopList, bound: Int64, _ toDestination: TimeToDestination.Values?, improved: inout StopList) {
        var first: [Int: Int] = [:]
        for s in marked {
            for (t, call) in addedCalls[s] ?? [] { first[t] = min(first[t] ?? Int.max, call) }
        }
        let overlay = self.overlay, previous = (k - 1) * stopCount
        for (t, start) in first.sorted(by: { $0.key < $1.key }) {
            let trip = overlay.added[t]
            var boardCall: Int?
            for call in start..<trip.calls.count where !trip.calls[call].skipped {
                let c = trip.calls[call]
                if let b = boardCall {
                    let run = JourneyPlanner.Run.added(t, serviceDay: trip.serviceDay)
                    improveArrival(c.stop.raw, at: k * stopCount, time: c.arrival, run: run, boardCall: b, call: call, chain: -1, bound: bound, toDestination,
                                   improved: &improved)
                } else if call < trip.calls.count - 1, labels.board[previous + Int(c.stop.raw)] <= c.departure {
                    boardCall = call
                }
            }
        }
    }
}
