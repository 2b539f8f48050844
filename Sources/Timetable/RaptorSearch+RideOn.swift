import OnwardCore

/// Riding on in one round into the trips the vehicle goes on as (`PlannerIndex+Seated.swift`): a ride stayed on into
/// is not a change, so its arrivals are labels of the round the first run was boarded in.
extension RaptorSearch {
    /// From the end of `riding` (boarded at `boardCall`), on into `next` and up to three more trips the same vehicle goes on
    /// as; `bound` as in `scanRoutes`, lowered here too by an arrival at the destination in a one-departure search.
    /// `planner` is the scan's own: taken from `self` here, which this changes, it was copied (a retain of each of its
    /// arrays) on every call, a sixth of a Halifax query.
    mutating func rideOn(from riding: JourneyPlanner.Run, into first: JourneyPlanner.Run, boardCall: Int, round k: Int, bound: inout Int64,
                         _ toDestination: TimeToDestination.Values?, _ planner: JourneyPlanner, improved: inout StopList) {
        let overlay = self.overlay, wheelchair = request.wheelchair
        let tt = planner.timetable
        let byTimetable = overlay.liveSlot.isEmpty
        var next = first
        // The runs ridden so far, `riding` the first: the list itself is made only for a label kept (an array made for
        // every ride-on was most of the search's `malloc` on Halifax).
        var depth = 1
        while true {
            // Nothing reached on a vehicle leaving after the best arrival at the destination can beat it.
            guard depth <= 4, planner.currentDeparture(of: next, call: 0, overlay: overlay) < bound else { return }
            depth += 1
            // Kept only when it improves a label (most continuations scanned improve none).
            let place = Int32(chains.count)
            var kept = false
            let p = tt.patternRange(tt.tripPattern[Int(next.instance.trip.raw)])
            for call in 1..<p.count {
                let stop = tt.patternStop[p.lowerBound + call]
                guard !wheelchair || tt.isWheelchairAccessible(stop),
                      let a = planner.arrival(of: next, call: call, pattern: p.lowerBound, overlay: overlay) else { continue }
                // By the timetable the vehicle reaches every later call, on this trip and the next, later still.
                if byTimetable, a >= bound { return }
                if improveArrival(stop, at: k * stopCount, time: a, run: next, boardCall: boardCall, call: call, chain: place, bound: bound, toDestination,
                                  improved: &improved) {
                    if !kept {
                        chains.append(Self.seatedChain(riding, first, count: depth, planner, overlay: overlay, wheelchair: wheelchair))
                        kept = true
                    }
                    bound = lowered(bound, arriving: a, at: stop)
                }
            }
            guard let after = planner.seatedRun(after: next, overlay: overlay, wheelchair: wheelchair) else { return }
            next = after
        }
    }

    /// `riding`, then `first` and the runs the vehicle goes on as after it: `count` runs in all.
    private static func seatedChain(_ riding: JourneyPlanner.Run, _ first: JourneyPlanner.Run, count: Int, _ planner: JourneyPlanner,
                                    overlay: RealtimeOverlay, wheelchair: Bool) -> [JourneyPlanner.Run] {
        var runs = [riding, first]
        runs.reserveCapacity(count)
        while runs.count < count, let after = planner.seatedRun(after: runs[runs.count - 1], overlay: overlay, wheelchair: wheelchair) { runs.append(after) }
        return runs
    }
}
