import Foundation
import OnwardCore
import OnwardTesting
import Testing
@testable import Timetable

/// A planner's kept search labels (`RaptorLabels.Pool`) are put back just where a search wrote them: after every
/// search the kept set is as a new one, and the answers of a planner whose sets are reused are those of new planners.
@Suite("search labels kept for the next search")
struct RaptorLabelsTests {
    /// Every time unset, nothing marked, no route's calls noted: what a new set starts as.
    static func isClear(_ labels: RaptorLabels) -> Bool {
        labels.arrival.allSatisfy { $0 == RaptorSearch.unreached } && labels.board.allSatisfy { $0 == RaptorSearch.unreached }
            && labels.bestArrival.allSatisfy { $0 == RaptorSearch.unreached } && labels.bestBoard.allSatisfy { $0 == RaptorSearch.unreached }
            && !labels.isMarked.contains(true) && labels.firstCall.allSatisfy { $0 == Int32.max } && labels.lastCall.allSatisfy { $0 == -1 }
            && labels.noted[0] == 0 && labels.noted[1] == 0
    }

    @Test("on Halifax, one-to-one queries and ranges leave the kept set clear, and answer as a new planner does")
    func halifax() throws {
        let tt = try RealFeeds.halifax.get()
        let planner = JourneyPlanner(tt), fresh = JourneyPlanner(tt)
        let served = tt.allStops.filter { planner.callsAt($0) }
        var rng = SeededRandom(seed: 71)
        // Thursday 2025-11-06 from 06:00 in Halifax (UTC-4).
        let start = Clock.local("2025-11-06", "06:00", offsetHours: -4)
        let shape = (cells: 7 * tt.stopCount, stops: tt.stopCount, routes: planner.index.routeCount, seated: planner.index.hasSeated)
        var answered = 0
        for q in 0..<8 {
            let from = served[Int.random(in: 0..<served.count, using: &rng)]
            var to = from
            while to == from { to = served[Int.random(in: 0..<served.count, using: &rng)] }
            var request = JourneyPlanner.Request(from: from, to: to, time: start.adding(seconds: Int64(Int.random(in: 0..<14 * 3600, using: &rng))))
            // Two ranges (their departures set and clear the best times over and over), the rest one departure each.
            request.window = q % 6 == 3 ? 1800 : 0
            request.limit = 100
            let reused = planner.plan(request, overlay: .empty, cores: 1)
            answered += reused.isEmpty ? 0 : 1
            let kept = planner.labelPool.take(cells: shape.cells, stops: shape.stops, routes: shape.routes, seated: shape.seated)
            #expect(Self.isClear(kept), "after query \(q)")
            planner.labelPool.give(kept)
            // The other planner's kept set is taken out and dropped: its search starts with a new set.
            _ = fresh.labelPool.take(cells: shape.cells, stops: shape.stops, routes: shape.routes, seated: shape.seated)
            #expect(reused == fresh.plan(request, overlay: .empty, cores: 1), "query \(q)")
        }
        #expect(answered >= 6)
    }
}
