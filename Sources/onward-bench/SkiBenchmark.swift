import App
import Foundation
import SkiMap

/// `onward-bench ski`: loading the bundled ski area (OSM parse, SRTM tile, router), and route queries
/// between random pairs of lift and run points at every level.
enum SkiBenchmark {
    static func run(queries: Int) throws {
        var loads: [Double] = []
        var router: SkiRouter?
        for _ in 0..<5 {
            let t = Date()
            router = SkiRouter(try SkiAreaLoading.load())
            loads.append(Date().timeIntervalSince(t))
        }
        let area = try SkiAreaLoading.load()
        let points = area.runs.flatMap(\.points) + area.lifts.flatMap(\.points)
        var generator = SystemRandomNumberGenerator()
        var times: [Double] = [], found = 0
        let levels: [SkiDifficulty] = [.novice, .easy, .intermediate, .advanced, .expert]
        for i in 0..<queries {
            let a = points.randomElement(using: &generator)!, b = points.randomElement(using: &generator)!
            let t = DispatchTime.now().uptimeNanoseconds
            if (try? router!.route(from: a, to: b, level: levels[i % levels.count])) != nil { found += 1 }
            times.append(Double(DispatchTime.now().uptimeNanoseconds - t) / 1000)
        }
        times.sort()
        loads.sort()
        print("""
        onward-bench ski (release build), bundled Vallnord: \(area.runs.count) runs, \(area.lifts.count) lifts, \(points.count) points
        load (OSM parse + SRTM tile + router), median of 5: \(String(format: "%.1f", loads[2] * 1000)) ms
        route queries, random pairs of run and lift points, levels in turn: \(queries) queries, \(found) found a route
          p50 \(String(format: "%.0f", times[times.count / 2])) µs  p99 \(String(format: "%.0f", times[times.count * 99 / 100])) µs  max \(String(format: "%.0f", times.last!)) µs
        """)
    }
}
