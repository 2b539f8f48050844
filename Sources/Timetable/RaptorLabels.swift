/// A search's labels and scratch, in memory it owns and frees. As arrays in the search they cost a uniqueness check
/// (a call into the runtime) and a bounds check on every write, thousands per query: an eighth of a one-to-one query's
/// time on Halifax. Bounds are still checked in debug builds, where `UnsafeMutableBufferPointer` checks them.
///
/// Only what is read before it is written starts with a value: the times, and the scratch. The rest of a label is
/// written with its time and read only where the time is set, so a national network's search does not first fill
/// 25 MB it will mostly never read.
final class RaptorLabels {
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

    init(cells: Int, stops: Int, routes: Int, seated: Bool) {
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
    }

    deinit {
        // Every element type is trivial: nothing to deinitialize first.
        for buffer in [arrival, board, bestArrival, bestBoard] { buffer.deallocate() }
        arrivalRun.deallocate()
        for buffer in [arrivalBoardCall, arrivalCall] { buffer.deallocate() }
        for buffer in [arrivalChain, boardMoveSeconds, firstCall, lastCall] { buffer.deallocate() }
        boardFrom.deallocate()
        isMarked.deallocate()
    }
}
