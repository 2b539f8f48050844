import Foundation
import GTFS
import Timetable

/// Import throughput: feed files to a query-ready `Timetable`.
enum ImportBenchmark {
    struct Run {
        var seconds: Double
        var cpuSeconds: Double
        var stopTimeRows: Int
        var stopTimeCount: Int
        var approximateBytes: Int
        var notices: Int
    }

    /// One import, timed from opening the paths to the built timetable.
    static func importOnce(_ paths: [URL]) throws -> (GTFSImporter.Result, Run) {
        let cpu0 = Stopwatch.cpuSeconds()
        let (result, seconds) = try Stopwatch.measure { () throws(FeedError) -> GTFSImporter.Result in
            try GTFSImporter.load(paths: paths)
        }
        let cpu = Stopwatch.cpuSeconds() - cpu0
        let tt = result.timetable
        return (result, Run(seconds: seconds, cpuSeconds: cpu, stopTimeRows: result.rowCounts["stop_times.txt"] ?? tt.stopTimeCount,
                            stopTimeCount: tt.stopTimeCount, approximateBytes: tt.approximateByteSize,
                            notices: result.notices.count))
    }

    /// `runs` imports in this process; the first is preceded by an untimed warm-up import.
    static func inProcess(_ paths: [URL], runs: Int, log: (String) -> Void) throws -> [Run] {
        _ = try importOnce(paths)
        var out: [Run] = []
        for i in 0..<runs {
            let (_, run) = try importOnce(paths)
            log(String(format: "  run %d: %.3f s (CPU %.3f s), %d rows, %.2f M rows/s", i + 1, run.seconds, run.cpuSeconds, run.stopTimeRows,
                       Double(run.stopTimeRows) / run.seconds / 1e6))
            out.append(run)
        }
        return out
    }

    /// The `import-peak` subcommand: one import in a fresh process, printing its time and peak RSS.
    /// With a snapshot path, also writes the snapshot (after the peak is read).
    static func childMain(path: String, snapshotOut: String?) throws {
        let baseline = MemoryProbe.peakResident ?? 0
        let (result, run) = try importOnce([URL(fileURLWithPath: path)])
        let peak = MemoryProbe.peakResident ?? 0
        let rssAfter = MemoryProbe.resident ?? 0
        print("seconds=\(run.seconds)")
        print("cpu_seconds=\(run.cpuSeconds)")
        print("stop_time_rows=\(run.stopTimeRows)")
        print("stop_time_count=\(run.stopTimeCount)")
        print("trips=\(result.timetable.tripCount)")
        print("stops=\(result.timetable.stopCount)")
        print("patterns=\(result.timetable.patternCount)")
        print("notices=\(run.notices)")
        print("approximate_bytes=\(run.approximateBytes)")
        print("vmhwm_before=\(baseline)")
        print("vmhwm=\(peak)")
        print("vmrss_after=\(rssAfter)")
        if let snapshotOut {
            let (_, seconds) = try Stopwatch.measure { try result.timetable.writeSnapshot(to: URL(fileURLWithPath: snapshotOut)) }
            print("snapshot_write_seconds=\(seconds)")
            print("snapshot_bytes=\((try? FileManager.default.attributesOfItem(atPath: snapshotOut)[.size] as? Int) ?? 0)")
        }
    }
}
