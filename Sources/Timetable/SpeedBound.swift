import Foundation
import OnwardCore

/// A lower bound on the time from a stop to the destination, for pruning (A*'s bound in RAPTOR's rounds): the
/// straight line between them through the Earth (the chord, never longer than any way over its surface) at the top
/// speed of the network's rides. A label that could not reach the destination before the best arrival found so far
/// even at that speed is not kept. On the national network half of a one-to-one query's scanning came after the
/// destination was first reached, most of it far from it.
///
/// The bound holds for every journey the planner builds, so answers do not change:
/// - each ride between consecutive calls covers its chord at no more than `metresPerSecond` (a stop no ride leaves
///   in 0 s except to the same point, and no call that leaves before it arrives, or there is no bound);
/// - walks and platform changes take their surface metres at the request's walking speed (the search uses the
///   larger of the two speeds);
/// - what may go farther than that speed allows goes at most so far beyond it, and a journey makes a bounded number
///   of such jumps: a transfers.txt rule's seconds (`moveJumpMetres`; a move per round and at each end), and
///   staying seated into a trip that starts elsewhere than the last one ended, on another platform of the station
///   or where a type-4 rule says (`seatedJumpMetres`; four per ride).
/// Realtime data can make a run faster than its timetable, so searches with any do not use the bound.
extension PlannerIndex {
    struct SpeedBound: Sendable {
        var metresPerSecond: Double
        var moveJumpMetres: Double
        var seatedJumpMetres: Double
        /// Each stop's place on a sphere of the Earth's mean radius, in metres (NaN without coordinates).
        var points: [SIMD3<Double>]
    }

    static func chord(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let d = a - b
        return (d * d).sum().squareRoot()
    }

    mutating func buildSpeedBound(_ tt: Timetable) {
        let radius = 6_371_008.8, rad = Double.pi / 180
        let points = (0..<tt.stopCount).map { s -> SIMD3<Double> in
            let lat = tt.stopLat[s] * rad, lon = tt.stopLon[s] * rad
            return SIMD3(cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat)) * radius
        }
        var top = 0.0
        var seen = Set<UInt64>()
        for t in 0..<tt.tripCount where tt.tripPattern[t] != Timetable.none {
            // Trips sharing running times share every hop's speed.
            guard seen.insert(UInt64(tt.tripPattern[t]) << 32 | UInt64(tt.tripTimes[t])).inserted else { continue }
            let p = tt.patternRange(tt.tripPattern[t]), times = Int(tt.tripTimes[t])
            for j in 0..<p.count {
                // A call left before it is reached, or a hop between two places in no time: no speed bounds the rides.
                guard tt.departures[times + j] >= tt.arrivals[times + j] else { return }
                guard j + 1 < p.count else { break }
                let metres = Self.chord(points[Int(tt.patternStop[p.lowerBound + j])], points[Int(tt.patternStop[p.lowerBound + j + 1])])
                let seconds = Double(tt.arrivals[times + j + 1]) - Double(tt.departures[times + j])
                guard !metres.isNaN else { return }
                if metres == 0 { continue }
                guard seconds > 0 else { return }
                top = max(top, metres / seconds)
            }
        }
        guard top > 0 else { return }
        var moveJump = 0.0, seatedJump = 0.0
        for a in 0..<tt.stopCount {
            for m in moves(from: UInt32(a)) where m.kind == .rule {
                guard let seconds = m.ruleSeconds else { continue }
                let metres = Self.chord(points[a], points[Int(m.to)])
                guard !metres.isNaN else { return }
                moveJump = max(moveJump, metres - top * Double(seconds))
            }
        }
        func end(_ t: UInt32) -> SIMD3<Double> { points[Int(tt.patternStop[tt.patternRange(tt.tripPattern[Int(t)]).upperBound - 1])] }
        func start(_ t: UInt32) -> SIMD3<Double> { points[Int(tt.patternStop[tt.patternRange(tt.tripPattern[Int(t)]).lowerBound])] }
        for (a, into) in seatedInto {
            for b in into where tt.tripPattern[Int(b)] != Timetable.none { seatedJump = max(seatedJump, Self.chord(end(a), start(b))) }
        }
        // A block goes on from its trip's next that runs on the day, if it starts where the trip ended (`seatedRun`).
        for a in 0..<UInt32(mayGoOn.count) where mayGoOn[Int(a)] {
            var b = blockNext[Int(a)]
            while b != Timetable.none {
                if Self.sameplace(tt, lastStopOf: a, firstStopOf: b) { seatedJump = max(seatedJump, Self.chord(end(a), start(b))) }
                b = blockNext[Int(b)]
            }
        }
        guard !moveJump.isNaN, !seatedJump.isNaN else { return }
        speedBound = SpeedBound(metresPerSecond: top, moveJumpMetres: moveJump, seatedJumpMetres: seatedJump, points: points)
    }
}

extension RaptorSearch {
    /// One search's lower bounds to its destination, worked out for a stop when first asked (most stops never are).
    final class TimeToDestination {
        let points: [SIMD3<Double>]
        let targets: [SIMD3<Double>]
        let metresPerSecond: Double
        /// The metres a journey's jumps may go beyond the speed (see above), taken off every chord.
        let slackMetres: Double
        /// Seconds per stop, -1 until worked out.
        let cache: UnsafeMutableBufferPointer<Int32>

        /// Nil where the bound does not hold for this search: no bound for the timetable, realtime data, or a
        /// destination stop with no coordinates.
        init?(_ planner: JourneyPlanner, _ request: JourneyPlanner.Request, overlay: RealtimeOverlay, rounds: Int) {
            let tt = planner.timetable
            guard let bound = planner.index.speedBound, overlay.liveSlot.isEmpty, overlay.added.isEmpty else { return nil }
            let targets = tt.boardStops(request.to).filter { tt.stopKind[Int($0)] == StopKind.stop.rawValue }.map { bound.points[Int($0)] }
            guard !targets.isEmpty, !targets.contains(where: { $0.x.isNaN }) else { return nil }
            points = bound.points
            self.targets = targets
            metresPerSecond = max(bound.metresPerSecond, request.walkSpeed)
            // A move per round and at each end; four stays seated per ride.
            slackMetres = Double(rounds + 1) * bound.moveJumpMetres + Double(4 * rounds) * bound.seatedJumpMetres
            cache = .allocate(capacity: tt.stopCount)
            cache.initialize(repeating: -1)
        }

        deinit { cache.deallocate() }

        /// What the bound is worked out from, as plain values for a search's hot loops to hold in a local: a method of this
        /// class called there retained and released it around each stop's first bound (through the search's `self`, which
        /// those loops change), 6% of a national query in the server.
        var values: Values { Values(points: points, targets: targets, metresPerSecond: metresPerSecond, slackMetres: slackMetres, cache: cache) }

        struct Values {
            let points: [SIMD3<Double>]
            let targets: [SIMD3<Double>]
            let metresPerSecond: Double
            let slackMetres: Double
            /// The class's cache: it lives as long as the search that holds both.
            let cache: UnsafeMutableBufferPointer<Int32>

            @inline(__always) func seconds(from stop: UInt32) -> Int64 {
                let known = cache[Int(stop)]
                return known >= 0 ? Int64(known) : workOut(stop)
            }

            private func workOut(_ stop: UInt32) -> Int64 {
                let p = points[Int(stop)]
                var seconds: Int32 = 0
                if !p.x.isNaN {
                    var metres = Double.infinity
                    for i in 0..<targets.count { metres = min(metres, PlannerIndex.chord(p, targets[i])) }
                    // Truncated, which for a number not below zero is rounded down (without the C library's floor).
                    seconds = Int32(clamping: Int64(max(0, (metres - slackMetres) / metresPerSecond)))
                }
                cache[Int(stop)] = seconds
                return Int64(seconds)
            }
        }
    }

    /// Whether a label at `stop` at `t` may still lead to an arrival at the destination before `bound` (`toDestination`:
    /// the search's bound's values, nil for none).
    @inline(__always) static func mayBeat(_ bound: Int64, from stop: UInt32, at t: Int64, _ toDestination: TimeToDestination.Values?) -> Bool {
        guard t < bound else { return false }
        guard bound != unreached, let toDestination else { return true }
        return t + toDestination.seconds(from: stop) < bound
    }
}
