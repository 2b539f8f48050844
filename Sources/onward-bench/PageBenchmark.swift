import API
import App
import Foundation
import GTFSRealtime
import GTFSSource
import OnwardCore
import Timetable
import Transit
import WebPages

/// Board page render time on the bundled network with simulated live data:
/// the query (timetable + overlay → BoardDTO) and the HTML render
/// (BoardDTO → page) timed apart, as `GET /stops/{id}` does them, without HTTP.
enum PageBenchmark {
    struct Figures {
        var query: Samples
        var render: Samples
        var bytes: Int
        var rows: Int
    }

    static func run(stopID: String, at moment: Instant, iterations: Int) async throws -> Figures {
        let loaded = try Network.load([])
        var state = NetworkState(timetable: loaded.timetable)
        state.applySimulation(at: moment)
        // Through the query layer and the GTFS source, as the server answers.
        let queries = Queries(SourceRegistry([GTFSNetworkSource(store: LiveStore(state), displayName: "MRT Jakarta")]), now: moment)
        let context = PageContext(language: .en, attribution: ["Timetable: bundled network"], now: moment)
        let query = Queries.BoardQuery(stopID: stopID, at: moment, limit: 20)
        var queryTimes: [Double] = [], renderTimes: [Double] = []
        var bytes = 0, rows = 0
        for i in 0..<(iterations + 50) {
            let t0 = Stopwatch.nanos()
            let board = try await queries.board(query)
            let t1 = Stopwatch.nanos()
            let page = BoardPage.render(board, context: context, options: .init(limit: 20))
            let t2 = Stopwatch.nanos()
            bytes = page.utf8.count
            rows = board.departures?.count ?? 0
            if i >= 50 {  // warm-up
                queryTimes.append(Double(t1 - t0) / 1e3)
                renderTimes.append(Double(t2 - t1) / 1e3)
            }
        }
        guard rows > 0 else { throw BenchError("the board of \(stopID) at \(moment) has no departures") }
        return Figures(query: Samples(queryTimes), render: Samples(renderTimes), bytes: bytes, rows: rows)
    }
}

extension Suite {
    /// The HTML board page of Lebak Bulus (the bundled network's terminus) at 08:00 on a weekday.
    func boardPage() async throws {
        // 2026-11-23 is a Monday; 08:00 in Jakarta (UTC+7) is the morning peak.
        let moment = Instant(epochSeconds: 1_795_395_600)
        let f = try await PageBenchmark.run(stopID: "SLBB", at: moment, iterations: max(options.queries / 5, 200))
        let label = "board page SLBB (\(f.rows) rows, \(Format.count(f.bytes)) bytes)"
        report.add("\(label): query p50/p99", String(format: "%.1f / %.1f µs", f.query.median, f.query.percentile(99)))
        report.add("\(label): render p50/p99", String(format: "%.1f / %.1f µs", f.render.median, f.render.percentile(99)))
    }
}
