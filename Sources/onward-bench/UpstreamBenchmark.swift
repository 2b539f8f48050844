import DataSources
import Dispatch
import Foundation
import NationalRail
import OnwardCore
import Synchronization
import TransitSources

/// Upstream sources: how fast Darwin's answers parse (alone and two at once), and how
/// many upstream requests caching and coalescing save when many people watch boards.
enum UpstreamBenchmark {
    static func run(report: Report, data: URL) throws {
        let largest = data.appendingPathComponent("darwin-ldbws/arrival-departure-board-with-details.xml")
        let bytes = [UInt8](try Data(contentsOf: largest))
        try parsing(bytes, label: largest.lastPathComponent, report: report)
        let board = try Data(contentsOf: data.appendingPathComponent("darwin-ldbws/soap_depboardwithdetails_ECR_nrcc_cancelled_2019-2.xml"))
        let done = DispatchSemaphore(value: 0)
        let box = Mutex<Result<[(String, String)], any Error>?>(nil)
        Task {
            do { box.withLock { $0 = .success([]) }; let figures = try await viewers(board: board); box.withLock { $0 = .success(figures) } } catch {
                box.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        for (name, value) in try box.withLock({ $0 })!.get() { report.add(name, value) }
    }

    /// Median parse time alone, then per parse with two parsers at once (the XML reader shares no state).
    static func parsing(_ bytes: [UInt8], label: String, report: Report) throws {
        for _ in 0..<10 { _ = try DarwinParser.parse(bytes) }
        var alone: [Double] = []
        for _ in 0..<50 {
            let start = Stopwatch.nanos()
            _ = try DarwinParser.parse(bytes)
            alone.append(Double(Stopwatch.nanos() - start) / 1e6)
        }
        let parallel = Mutex<[Double]>([])
        let wallStart = Stopwatch.nanos()
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            var mine: [Double] = []
            for _ in 0..<50 {
                let start = Stopwatch.nanos()
                _ = try? DarwinParser.parse(bytes)
                mine.append(Double(Stopwatch.nanos() - start) / 1e6)
            }
            parallel.withLock { $0 += mine }
        }
        let wall = Double(Stopwatch.nanos() - wallStart) / 1e9
        let a = Samples(alone), p = Samples(parallel.withLock { $0 })
        report.add("Darwin parse \(label) (\(bytes.count / 1024) KB), median of 50", String(format: "%.2f ms (p90 %.2f)", a.median, a.percentile(90)))
        report.add("Darwin parse, 2 parsers at once, median per parse", String(format: "%.2f ms; %.0f parses/s together", p.median, 100 / wall))
    }

    /// 200 viewers on 20 National Rail boards, each page asking again every 30 s (as live
    /// pages do) for 10 minutes of a simulated clock; Darwin answers after 20 ms.
    static func viewers(board: Data) async throws -> [(String, String)] {
        let clock = Mutex(Instant(epochSeconds: 1_700_000_000))
        let fetcher = CountingDarwin(body: board, latency: .milliseconds(20))
        let source = NationalRailSource(token: "bench", fetcher: fetcher, now: { clock.withLock { $0 } })
        let stations = ["ECR", "VIC", "LBG", "CLJ", "BTN", "GTW", "YRK", "LDS", "MAN", "BHM", "EDB", "GLC", "BRI", "RDG", "OXF",
                        "CBG", "NCL", "LIV", "SHF", "NOT"]
        let start = clock.withLock { $0 }
        // The burst: 100 people open one board at the same moment.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<100 {
                group.addTask { _ = try await source.board(SourceBoardRequest(stopID: "national-rail:KGX", now: start)) }
            }
            try await group.waitForAll()
        }
        let burst = await fetcher.count
        var asked = 0
        for second in 0..<600 {
            let now = clock.withLock { $0 = start.adding(seconds: Int64(second)); return $0 }
            // Viewer v looks at board v % 20 and refreshes at second v % 30 of each half minute.
            let due = (0..<200).filter { $0 % 30 == second % 30 }
            asked += due.count
            try await withThrowingTaskGroup(of: Void.self) { group in
                for v in due {
                    group.addTask {
                        _ = try await source.board(SourceBoardRequest(stopID: "national-rail:" + stations[v % 20], now: now))
                    }
                }
                try await group.waitForAll()
            }
        }
        let upstream = await fetcher.count - burst
        return [("Darwin: 100 viewers opening one board at once", "\(burst) upstream request\(burst == 1 ? "" : "s")"),
                ("Darwin: 200 viewers on 20 boards, refresh 30 s, 10 min",
                 String(format: "%d viewer requests → %d upstream (%.1f%% saved)", asked, upstream, 100 * (1 - Double(upstream) / Double(asked))))]
    }
}

/// Darwin as a counter: the same recorded board for every request, after a delay.
actor CountingDarwin: HTTPFetching {
    let body: Data
    let latency: Duration
    private(set) var count = 0

    init(body: Data, latency: Duration) { self.body = body; self.latency = latency }

    func fetch(_ request: HTTPRequest) async throws(SourceError) -> HTTPResponse {
        count += 1
        try? await Task.sleep(for: latency)
        return HTTPResponse(status: 200, body: body)
    }
}
