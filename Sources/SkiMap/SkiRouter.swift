import Foundation
import OnwardCore

/// A way down (or across) the mountain for a skier of one level.
public struct SkiRoute: Sendable, Hashable {
    public struct Leg: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable { case run, lift, walk }
        public var kind: Kind
        public var name: String?
        /// For a run.
        public var difficulty: SkiDifficulty?
        /// For a lift: its `aerialway` kind.
        public var liftKind: String?
        public var lengthMetres: Double
        /// Height lost (positive) or gained (negative), when the heights are known.
        public var dropMetres: Double?
        public var seconds: Double
        public var points: [SkiPoint]
    }

    public var legs: [Leg]
    public var seconds: Double { legs.map(\.seconds).reduce(0, +) }
    public var lengthMetres: Double { legs.map(\.lengthMetres).reduce(0, +) }
}

/// Routing on a ski area by level: runs downhill (as mapped; a closed loop by its heights) and only up to the skier's level
/// (freeride only when asked for), lifts from bottom to top (both ways where two-way), and short
/// walks where one way's end comes near another's (mapped ways rarely share nodes). Fastest first,
/// by rough speeds: what a skier of the run's difficulty does, what each kind of lift does.
public struct SkiRouter: Sendable {
    /// How far apart the end of one way and another way may be and still join: within `joinMetres`
    /// climbing at most 15 m (a few steps up to a lift), and up to `glideMetres` when it does not climb
    /// more than 5 m (a traverse or a glide along the flat). In the 2013 Vallnord data the cable car's
    /// top station is 75 m from the nearest novice run, and la Basera's top 101 m from la Coma.
    public static let joinMetres = 60.0
    public static let glideMetres = 250.0
    /// How far from the start or the goal the nearest way may be.
    public static let reachMetres = 500.0

    struct Edge: Sendable {
        var to: Int
        var seconds: Double
        var metres: Double
        /// The run's difficulty (nil for a lift or a walk).
        var difficulty: SkiDifficulty?
        /// Which way it belongs to: a run's index, or a lift's as `-(index + 1)`; nil for a walk.
        var way: Int?
    }

    public let area: SkiArea
    let points: [SkiPoint]
    let edges: [[Edge]]

    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        case tooFar(String)
        case noRoute(SkiDifficulty)
        public var description: String {
            switch self {
            case .tooFar(let which): "the \(which) is more than \(Int(SkiRouter.reachMetres)) m from any run or lift of the ski area"
            case .noRoute(let level): "there is no way there for a skier of level \(level.rawValue) (runs up to \(level.rawValue), lifts, and short walks between them)"
            }
        }
    }

    public init(_ area: SkiArea) {
        self.area = area
        var index: [Int64: Int] = [:], points: [SkiPoint] = []
        func vertex(_ id: Int64, _ p: SkiPoint) -> Int {
            if let i = index[id] { return i }
            index[id] = points.count
            points.append(p)
            return points.count - 1
        }
        var edges: [[Edge]] = []
        func add(_ from: Int, _ e: Edge) {
            while edges.count <= max(from, e.to) { edges.append([]) }
            edges[from].append(e)
        }
        // Ends where a skier stops (a run's end, a lift's top) and where one can go on (any point of a run, a lift's bottom).
        var exits = Set<Int>(), boardings = Set<Int>(), runPoints = Set<Int>()
        for (r, run) in area.runs.enumerated() {
            let v = zip(run.nodes, run.points).map { vertex($0, $1) }
            runPoints.formUnion(v)
            var leaves = Set<Int>()
            for (a, b) in Self.skiedSegments(run) {
                let m = run.points[a].metres(to: run.points[b])
                add(v[a], Edge(to: v[b], seconds: m / Self.speed(run.difficulty), metres: m, difficulty: run.difficulty, way: r))
                leaves.insert(v[a])
            }
            // Where the run ends: its last point, or on a loop each low point (no segment of it goes on down from there).
            exits.formUnion(v.filter { !leaves.contains($0) })
        }
        for (l, lift) in area.lifts.enumerated() {
            let bottom = vertex(lift.nodes.first!, lift.points.first!), top = vertex(lift.nodes.last!, lift.points.last!)
            let m = zip(lift.points, lift.points.dropFirst()).map { $0.metres(to: $1) }.reduce(0, +)
            let seconds = Self.boardingSeconds + m / Self.liftSpeed(lift.kind)
            add(bottom, Edge(to: top, seconds: seconds, metres: m, difficulty: nil, way: -(l + 1)))
            boardings.insert(bottom)
            exits.insert(top)
            if lift.twoWay {
                add(top, Edge(to: bottom, seconds: seconds, metres: m, difficulty: nil, way: -(l + 1)))
                boardings.insert(top)
                exits.insert(bottom)
            }
        }
        // Joins: from where a skier stops to anything nearby, and from any point of a run to a lift boarded nearby.
        let entries = runPoints.union(boardings)
        for from in exits.union(runPoints) {
            let targets = exits.contains(from) ? entries : boardings
            for to in targets where to != from {
                let m = points[from].metres(to: points[to])
                guard m <= Self.glideMetres else { continue }
                let climb = (points[to].elevation ?? 0) - (points[from].elevation ?? 0)
                guard climb <= (m <= Self.joinMetres ? 15 : 5) else { continue }
                add(from, Edge(to: to, seconds: m / Self.walkSpeed, metres: m, difficulty: nil, way: nil))
            }
        }
        while edges.count < points.count { edges.append([]) }
        self.points = points
        self.edges = edges
    }

    /// Each segment of a run as skied, as (from, to) positions in its points. An open run goes the way it
    /// is mapped (OpenStreetMap draws pistes downhill). A closed loop (a nursery loop beside its drag
    /// lift) has no direction of its own: each segment is skied downhill, so the loop is two ways down
    /// from its highest point and never climbed; a segment whose heights are unknown keeps the mapped
    /// direction, and a level one goes both ways.
    static func skiedSegments(_ run: SkiRun) -> [(Int, Int)] {
        let segments = (1..<run.points.count).map { ($0 - 1, $0) }
        guard run.isLoop else { return segments }
        return segments.flatMap { a, b -> [(Int, Int)] in
            guard let high = run.points[a].elevation, let low = run.points[b].elevation else { return [(a, b)] }
            return high > low ? [(a, b)] : high < low ? [(b, a)] : [(a, b), (b, a)]
        }
    }

    /// The fastest way from one point to another for a skier of `level` (freeride runs only with `freeride`).
    public func route(from: SkiPoint, to: SkiPoint, level: SkiDifficulty, freeride: Bool = false) throws(Failure) -> SkiRoute {
        let starts = points.indices.filter { points[$0].metres(to: from) <= Self.reachMetres }
        guard !starts.isEmpty else { throw .tooFar("start") }
        let goals = Set(points.indices.filter { points[$0].metres(to: to) <= Self.reachMetres })
        guard !goals.isEmpty else { throw .tooFar("destination") }
        func allowed(_ d: SkiDifficulty?) -> Bool {
            guard let d else { return true }
            return d == .freeride ? freeride : d <= level
        }
        // Dijkstra from a virtual start (a walk to each nearby point) to a virtual goal (a walk from each goal point).
        var best = [Double](repeating: .infinity, count: points.count)
        var previous = [(from: Int, edge: Edge)?](repeating: nil, count: points.count)
        var queue = Heap()
        for s in starts {
            best[s] = points[s].metres(to: from) / Self.walkSpeed
            queue.push(best[s], s)
        }
        var finish: (vertex: Int, seconds: Double)?
        while let (cost, v) = queue.pop() {
            guard cost <= best[v] else { continue }
            if let f = finish, cost >= f.seconds { break }
            if goals.contains(v) {
                let total = cost + points[v].metres(to: to) / Self.walkSpeed
                if total < finish?.seconds ?? .infinity { finish = (v, total) }
            }
            for e in edges[v] where allowed(e.difficulty) {
                let c = cost + e.seconds
                if c < best[e.to] {
                    best[e.to] = c
                    previous[e.to] = (v, e)
                    queue.push(c, e.to)
                }
            }
        }
        guard let finish else { throw .noRoute(level) }
        var steps: [(from: Int, edge: Edge)] = []
        var v = finish.vertex
        while let step = previous[v] {
            steps.append(step)
            v = step.from
        }
        steps.reverse()
        var legs: [SkiRoute.Leg] = []
        let first = points[steps.first?.from ?? finish.vertex]
        if first.metres(to: from) > 1 { legs.append(walk(from, first)) }
        for (start, e) in steps {
            let kind: SkiRoute.Leg.Kind = e.way == nil ? .walk : (e.way! >= 0 ? .run : .lift)
            if let last = legs.last, last.kind == kind, kind == .walk || sameWay(last, e) {
                legs[legs.count - 1].lengthMetres += e.metres
                legs[legs.count - 1].seconds += e.seconds
                legs[legs.count - 1].points.append(points[e.to])
            } else {
                var leg = SkiRoute.Leg(kind: kind, lengthMetres: e.metres, seconds: e.seconds, points: [points[start], points[e.to]])
                if let w = e.way, w >= 0 {
                    leg.name = area.runs[w].name
                    leg.difficulty = area.runs[w].difficulty
                } else if let w = e.way {
                    leg.name = area.lifts[-w - 1].name
                    leg.liftKind = area.lifts[-w - 1].kind
                }
                legs.append(leg)
            }
            let leg = legs[legs.count - 1]
            if let top = leg.points.first?.elevation, let bottom = leg.points.last?.elevation { legs[legs.count - 1].dropMetres = top - bottom }
        }
        let last = points[finish.vertex]
        if last.metres(to: to) > 1 { legs.append(walk(last, to)) }
        return SkiRoute(legs: legs)
    }

    private func sameWay(_ leg: SkiRoute.Leg, _ e: Edge) -> Bool {
        guard let w = e.way else { return false }
        return w >= 0 ? leg.kind == .run && leg.name == area.runs[w].name && leg.difficulty == area.runs[w].difficulty
            : leg.kind == .lift && leg.name == area.lifts[-w - 1].name
    }

    private func walk(_ a: SkiPoint, _ b: SkiPoint) -> SkiRoute.Leg {
        let m = a.metres(to: b)
        var leg = SkiRoute.Leg(kind: .walk, lengthMetres: m, seconds: m / Self.walkSpeed, points: [a, b])
        if let x = a.elevation, let y = b.elevation { leg.dropMetres = x - y }
        return leg
    }

    // Rough speeds, metres per second: what makes "fastest" sensible, not a promise.
    static let walkSpeed = 1.0
    static let boardingSeconds = 60.0
    static func speed(_ d: SkiDifficulty) -> Double {
        switch d {
        case .novice: 4
        case .easy: 6
        case .intermediate: 8
        case .advanced, .expert: 9
        case .freeride: 6
        }
    }
    static func liftSpeed(_ kind: String) -> Double {
        switch kind {
        case "cable_car": 8
        case "gondola", "mixed_lift": 5
        case "chair_lift": 2.3
        default: 3
        }
    }
}

/// A binary min-heap of (cost, vertex) for Dijkstra.
struct Heap {
    private var items: [(Double, Int)] = []

    mutating func push(_ cost: Double, _ v: Int) {
        items.append((cost, v))
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i].0 < items[parent].0 else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> (Double, Int)? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < items.count, items[l].0 < items[m].0 { m = l }
            if r < items.count, items[r].0 < items[m].0 { m = r }
            guard m != i else { break }
            items.swapAt(i, m)
            i = m
        }
        return top
    }
}
