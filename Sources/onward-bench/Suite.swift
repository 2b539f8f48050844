import Foundation
import GTFSRealtime
import GTFS
import OnwardCore
import Timetable

/// The benchmarks, each adding its figures to one report.
struct Suite {
    let options: Options
    let report = Report()
    let tempRoot: URL

    init(options: Options) throws {
        self.options = options
        let base = options.tmp.map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory
        tempRoot = base.appendingPathComponent("onward-bench-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: tempRoot, withIntermediateDirectories: true)
    }

    func cleanup() {
        if options.keep { log("kept temporary files in \(tempRoot.path)"); return }
        try? FileManager.default.removeItem(at: tempRoot)
    }

    static let importTarget = 1_500_000.0
    static let peakTarget = 2_500_000_000
    static let snapshotRatioTarget = 0.10
    static let bytesPerStopTimeTarget = 24.0
    static let p50Target = 20_000.0
    static let p99Target = 200_000.0

    // MARK: 1. Import throughput on a real feed

    /// Imports a feed `runs` times in this process; returns the median seconds and the last timetable.
    @discardableResult
    func importThroughput(_ feed: URL, label: String) throws -> (seconds: Double, rows: Int, timetable: Timetable) {
        log("import \(label): \(options.runs) runs after a warm-up")
        let runs = try ImportBenchmark.inProcess([feed], runs: options.runs, log: log)
        let median = Samples(runs.map(\.seconds)).median
        let cpu = Samples(runs.map(\.cpuSeconds)).median
        let rows = runs[0].stopTimeRows
        let rate = Double(rows) / median
        report.add("\(label) import, \(Format.count(rows)) stop_times (median of \(runs.count))",
                   "\(Format.seconds(median)) = \(Format.rate(rate)) (CPU \(Format.seconds(cpu)) = \(Format.rate(Double(rows) / cpu)))", target: "≥ 1.50 M rows/s", pass: rate >= Suite.importTarget)
        report.add("\(label) approximateByteSize / stop_time", String(format: "%.1f B", Double(runs[0].approximateBytes) / Double(runs[0].stopTimeCount)),
                   target: "≤ 24 B", pass: Double(runs[0].approximateBytes) / Double(runs[0].stopTimeCount) <= Suite.bytesPerStopTimeTarget)
        let (result, _) = try ImportBenchmark.importOnce([feed])
        return (median, rows, result.timetable)
    }

    // MARK: 3 and 4. Snapshot load time and resident memory

    /// Times loading a snapshot file and measures the RSS a loaded snapshot adds in a fresh process.
    func snapshotFigures(_ file: URL, label: String, importSeconds: Double, stopTimes: Int) throws {
        log("snapshot \(label): \(options.runs) loads of \(file.lastPathComponent) after a warm-up")
        let times = try SnapshotBenchmark.loadTimes(file, runs: options.runs)
        let median = Samples(times).median
        let ratio = median / importSeconds
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        report.add("\(label) snapshot load (\(Format.bytes(size)) file, median of \(times.count))",
                   String(format: "%@ = %.1f%% of import", Format.seconds(median), ratio * 100),
                   target: "≤ 10% of import", pass: ratio <= Suite.snapshotRatioTarget)
        let child = try ChildProcess.run(["snapshot-rss", file.path])
        func value(_ key: String) -> Int { Int(child[key] ?? "") ?? 0 }
        let cold = Double(value("cold_after") - value("cold_before")) / Double(stopTimes)
        let warm = Double(value("warm_after") - value("warm_before")) / Double(stopTimes)
        let warmTrim = Double(value("warm_after_trim") - value("warm_before")) / Double(stopTimes)
        report.add("\(label) RSS delta of a loaded snapshot / stop_time (fresh process; warm, cold)",
                   String(format: "%.1f B warm (%.1f B cold first load)", warm, cold),
                   target: "≤ 24 B", pass: warm <= Suite.bytesPerStopTimeTarget)
        report.note("\(label) snapshot child: cold VmRSS \(Format.bytes(value("cold_before"))) → \(Format.bytes(value("cold_after"))) (VmHWM \(Format.bytes(value("cold_vmhwm")))); "
                    + "warm VmRSS \(Format.bytes(value("warm_before"))) → \(Format.bytes(value("warm_after"))) (\(String(format: "%.1f", warmTrim)) B/stop_time after malloc_trim); "
                    + "approximateByteSize \(String(format: "%.1f", Double(value("approximate_bytes")) / Double(stopTimes))) B/stop_time")
    }

    /// Writes a timetable's snapshot under the temp folder and runs `snapshotFigures` on it.
    func snapshotFigures(_ tt: Timetable, label: String, importSeconds: Double) throws {
        let file = tempRoot.appendingPathComponent("\(label.replacingOccurrences(of: " ", with: "-")).onward")
        try tt.writeSnapshot(to: file)
        try snapshotFigures(file, label: label, importSeconds: importSeconds, stopTimes: tt.stopTimeCount)
    }

    // MARK: 2. Synthetic feed: import time and peak RSS

    func synthetic() throws {
        let generator = SyntheticFeed(base: options.halifax, stopMode: options.stopMode)
        let baseRows = try generator.baseStopTimeRows()
        let replicas = SyntheticFeed.replicas(forRows: options.rows, baseRows: baseRows)
        let folder = tempRoot.appendingPathComponent("synthetic")
        log("synthetic feed: Halifax × \(replicas) (\(options.stopMode.rawValue) stops) into \(folder.path)")
        let feed = try generator.write(replicas: replicas, to: folder)
        defer { if !options.keep { try? FileManager.default.removeItem(at: folder) } }
        log(String(format: "  wrote %@ stop_times, %@ trips, %@ stops, %@ in %.1f s", Format.count(feed.stopTimes),
                   Format.count(feed.trips), Format.count(feed.stops), Format.bytes(feed.bytes), feed.seconds))
        let label = "Synthetic \(Format.count(feed.stopTimes))"
        let snapshot = tempRoot.appendingPathComponent("synthetic.onward")
        var seconds: [Double] = []
        var cpus: [Double] = []
        var peaks: [Int] = []
        var first: [String: String] = [:]
        for run in 0..<options.synthRuns {
            var args = ["import-peak", folder.path]
            if run == 0 { args += ["--snapshot-out", snapshot.path] }
            let child = try ChildProcess.run(args)
            if run == 0 { first = child }
            let s = Double(child["seconds"] ?? "") ?? .nan
            let peak = Int(child["vmhwm"] ?? "") ?? 0
            seconds.append(s)
            cpus.append(Double(child["cpu_seconds"] ?? "") ?? .nan)
            peaks.append(peak)
            log(String(format: "  child import %d: %.2f s, %.2f M rows/s, VmHWM %@", run + 1, s,
                       Double(feed.stopTimes) / s / 1e6, Format.bytes(peak)))
        }
        let median = Samples(seconds).median
        let rate = Double(feed.stopTimes) / median
        let maxPeak = peaks.max() ?? 0
        let cpu = Samples(cpus).median
        report.add("\(label) import (child process, median of \(seconds.count))",
                   "\(Format.seconds(median)) = \(Format.rate(rate)) (CPU \(Format.seconds(cpu)) = \(Format.rate(Double(feed.stopTimes) / cpu)))", target: "≥ 1.50 M rows/s", pass: rate >= Suite.importTarget)
        report.add("\(label) import peak RSS (VmHWM, max of \(peaks.count))", Format.bytes(maxPeak),
                   target: "≤ 2.5 GB", pass: maxPeak <= Suite.peakTarget)
        let stopTimes = Int(first["stop_time_count"] ?? "") ?? feed.stopTimes
        let approx = Double(Int(first["approximate_bytes"] ?? "") ?? 0) / Double(stopTimes)
        report.add("\(label) approximateByteSize / stop_time", String(format: "%.1f B", approx), target: "≤ 24 B",
                   pass: approx <= Suite.bytesPerStopTimeTarget)
        report.note("\(label): Halifax × \(replicas), \(options.stopMode.rawValue) stops; \(first["trips"] ?? "?") trips, \(first["stops"] ?? "?") stops, \(first["patterns"] ?? "?") patterns, \(first["notices"] ?? "?") notices; feed folder \(Format.bytes(feed.bytes)) written in \(String(format: "%.1f", feed.seconds)) s; peaks \(peaks.map(Format.bytes).joined(separator: ", ")); RSS after import \(Format.bytes(Int(first["vmrss_after"] ?? "") ?? 0)); snapshot written in \(first["snapshot_write_seconds"].flatMap(Double.init).map(Format.seconds) ?? "?")")
        try snapshotFigures(snapshot, label: label, importSeconds: median, stopTimes: stopTimes)
        if !options.keep { try? FileManager.default.removeItem(at: snapshot) }
    }

    // MARK: 5 and 6. Board latency

    func boardLatency(_ tt: Timetable, label: String, stopID: String?, feedForStops: URL, date: ServiceDate, zone: TimeZone) throws {
        var id = stopID
        if id == nil {
            let ids = try BoardBenchmark.stopIDs(in: feedForStops)
            guard let best = BoardBenchmark.busiest(tt, ids: ids, date: date, zone: zone) else { throw BenchError("\(label): no departures on \(date)") }
            id = best.id
        }
        log("board \(label) at \(id!): \(options.queries) queries of each kind")
        let l = try BoardBenchmark.latency(tt, label: label, stopID: id!, date: date, zone: zone, queries: options.queries)
        let where_ = "\(label), \(l.stopName) [\(l.stopID)], \(Format.count(l.departuresThatDay)) dep/day"
        report.add("boardRows p50 / p99: \(where_)", "\(Format.micros(l.rows.percentile(50))) / \(Format.micros(l.rows.percentile(99)))",
                   target: "≤ 20 / ≤ 200 µs", pass: l.rows.percentile(50) <= Suite.p50Target && l.rows.percentile(99) <= Suite.p99Target)
        report.add("board (dressed) p50 / p99: \(where_)", "\(Format.micros(l.dressed.percentile(50))) / \(Format.micros(l.dressed.percentile(99)))",
                   target: "≤ 20 / ≤ 200 µs", pass: l.dressed.percentile(50) <= Suite.p50Target && l.dressed.percentile(99) <= Suite.p99Target)
        report.note(String(format: "%@: %d queries, limit 10, random times on %@ (%@); mean %.1f rows; boardRows max %@, board max %@",
                           label, l.queries, date.isoString, zone.identifier, l.meanRows,
                           Format.micros(l.rows.max), Format.micros(l.dressed.max)))
    }

    static let halifaxDate = ServiceDate(iso: "2025-11-06")!
    static let halifaxZone = TimeZone(identifier: "America/Halifax")!
    static let wmataDate = ServiceDate(iso: "2026-05-01")!
    static let wmataZone = TimeZone(identifier: "America/New_York")!

    /// Halifax replicated (shared stops) for a feed near a million stop_times, then WMATA at Metro Center.
    func boards(halifaxTimetable: Timetable?) throws {
        let folder = tempRoot.appendingPathComponent("board-x\(options.boardReplicas)")
        let feed = try SyntheticFeed(base: options.halifax, stopMode: .shared).write(replicas: options.boardReplicas, to: folder)
        defer { if !options.keep { try? FileManager.default.removeItem(at: folder) } }
        let (result, run) = try ImportBenchmark.importOnce([folder])
        let label = "Halifax ×\(options.boardReplicas) (\(Format.count(feed.stopTimes)) stop_times)"
        report.note("\(label): shared stops, trips renamed; imported in \(Format.seconds(run.seconds))")
        try boardLatency(result.timetable, label: label, stopID: nil, feedForStops: folder, date: Suite.halifaxDate, zone: Suite.halifaxZone)
        if let halifaxTimetable {
            try boardLatency(halifaxTimetable, label: "Halifax ×1 (\(Format.count(halifaxTimetable.stopTimeCount)))", stopID: nil,
                             feedForStops: options.halifax, date: Suite.halifaxDate, zone: Suite.halifaxZone)
        }
        let wmata: GTFSImporter.Result
        do {
            (wmata, _) = try ImportBenchmark.importOnce([options.wmata])
        } catch {
            // The zip as published does not import; board on a copy with blanks at line ends removed.
            let copy = tempRoot.appendingPathComponent("wmata-clean")
            report.note("WMATA zip does not import (\(error)); measured on a copy with blanks at line ends removed")
            var cleaner = SyntheticFeed(base: options.wmata, stopMode: .shared)
            cleaner.renameIDs = false
            _ = try cleaner.write(replicas: 1, to: copy)
            (wmata, _) = try ImportBenchmark.importOnce([copy])
        }
        try boardLatency(wmata.timetable, label: "WMATA (\(Format.count(wmata.timetable.stopTimeCount)))", stopID: "STN_A01_C01",
                         feedForStops: options.wmata, date: Suite.wmataDate, zone: Suite.wmataZone)
    }

    func printReport(title: String) {
        print("\n# onward-bench: \(title)\n")
        print(Machine.summary)
        print("")
        print(report.render())
    }
}

extension Suite {
    /// Halifax trip-updates capture: decode and apply, and board latency with the overlay against static-only.
    func realtime(halifaxTimetable tt: Timetable) throws {
        let capture = options.gtfsFolder.deletingLastPathComponent().appendingPathComponent("gtfs-rt/halifax/TripUpdates-2025-11-06T2104Z.pb")
        let f = try RealtimeBenchmark.run(tt, capture: capture, boardStop: "10001", date: Suite.halifaxDate, zone: Suite.halifaxZone,
                                          runs: max(options.runs * 12, 1), queries: max(options.queries / 2, 100))
        let label = "Halifax trip updates (\(f.entities) entities, \(Format.count(f.stopTimeUpdates)) stop time updates)"
        report.add("\(label): decode (median of \(f.decode.count))", Format.micros(f.decode.median) + String(format: " = %.0f k entities/s", Double(f.entities) / f.decode.median * 1e6))
        report.add("\(label): SwiftProtobuf decode alone, for comparison (median of \(f.swiftProtobufDecode.count))",
                   Format.micros(f.swiftProtobufDecode.median) + String(format: " = %.0f k entities/s", Double(f.entities) / f.swiftProtobufDecode.median * 1e6))
        report.add("\(label): decode + apply, every poll after the first (the pipeline's apply step; median of \(f.decodeAndApply.count); fastest run)",
                   "\(Format.micros(f.decodeAndApply.median)) (fastest \(Format.micros(f.decodeAndApply.min)))",
                   target: "≤ 3 ms", pass: f.decodeAndApply.median <= 3e6)
        report.add("\(label): decode + apply, the first poll after start (feed IDs not yet resolved; median; fastest run)",
                   "\(Format.micros(f.decodeAndFirstApply.median)) (fastest \(Format.micros(f.decodeAndFirstApply.min)))")
        let ratio = f.liveBoard.median / f.staticBoard.median
        report.add("board p50 / p99, Bridge Terminal [10001], ±2 h of the capture: static / with overlay",
                   "\(Format.micros(f.staticBoard.median)) / \(Format.micros(f.staticBoard.percentile(99))) → \(Format.micros(f.liveBoard.median)) / \(Format.micros(f.liveBoard.percentile(99))) (×\(String(format: "%.2f", ratio)))",
                   target: "≤ ×1.10", pass: ratio <= 1.10)
        report.note("\(label): matched trips \(f.report.matchedTrips), unknown trips \(f.report.unknownTrips), unmatched instances \(f.report.unmatchedInstances), matched stop time updates \(f.report.matchedStopTimeUpdates), unknown stops \(f.report.unknownStops), stop_sequence/stop_id disagreements \(f.report.sequenceStopMismatches); largest delay \(f.maxDelay) s, largest lead \(f.maxEarly) s")
    }
}
