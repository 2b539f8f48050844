import Synchronization

/// A search's labels and scratch, in memory it owns and frees. As arrays in the search they cost a uniqueness check
/// (a call into the runtime) and a bounds check on every write, thousands per query: an eighth of a one-to-one query's
/// time on Halifax. Bounds are still checked in debug builds, where `UnsafeMutableBufferPointer` checks them.
///
/// Only what is read before it is written starts with a value: the times, and the scratch. The rest of a label is
/// written with its time and read only where the time is set, so a national network's search does not first fill
/// 25 MB it will mostly never read.
///
/// A planner keeps a few sets for its next searches (`Pool`). Each set notes the cells and stops whose times a search
/// wrote (`noteCell`, `noteStop`), so that it is made ready again by putting back just those, not by filling every time:
/// on the national network the fill of a new set was 6% of the server's planning, and the fill of the per-departure
/// times another few percent. Unchecked `Sendable`: a set is used by one search at a time, which takes it out of the pool
/// and gives it back when done.
final class RaptorLabels: @unchecked Sendable {
    /// Per round, per stop (`round * stopCount + stop`); `RaptorSearch` says what each holds.
    let arrival: UnsafeMutableBufferPointer<Int64>
    let arrivalRun: UnsafeMutableBufferPointer<JourneyPlanner.Run>
    let arrivalBoardCall: UnsafeMutableBufferPointer<UInt16>
    let arrivalCall: UnsafeMutableBufferPointer<UInt16>
    /// Empty when no trip goes on as another.
    let arrivalChain: UnsafeMutableBufferPointer<Int32>
    let board: UnsafeMutableBufferPointer<Int64>
    let boardFrom: UnsafeMutableBufferPointer<UInt32>
    let boardMoveSeconds: UnsafeMutableBufferPointer<Int32>
    /// Per stop, over the rounds of one departure.
    let bestArrival: UnsafeMutableBufferPointer<Int64>
    let bestBoard: UnsafeMutableBufferPointer<Int64>
    /// Scratch of one departure: which stops are marked, and the first and last marked calls of each route (`Int32.max`
    /// and -1 for none).
    let isMarked: UnsafeMutableBufferPointer<Bool>
    let firstCall: UnsafeMutableBufferPointer<Int32>
    let lastCall: UnsafeMutableBufferPointer<Int32>
    /// Room for a round's lists (`StopList`, `RouteList`): the stops marked for it and the stops it improved (each stop at
    /// most once in each, as `isMarked` makes sure), and the routes it scans with their days. Arrays made for each round
    /// were 2–3% of a Halifax query in `malloc` and `free`.
    let markedRoom: UnsafeMutableBufferPointer<UInt32>
    let improvedRoom: UnsafeMutableBufferPointer<UInt32>
    let routeRoom: UnsafeMutableBufferPointer<Int32>
    let routeDaysRoom: UnsafeMutableBufferPointer<UInt16>
    /// The cells whose `arrival` or `board` a search set (each once: noted when both were still unset), and the stops whose
    /// `bestArrival` or `bestBoard` the current departure set (likewise); `cellsNoted` and `stopsNoted` of each are in use.
    let notedCells: UnsafeMutableBufferPointer<UInt32>
    let notedStops: UnsafeMutableBufferPointer<UInt32>
    /// How many of each are in use: in memory of their own, since a class's `var` is checked for exclusive access at
    /// run time on every change.
    let noted: UnsafeMutableBufferPointer<Int>
    /// What the set was made for: a set is reused only by a search of the same shape.
    let cells: Int, stops: Int, routes: Int, seated: Bool

    init(cells: Int, stops: Int, routes: Int, seated: Bool) {
        self.cells = cells
        self.stops = stops
        self.routes = routes
        self.seated = seated
        notedCells = .allocate(capacity: cells)
        notedStops = .allocate(capacity: stops)
        noted = .allocate(capacity: 2)
        noted.initialize(repeating: 0)
        arrival = .allocate(capacity: cells)
        arrival.initialize(repeating: RaptorSearch.unreached)
        board = .allocate(capacity: cells)
        board.initialize(repeating: RaptorSearch.unreached)
        arrivalRun = .allocate(capacity: cells)
        arrivalBoardCall = .allocate(capacity: cells)
        arrivalCall = .allocate(capacity: cells)
        arrivalChain = .allocate(capacity: seated ? cells : 0)
        boardFrom = .allocate(capacity: cells)
        boardMoveSeconds = .allocate(capacity: cells)
        bestArrival = .allocate(capacity: stops)
        bestArrival.initialize(repeating: RaptorSearch.unreached)
        bestBoard = .allocate(capacity: stops)
        bestBoard.initialize(repeating: RaptorSearch.unreached)
        isMarked = .allocate(capacity: stops)
        isMarked.initialize(repeating: false)
        firstCall = .allocate(capacity: routes)
        firstCall.initialize(repeating: Int32.max)
        lastCall = .allocate(capacity: routes)
        lastCall.initialize(repeating: -1)
        markedRoom = .allocate(capacity: stops)
        improvedRoom = .allocate(capacity: stops)
        routeRoom = .allocate(capacity: routes)
        routeDaysRoom = .allocate(capacity: routes)
    }

    /// Notes that a search is about to set the times of `cell` (call before setting them).
    @inline(__always) func noteCell(_ cell: Int) {
        if arrival[cell] == RaptorSearch.unreached && board[cell] == RaptorSearch.unreached {
            notedCells[noted[0]] = UInt32(cell)
            noted[0] += 1
        }
    }

    /// Notes that a departure is about to set the best times of `stop` (call before setting them).
    @inline(__always) func noteStop(_ stop: Int) {
        if bestArrival[stop] == RaptorSearch.unreached && bestBoard[stop] == RaptorSearch.unreached {
            notedStops[noted[1]] = UInt32(stop)
            noted[1] += 1
        }
    }

    /// Unsets the best times a departure set, for the next departure.
    func clearBest() {
        for i in 0..<noted[1] {
            bestArrival[Int(notedStops[i])] = RaptorSearch.unreached
            bestBoard[Int(notedStops[i])] = RaptorSearch.unreached
        }
        noted[1] = 0
    }

    /// Unsets every time a search set, and its scratch, for the next search.
    func clear() {
        clearBest()
        for i in 0..<noted[0] {
            arrival[Int(notedCells[i])] = RaptorSearch.unreached
            board[Int(notedCells[i])] = RaptorSearch.unreached
        }
        noted[0] = 0
        isMarked.update(repeating: false)
    }

    /// A planner's sets kept for its next searches: at most one per core, the number that plan at once.
    final class Pool: Sendable {
        private let kept = Mutex<[RaptorLabels]>([])
        private let most: Int

        init(most: Int) { self.most = most }

        /// A set ready for a search of this shape: a kept one, or a new one.
        func take(cells: Int, stops: Int, routes: Int, seated: Bool) -> RaptorLabels {
            let found = kept.withLock { sets -> RaptorLabels? in
                guard let i = sets.firstIndex(where: { $0.cells == cells && $0.stops == stops && $0.routes == routes && $0.seated == seated }) else {
                    return nil
                }
                return sets.remove(at: i)
            }
            return found ?? RaptorLabels(cells: cells, stops: stops, routes: routes, seated: seated)
        }

        /// Takes back a set a search is done with, made ready for the next (or lets it go, when enough are kept).
        func give(_ labels: RaptorLabels) {
            labels.clear()
            kept.withLock { sets in
                if sets.count < most { sets.append(labels) }
            }
        }
    }

    deinit {
        notedCells.deallocate()
        notedStops.deallocate()
        noted.deallocate()
        // Every element type is trivial: nothing to deinitialize first.
        for buffer in [arrival, board, bestArrival, bestBoard] { buffer.deallocate() }
        arrivalRun.deallocate()
        for buffer in [arrivalBoardCall, arrivalCall] { buffer.deallocate() }
        for buffer in [arrivalChain, boardMoveSeconds, firstCall, lastCall] { buffer.deallocate() }
        for buffer in [boardFrom, markedRoom, improvedRoom] { buffer.deallocate() }
        routeRoom.deallocate()
        routeDaysRoom.deallocate()
        isMarked.deallocate()
    }
}

/// Stops in memory a search's labels own (`RaptorLabels`), each at most once: a round's marked or improved stops.
struct StopList: RandomAccessCollection {
    private let room: UnsafeMutableBufferPointer<UInt32>
    private(set) var endIndex = 0
    var startIndex: Int { 0 }

    init(_ room: UnsafeMutableBufferPointer<UInt32>) { self.room = room }

    subscript(position: Int) -> UInt32 { room[position] }
    @inline(__always) mutating func append(_ stop: UInt32) {
        room[endIndex] = stop
        endIndex += 1
    }
    mutating func removeAll() { endIndex = 0 }
}

/// The routes a round scans, with their days, in memory a search's labels own: those to the destination from the
/// front, in the order added, then the others, from the back (so they too come in the order added).
struct RouteList {
    private let routes: UnsafeMutableBufferPointer<Int32>
    private let days: UnsafeMutableBufferPointer<UInt16>
    private var front = 0, back: Int

    init(_ labels: RaptorLabels) {
        routes = labels.routeRoom
        days = labels.routeDaysRoom
        back = routes.count
    }

    @inline(__always) mutating func append(_ route: Int, days mask: UInt16, first: Bool) {
        if first {
            routes[front] = Int32(route); days[front] = mask; front += 1
        } else {
            back -= 1; routes[back] = Int32(route); days[back] = mask
        }
    }

    var count: Int { front + routes.count - back }

    /// The front ones, then the back ones in the order added.
    subscript(n: Int) -> (route: Int, days: UInt16) {
        let i = n < front ? n : routes.count - 1 - (n - front)
        return (Int(routes[i]), days[i])
    }
}
