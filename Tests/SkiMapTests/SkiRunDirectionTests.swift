import Foundation
import OnwardCore
import OnwardTesting
@testable import SkiMap
import Testing

/// A run is skied down, never climbed: an open run as it is mapped, a closed loop by its heights.
@Suite("runs are never climbed", .enabled(if: Fixtures.hasSharedData, "needs ../shared/data/ski"))
struct SkiRunDirectionTests {
    /// SRTM's relative height error (under 10 m for 90% of the mission's samples): a mapped run's heights,
    /// read off a 90 m grid, rise that much here and there on their way down (Les Marrades 6.5 m, Woodpark 7.1 m).
    static let heightNoise = 10.0

    /// The run edges of the router's graph: the run each belongs to, and how far it climbs in metres.
    static func runEdges() -> [(run: SkiRun, climb: Double)] {
        let router = Vallnord.router
        return router.edges.indices.flatMap { from in
            router.edges[from].compactMap { e -> (SkiRun, Double)? in
                guard let w = e.way, w >= 0, let a = router.points[from].elevation, let b = router.points[e.to].elevation else { return nil }
                return (router.area.runs[w], b - a)
            }
        }
    }

    /// `onward ski route --from 42.5471289,1.5137913 --to 42.5350919,1.488898 --level novice`: from La Massana to the
    /// top of la Caubella's chair, 20 m above the cable car's top. The closed loop "el Planell" (way 152826446)
    /// climbs those 20 m from its mapped first node; la Caubella's chair (to that very point) and el Planell's
    /// drag lift (its top 70 m away) go up beside it.
    static let laMassana = SkiPoint(latitude: 42.5471289, longitude: 1.5137913)
    static let laCaubellaTop = SkiPoint(latitude: 42.5350919, longitude: 1.488898)

    /// Every run leg goes down: overall, and point by point within the heights' noise.
    static func climbsNoRun(_ route: SkiRoute) {
        for leg in route.legs where leg.kind == .run {
            #expect((leg.dropMetres ?? 0) >= 0, "\(leg.name ?? "a run") climbed \(-(leg.dropMetres ?? 0)) m")
            let heights = leg.points.compactMap(\.elevation)
            for (a, b) in zip(heights, heights.dropFirst()) { #expect(b - a <= heightNoise, "\(leg.name ?? "a run") climbs \(b - a) m") }
        }
    }

    @Test("a novice from La Massana to la Caubella's top rides up the last 20 m and climbs no run")
    func noviceToLaCaubella() throws {
        let route = try Vallnord.router.route(from: Self.laMassana, to: Self.laCaubellaTop, level: .novice)
        Self.climbsNoRun(route)
        // The cable car up from the town, then a lift up beside the loop (today la Caubella's chair, the faster).
        let rides = route.legs.filter { $0.kind != .walk }.map { "\($0.kind) \($0.name ?? "")" }
        #expect(rides == ["lift la Massana", "lift la Caubella"] || rides == ["lift la Massana", "lift el Planell"], "\(rides)")
    }

    @Test("no run's edge in the graph goes uphill beyond the heights' noise, and a loop's edges never go uphill")
    func edgesGoDown() throws {
        let edges = Self.runEdges()
        #expect(edges.count > 1_000)
        let worst = try #require(edges.max { $0.climb < $1.climb })
        #expect(worst.climb <= Self.heightNoise, "\(worst.run.name ?? "a run") (way \(worst.run.osmID)) climbs \(worst.climb) m")
        let loops = edges.filter { $0.run.nodes.first == $0.run.nodes.last }
        // el Planell is the area's one loop skied along (the others are mapped as areas).
        #expect(Set(loops.map(\.run.osmID)) == [152826446])
        for (run, climb) in loops { #expect(climb <= 0, "the loop \(run.name ?? "") (way \(run.osmID)) climbs \(climb) m") }
        // Both sides of the loop go down from its top: each of its 10 segments is in the graph once.
        #expect(loops.count == 10)
    }
}
