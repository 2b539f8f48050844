import Foundation
import GTFS
import GTFSRealtime
import GTFSSource
import OnwardCore
import Services
import Storage
import StorageSQLite
import SwiftProtobuf
import Timetable
import Transit
import TransitSources

/// The delay history's figures on Halifax: what recording one GTFS-Realtime poll costs (the real capture, every call
/// it speaks of written to SQLite as the server writes it), what a day of history takes on disk (a simulated Halifax
/// service day, polled every `step` minutes), and a board with history shown against one without.
enum HistoryBenchmark {
    static func run(halifax feed: URL, capture: URL, polls: Int, report: Report) async throws {
        let tt = try GTFSImporter.load(paths: [feed]).timetable
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onward-history-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        // 1. One poll of the real capture, again and again (each poll a later message: every call is written again, as a
        // real feed's next poll rewrites its predictions).
        let message = RealtimeMessage(try TransitRealtime_FeedMessage(serializedBytes: try Data(contentsOf: capture)))
        let captured = Instant(epochSeconds: Int64(message.timestamp ?? 0))
        var state = RealtimeState()
        state.apply(message, source: "halifax-rt", timetable: tt, idPrefix: tt.defaultIDPrefix, now: captured)
        let store = try SQLiteStore(directory: folder.path)
        var extract: [Double] = [], write: [Double] = []
        var count = 0
        for i in 0..<(polls + 3) {
            let t0 = Stopwatch.nanos()
            let observations = tt.delayObservations(state.overlay, source: "halifax-rt", observedAt: captured.adding(seconds: Int64(30 * i)))
            let t1 = Stopwatch.nanos()
            try await store.delayHistory.record(observations)
            let t2 = Stopwatch.nanos()
            count = observations.count
            if i >= 3 { extract.append(Double(t1 - t0) / 1e6); write.append(Double(t2 - t1) / 1e6) }
        }
        let e = Samples(extract), w = Samples(write)
        report.add("history: observations per Halifax poll (capture 2025-11-06 21:04Z)", "\(count)")
        report.add("history: extract per poll p50/p99 (\(polls) polls)", String(format: "%.1f / %.1f ms", e.median, e.percentile(99)))
        report.add("history: SQLite write per poll p50/p99 (FULL sync)", String(format: "%.1f / %.1f ms", w.median, w.percentile(99)))

        // 2. Simulated Halifax service days, polled every 10 minutes, folded: rows and bytes per day.
        let dayFolder = folder.appendingPathComponent("days")
        try FileManager.default.createDirectory(at: dayFolder, withIntermediateDirectories: true)
        let days = try SQLiteStore(directory: dayFolder.path)
        let writer = RealtimeWriter(store: LiveStore(NetworkState(timetable: tt)))
        await writer.observeDelays { try? await days.delayHistory.record($0) }
        let zone = TimeZone(identifier: "America/Halifax")!
        let first = ServiceDate(year: 2025, month: 11, day: 3)!   // a Monday
        // A whole week, Monday to Sunday: weekends run fewer trips, so a year is estimated from the week's days.
        let simulatedDays = 7
        let start = LocalTime.instant(date: first, secondsOfDay: 4 * 3600, in: zone)
        let simulation = SimulatedFeed(timetable: tt, idPrefix: tt.defaultIDPrefix)
        let (_, seconds) = await Stopwatch.measureAsync {
            for i in 0..<(simulatedDays * 144) {
                let now = start.adding(seconds: Int64(i * 600))
                await writer.apply(RealtimeMessage(simulation.messages(at: now).tripUpdates), source: "halifax-sim", now: now)
            }
        }
        let rawSize = try await days.delayHistory.size()
        let rawBytes = fileBytes(dayFolder)
        _ = try await days.delayHistory.fold(through: first.adding(days: simulatedDays))
        let folded = try await days.delayHistory.size()
        let aggregates = try await days.delayHistory.aggregates(first.adding(days: -1)...first.adding(days: simulatedDays), routeID: nil, stopID: nil)
        // The bytes an aggregate row holds (its text and numbers); SQLite adds its record header and the primary key's index.
        let aggregateText = aggregates.reduce(0) { $0 + $1.routeID.utf8.count + $1.stopID.utf8.count + $1.departures.encoded.utf8.count
            + $1.arrivals.encoded.utf8.count + 4 * 4 }
        let perDayRaw = Double(rawSize.observations) / Double(simulatedDays), perDayAggregates = Double(folded.aggregates) / Double(simulatedDays)
        report.add("history: simulated Halifax days replayed", "\(simulatedDays) days, \(simulatedDays * 144) polls in \(String(format: "%.0f", seconds)) s")
        report.add("history: raw observations per day", String(format: "%.0f (%.1f MB on disk with the WAL, all days)", perDayRaw, Double(rawBytes) / 1e6))
        report.add("history: day aggregates per day", String(format: "%.0f rows, %.0f bytes of data each", perDayAggregates,
                                                               Double(aggregateText) / Double(max(aggregates.count, 1))))
        let rowBytes = Double(aggregateText) / Double(max(aggregates.count, 1)) * 2   // the row and its primary-key index
        // Rows by kind of day: the week's five weekdays, its Saturday and its Sunday, and a year of 52.18 such weeks.
        var rowsByDay: [ServiceDate: Int] = [:]
        for a in aggregates { rowsByDay[a.serviceDate, default: 0] += 1 }
        let weekdays = (0..<5).map { rowsByDay[first.adding(days: $0)] ?? 0 }
        let saturday = rowsByDay[first.adding(days: 5)] ?? 0, sunday = rowsByDay[first.adding(days: 6)] ?? 0
        report.add("history: aggregate rows per weekday (Mon–Fri) / Saturday / Sunday",
                   weekdays.map(String.init).joined(separator: ", ") + " / \(saturday) / \(sunday)")
        let rowsPerWeek = Double(weekdays.reduce(0, +) + saturday + sunday)
        report.add("history: a year of Halifax aggregates (estimate)", String(format: "%.2f GB (%.0f rows a week × 365/7 × %.0f B)",
                                                                             rowsPerWeek * 365 / 7 * rowBytes / 1e9, rowsPerWeek, rowBytes))

        // 3. The busiest Halifax stop's board with the history book shown, against none, side by side.
        let book = DelayHistoryBook(aggregates)
        report.add("history: book entries with history enough", "\(book.count)")
        var plain = NetworkState(timetable: tt), withHistory = NetworkState(timetable: tt)
        plain.realtime = state; withHistory.realtime = state
        plain.sources["halifax-rt"] = SourceHealth(name: "halifax-rt"); withHistory.sources["halifax-rt"] = SourceHealth(name: "halifax-rt")
        withHistory.history = book
        let sources = [GTFSNetworkSource(store: LiveStore(plain), displayName: "Halifax"), GTFSNetworkSource(store: LiveStore(withHistory), displayName: "Halifax")]
        guard let busiest = BoardBenchmark.busiest(tt, ids: try BoardBenchmark.stopIDs(in: feed), date: first, zone: zone) else {
            throw BenchError("no Halifax stop has departures on \(first)")
        }
        let stop = tt.place(busiest.stop).id
        var times: [[Double]] = [[], []]
        var shown = 0
        for i in 0..<(polls * 20 + 100) {
            for (k, source) in sources.enumerated() {
                let at = LocalTime.instant(date: first, secondsOfDay: 6 * 3600 + (i % 60) * 900, in: zone)
                let t0 = Stopwatch.nanos()
                let board = try await source.board(SourceBoardRequest(kind: .departures, stopID: stop, at: at, limit: 20, now: at))
                let t1 = Stopwatch.nanos()
                if i >= 100 { times[k].append(Double(t1 - t0) / 1e3) }
                if k == 1 { shown += board.entries.filter { $0.usualDelay != nil }.count }
            }
        }
        let a = Samples(times[0]), b = Samples(times[1])
        report.add("history: board \(stop) p50 without / with history", String(format: "%.1f / %.1f µs (%d rows with a usual delay)", a.median, b.median, shown))
        report.add("history: board with history / without (p50)", String(format: "×%.3f", b.median / a.median), target: "≤ ×1.10",
                   pass: b.median / a.median <= 1.10)
    }

    static func fileBytes(_ folder: URL) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.reduce(0) { total, name in
            total + ((try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.size] as? Int) ?? 0)
        }
    }
}

extension Stopwatch {
    static func measureAsync<T>(_ body: () async throws -> T) async rethrows -> (value: T, seconds: Double) {
        let start = nanos()
        let value = try await body()
        return (value, Double(nanos() - start) / 1e9)
    }
}
