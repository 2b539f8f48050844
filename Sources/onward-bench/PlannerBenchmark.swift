import Foundation
import GTFS
import GTFSRealtime
import OnwardCore
import OnwardTesting
import SwiftProtobuf
import Timetable

/// Journey planner figures: building its indices, the memory they add, one-to-one
/// queries between random stop pairs (the Pareto set of arrival and changes for the
/// first departure) and one-hour range queries.
enum PlannerBenchmark {
    struct Figures {
        var build: Double
        var bytes: Int
        var oneToOne: Samples
        var range: Samples
        var found: Int
        var queries: Int
        var meanJourneys: Double
    }

    static func run(_ tt: Timetable, date: ServiceDate, zone: TimeZone, queries: Int, rangeQueries: Int) -> Figures {
        let t0 = Stopwatch.nanos()
        let planner = JourneyPlanner(tt)
        let build = Double(Stopwatch.nanos() - t0)
        // Stops where some service calls: random pairs among them, random times 06:00–22:00 local.
        let served = tt.allStops.filter { planner.callsAt($0) }
        var rng = SplitMix64(seed: 11)
        let midnight = LocalTime.instant(date: date, secondsOfDay: 0, in: zone)
        func randomRequest(window: Int) -> JourneyPlanner.Request {
            var from = served[Int.random(in: 0..<served.count, using: &rng)], to = from
            while to == from { to = served[Int.random(in: 0..<served.count, using: &rng)] }
            var r = JourneyPlanner.Request(from: from, to: to, time: midnight.adding(seconds: Int64(Int.random(in: 6 * 3600..<22 * 3600, using: &rng))))
            r.window = window
            r.limit = 100
            from = to
            return r
        }
        let oneToOne = (0..<queries).map { _ in randomRequest(window: 0) }
        let range = (0..<rangeQueries).map { _ in randomRequest(window: 3600) }
        var found = 0, journeys = 0
        for r in oneToOne.prefix(20) { _ = planner.plan(r) }  // warm-up
        var times: [Double] = []
        for r in oneToOne {
            let s = Stopwatch.nanos()
            let answer = planner.plan(r)
            times.append(Double(Stopwatch.nanos() - s))
            if !answer.isEmpty { found += 1; journeys += answer.count }
        }
        var rangeTimes: [Double] = []
        for r in range {
            let s = Stopwatch.nanos()
            _ = planner.plan(r)
            rangeTimes.append(Double(Stopwatch.nanos() - s))
        }
        return Figures(build: build, bytes: planner.indexBytes, oneToOne: Samples(times), range: Samples(rangeTimes), found: found,
                       queries: queries, meanJourneys: found == 0 ? 0 : Double(journeys) / Double(found))
    }
}

extension Suite {
    /// One-to-one and range journeys on Halifax and WMATA, then on Halifax copied to `--rows`
    /// stop_times (10 million by default) with shared stops: a city as busy as thirty Halifaxes.
    func planner(halifaxTimetable: Timetable?) throws {
        let halifax = try halifaxTimetable ?? ImportBenchmark.importOnce([options.halifax]).0.timetable
        try plannerFigures("Halifax", halifax, date: Suite.halifaxDate, zone: Suite.halifaxZone, oneToOneTarget: 1e6, rangeTarget: 10e6)
        let wmata = try ImportBenchmark.importOnce([options.wmata]).0.timetable
        try plannerFigures("WMATA", wmata, date: Suite.wmataDate, zone: Suite.wmataZone, oneToOneTarget: 1e6, rangeTarget: nil)

        let generator = SyntheticFeed(base: options.halifax, stopMode: .shared)
        let replicas = SyntheticFeed.replicas(forRows: options.rows, baseRows: try generator.baseStopTimeRows())
        let folder = tempRoot.appendingPathComponent("planner-synthetic")
        log("planner: Halifax × \(replicas) (shared stops) into \(folder.path)")
        let feed = try generator.write(replicas: replicas, to: folder)
        defer { if !options.keep { try? FileManager.default.removeItem(at: folder) } }
        let synthetic = try ImportBenchmark.importOnce([folder]).0.timetable
        try plannerFigures("Halifax ×\(replicas), shared stops", synthetic, date: Suite.halifaxDate, zone: Suite.halifaxZone,
                           oneToOneTarget: 20e6, rangeTarget: nil)
        report.note("Halifax ×\(replicas): \(Format.count(feed.trips)) trips on Halifax's \(Format.count(feed.stops)) stops")
    }

    private func plannerFigures(_ label: String, _ tt: Timetable, date: ServiceDate, zone: TimeZone, oneToOneTarget: Double, rangeTarget: Double?) throws {
        log("planner \(label): \(options.queries / 10) one-to-one queries, \(options.queries / 100) one-hour ranges")
        let f = PlannerBenchmark.run(tt, date: date, zone: zone, queries: max(options.queries / 10, 50), rangeQueries: max(options.queries / 100, 20))
        let name = "\(label) (\(Format.count(tt.stopTimeCount)) stop_times)"
        report.add("planner one-to-one p50 / p99: \(name), random pairs 06:00–22:00",
                   "\(Format.micros(f.oneToOne.median)) / \(Format.micros(f.oneToOne.percentile(99)))",
                   target: String(format: "≤ %g ms median", oneToOneTarget / 1e6), pass: f.oneToOne.median <= oneToOneTarget)
        let range = "\(Format.micros(f.range.median)) / \(Format.micros(f.range.percentile(99)))"
        if let rangeTarget {
            report.add("planner one-hour range p50 / p99: \(name)", range, target: String(format: "≤ %g ms median", rangeTarget / 1e6), pass: f.range.median <= rangeTarget)
        } else {
            report.add("planner one-hour range p50 / p99: \(name)", range)
        }
        report.add("planner indices: \(name)", String(format: "built in %@; %@ = %.1f bytes per stop_time",
                                                      Format.micros(f.build), Format.bytes(f.bytes), Double(f.bytes) / Double(max(tt.stopTimeCount, 1))))
        report.note("\(name): \(f.found) of \(f.queries) one-to-one queries found journeys, \(String(format: "%.2f", f.meanJourneys)) per answer (Pareto set of arrival and changes)")
        // A server plans one request per core at once, so its rate is bounded by the mean, not the median.
        report.note("\(name): one-to-one mean \(Format.micros(f.oneToOne.mean)), at most \(String(format: "%.0f", 1e9 / f.oneToOne.mean)) plans a second per core; range mean \(Format.micros(f.range.mean))")
    }
}

extension Suite {
    /// The national network (`NationalNetwork`, `--rows` stop_times, seed `--seed`): generating it, importing it in
    /// process, and the planner's one-to-one and one-hour range queries on it, against issue 26's targets.
    func national() throws {
        let folder = tempRoot.appendingPathComponent("national")
        log("national: \(Format.count(options.rows)) stop_times, seed \(options.seed), into \(folder.path)")
        let network = NationalNetwork(rows: options.rows, stops: options.nationalStops, seed: options.seed)
        let written = try network.write(to: folder)
        defer { if !options.keep { try? FileManager.default.removeItem(at: folder) } }
        report.add("national network written: \(Format.count(written.stopTimes)) stop_times, \(Format.count(written.stops)) stops, "
                   + "\(Format.count(written.towns)) towns, \(Format.count(written.routes)) routes", String(format: "%.1f s, %@", written.seconds, Format.bytes(written.bytes)))
        let (result, run) = try ImportBenchmark.importOnce([folder])
        report.add("national network import (in process)", String(format: "%.1f s, %.2f M rows/s", run.seconds, Double(written.stopTimes) / run.seconds / 1e6))
        let rows = Double(max(result.timetable.stopTimeCount, 1))
        for (part, bytes) in result.timetable.memoryBreakdown {
            report.add("national timetable memory: \(part)", String(format: "%@ = %.1f bytes per stop_time", Format.bytes(bytes), Double(bytes) / rows))
        }
        try nationalRealtime(result.timetable)
        try plannerFigures("national", result.timetable, date: ServiceDate(iso: "2026-03-04")!, zone: TimeZone(identifier: "Europe/Zurich")!,
                           oneToOneTarget: 25e6, rangeTarget: 150e6)
    }
}

extension Suite {
    /// One-to-one and range journeys on a compiled snapshot (`onward import … --snapshot`), without generating and
    /// importing a feed first: the national network's date and zone unless `--date` and `--zone` say otherwise.
    func plannerOnSnapshot(_ file: URL) throws {
        let tt = try Timetable.loadSnapshot(from: file)
        let date = try options.date.map { d in try ServiceDate(iso: d) ?? { throw BenchError("--date: '\(d)' is not YYYY-MM-DD") }() }
        let zone = try options.zone.map { z in try TimeZone(identifier: z) ?? { throw BenchError("--zone: unknown time zone '\(z)'") }() }
        try plannerFigures(file.lastPathComponent, tt, date: date ?? ServiceDate(iso: "2026-03-04")!, zone: zone ?? TimeZone(identifier: "Europe/Zurich")!,
                           oneToOneTarget: 25e6, rangeTarget: 150e6)
    }
}

extension Suite {
    /// Issue 26, item 4: a GTFS-Realtime message of `count` trip updates for the national network's weekday trips
    /// leaving around 08:00 (each late by 1–10 minutes from its first call, with three stop time updates), decoded
    /// and applied, and a board with it against the board without.
    func nationalRealtime(_ tt: Timetable, count: Int = 5_000) throws {
        let date = ServiceDate(iso: "2026-03-04")!
        var rng = SplitMix64(seed: 5)
        var message = TransitRealtime_FeedMessage()
        message.header.gtfsRealtimeVersion = "2.0"
        message.header.timestamp = UInt64(LocalTime.instant(date: date, secondsOfDay: 8 * 3600, in: TimeZone(identifier: "Europe/Zurich")!).epochSeconds)
        for t in 0..<UInt32(tt.tripCount) where message.entity.count < count {
            let trip = TripIndex(raw: t), id = tt.tripIdentifier(trip)
            // Weekday runs whose first departure is 07:30–08:30 (their IDs carry the minute of it).
            let parts = id.split(separator: "_")
            guard parts.count >= 4, parts[parts.count - 3] == "WD", let minute = Int(parts[parts.count - 2]), (450..<510).contains(minute),
                  tt.runs(trip, on: date) else { continue }
            var update = TransitRealtime_TripUpdate()
            update.trip.tripID = String(id.split(separator: ":", maxSplits: 1).last!)
            update.trip.startDate = "20260304"
            let delay = Int32(Int.random(in: 60...600, using: &rng))
            for (n, sequence) in [1, 3, 5].enumerated() {
                var stu = TransitRealtime_TripUpdate.StopTimeUpdate()
                stu.stopSequence = UInt32(sequence)
                stu.departure.delay = delay + Int32(n * 30)
                stu.arrival.delay = delay + Int32(n * 30)
                update.stopTimeUpdate.append(stu)
            }
            var entity = TransitRealtime_FeedEntity()
            entity.id = "u\(message.entity.count)"
            entity.tripUpdate = update
            message.entity.append(entity)
        }
        let file = tempRoot.appendingPathComponent("national-trip-updates.pb")
        try message.serializedData().write(to: file)
        let f = try RealtimeBenchmark.run(tt, capture: file, boardStop: "T0B", date: date, zone: TimeZone(identifier: "Europe/Zurich")!,
                                          runs: 30, queries: max(options.queries / 2, 100))
        let label = "national trip updates (\(f.entities) entities, \(Format.count(f.stopTimeUpdates)) stop time updates)"
        report.add("\(label): decode + apply, every poll after the first (median of \(f.decodeAndApply.count))", Format.micros(f.decodeAndApply.median),
                   target: "≤ 15 ms", pass: f.decodeAndApply.median <= 15e6)
        report.add("\(label): decode + apply, the first poll after start", Format.micros(f.decodeAndFirstApply.median))
        let ratio = f.liveBoard.median / f.staticBoard.median
        report.add("national board p50, a city's station bus stop [T0B], ±2 h of 08:00: static → with the overlay",
                   "\(Format.micros(f.staticBoard.median)) → \(Format.micros(f.liveBoard.median)) (×\(String(format: "%.2f", ratio)))",
                   target: "≤ ×1.10", pass: ratio <= 1.10)
        report.note("\(label): matched trips \(f.report.matchedTrips), unknown trips \(f.report.unknownTrips), matched stop time updates \(f.report.matchedStopTimeUpdates)")
    }
}
