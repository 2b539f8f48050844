import OnwardCore

/// Moves between stops (walks, platform changes, transfers.txt rules) and changes of vehicle at one stop, as a
/// search's request allows them.
extension RaptorSearch {
    /// How long a move takes, or nil where the request does not allow it (a forbidden
    /// rule, or a walk longer than it allows: the walks after it are longer still).
    func moveSeconds(_ move: PlannerIndex.Move) -> Int? { Self.moveSeconds(move, request) }

    static func moveSeconds(_ move: PlannerIndex.Move, _ request: JourneyPlanner.Request) -> Int? {
        switch move.kind {
        case .rule:
            return move.ruleSeconds
        case .walk, .platform:
            guard request.maxWalk > 0, move.kind == .platform || Double(move.metres) <= request.maxWalk else { return nil }
            // Worked out once in the index for the default speed: the division was a tenth of a query's time.
            return request.walkSpeed == JourneyPlanner.Request.defaultWalkSpeed ? Int(move.defaultSeconds) : move.walkSeconds(atSpeed: request.walkSpeed)
        }
    }

    /// Each move the request allows from `stop` to another stop, with its seconds (walks past `nearWalk` only when the
    /// request allows them). Static, so a caller may change the search in `body` without copying its arrays (a method on
    /// `self` would hold a copy of it across the call, and each change would then copy `chains` and `routeDays`).
    static func forEachMove(_ index: PlannerIndex, _ request: JourneyPlanner.Request, from stop: UInt32, rules: Bool = true,
                            _ body: (UInt32, Int) -> Void) {
        if rules && request.maxWalk >= Double(PlannerIndex.nearWalk) && request.walkSpeed == JourneyPlanner.Request.defaultWalkSpeed {
            // What the loop below would give such a request, worked out in the index.
            for i in Int(index.defaultMoveStart[Int(stop)])..<Int(index.defaultMoveStart[Int(stop) + 1]) {
                body(index.defaultMoves[i].to, Int(index.defaultMoves[i].seconds))
            }
        } else {
            nearMoves(index, request, from: stop, rules: rules, body)
        }
        guard request.maxWalk > Double(PlannerIndex.nearWalk) else { return }
        for i in Int(index.farMoveStart[Int(stop)])..<Int(index.farMoveStart[Int(stop) + 1]) {
            guard let seconds = moveSeconds(index.farMoves[i], request) else { return }
            body(index.farMoves[i].to, seconds)
        }
    }

    /// `forEachMove`'s moves up to `nearWalk`, as the request allows them, read from each `Move` (the tests check the index's list
    /// for a default request against it).
    @inline(__always)
    static func nearMoves(_ index: PlannerIndex, _ request: JourneyPlanner.Request, from stop: UInt32, rules: Bool, _ body: (UInt32, Int) -> Void) {
        // By position, not through `moves(from:)`: a slice retains the array and releases it (on the national network
        // a twelfth of a query).
        for i in Int(index.moveStart[Int(stop)])..<Int(index.moveStart[Int(stop) + 1]) {
            let m = index.moves[i]
            guard m.to != stop, rules || m.kind != .rule else { continue }
            guard let seconds = moveSeconds(m, request) else {
                if m.kind == .walk { return }  // nearest first: the rest are longer
                continue
            }
            body(m.to, seconds)
        }
    }

    /// The time needed to change vehicles at one stop, or nil where transfers.txt forbids it.
    func sameStopChange(_ stop: UInt32) -> Int? {
        let rule = planner.index.sameStopRule[Int(stop)]
        if rule == PlannerIndex.noRule { return request.transferSlack }
        return rule < 0 ? nil : max(request.transferSlack, Int(rule))
    }
}
