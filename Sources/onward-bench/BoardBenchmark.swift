import Foundation
import GTFS
import OnwardCore
import Timetable

/// Departure-board latency at one station, over random start times across a service day.
enum BoardBenchmark {
    struct Latency {
        var label: String
        var stopID: String
        var stopName: String
        var departuresThatDay: Int
        var queries: Int
        var meanRows: Double
        /// Nanoseconds per `boardRows` call.
        var rows: Samples
        /// Nanoseconds per `board` call (rows dressed with names).
        var dressed: Samples
    }

    /// The stop IDs a feed lists, read from its stops.txt.
    static func stopIDs(in feed: URL) throws -> [String] {
        let source = try openGTFSSource(feed)
        var bytes: [UInt8] = []
        try source.read("stops.txt") { bytes.append(contentsOf: $0) }
        let t = CSVTemplate(bytes, rename: [], keep: ["stop_id"])
        return (0..<t.recordCount).map { t.keptValue(record: $0, 0) }.filter { !$0.isEmpty }
    }

    /// Departures from a stop (a station gathers its platforms) in the 24 hours from local midnight.
    static func departures(_ tt: Timetable, _ stop: StopIndex, date: ServiceDate, zone: TimeZone) -> Int {
        let from = LocalTime.instant(date: date, secondsOfDay: 0, in: zone)
        return tt.boardRows(BoardRequest(kind: .departures, stop: stop, from: from, window: 86_400)).count
    }

    /// The stop or station with the most departures that day.
    static func busiest(_ tt: Timetable, ids: [String], date: ServiceDate, zone: TimeZone) -> (id: String, stop: StopIndex, departures: Int)? {
        var best: (id: String, stop: StopIndex, departures: Int)?
        for id in ids {
            guard let stop = tt.stop(id: id) else { continue }
            let n = departures(tt, stop, date: date, zone: zone)
            if n > (best?.departures ?? -1) { best = (id, stop, n) }
        }
        return best
    }

    /// Times `queries` boards of the next `limit` departures from random times of day, after a warm-up.
    static func latency(_ tt: Timetable, label: String, stopID: String, date: ServiceDate, zone: TimeZone,
                        queries: Int, limit: Int = 10, seed: UInt64 = 42) throws -> Latency {
        guard let stop = tt.stop(id: stopID) else { throw BenchError("\(label): no stop '\(stopID)'") }
        var rng = SplitMix64(seed: seed)
        let instants = (0..<queries).map { _ in
            LocalTime.instant(date: date, secondsOfDay: Int.random(in: 0..<86_400, using: &rng), in: zone)
        }
        let requests = instants.map { BoardRequest(kind: .departures, stop: stop, from: $0, limit: limit) }
        var sink = 0
        var totalRows = 0
        // Warm-up: caches, page faults, lazy initialisation.
        for r in requests.prefix(Swift.min(2_000, queries)) {
            sink &+= tt.boardRows(r).count
            sink &+= tt.board(r).count
        }
        var rowTimes: [Double] = []
        rowTimes.reserveCapacity(queries)
        for r in requests {
            let t0 = Stopwatch.nanos()
            let rows = tt.boardRows(r)
            let t1 = Stopwatch.nanos()
            rowTimes.append(Double(t1 - t0))
            totalRows += rows.count
            sink &+= Int(truncatingIfNeeded: rows.first?.instant ?? 0)
        }
        var dressedTimes: [Double] = []
        dressedTimes.reserveCapacity(queries)
        for r in requests {
            let t0 = Stopwatch.nanos()
            let entries = tt.board(r)
            let t1 = Stopwatch.nanos()
            dressedTimes.append(Double(t1 - t0))
            sink &+= entries.count &+ (entries.first?.tripID.utf8.count ?? 0)
        }
        if sink == 42 { print("") }  // keeps the results observable
        return Latency(label: label, stopID: stopID, stopName: tt.place(stop).name,
                       departuresThatDay: departures(tt, stop, date: date, zone: zone), queries: queries,
                       meanRows: Double(totalRows) / Double(max(queries, 1)),
                       rows: Samples(rowTimes), dressed: Samples(dressedTimes))
    }
}
