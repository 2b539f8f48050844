import Foundation
import GTFS
import OnwardCore
import OnwardTesting
import Timetable

/// onward-bench: release-built benchmarks for import, snapshots, memory and boards.
/// See `Options.usage`, or run with no arguments for the full report.
func runBench() async throws {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    switch options.command {
    case "help":
        print(Options.usage)
    case "import-peak":
        guard let path = options.positional.first else { throw BenchError("import-peak needs a feed path") }
        try ImportBenchmark.childMain(path: path, snapshotOut: options.snapshotOut)
    case "snapshot-rss":
        guard let path = options.positional.first else { throw BenchError("snapshot-rss needs a snapshot file") }
        try SnapshotBenchmark.childMain(path: path)
    case "synth":
        guard let out = options.out else { throw BenchError("synth needs --out DIR") }
        if options.national {
            let s = try NationalNetwork(rows: options.rows, stops: options.nationalStops, seed: options.seed).write(to: URL(fileURLWithPath: out))
            print("stop_times=\(s.stopTimes)\ntrips=\(s.trips)\nstops=\(s.stops)\ntowns=\(s.towns)\nroutes=\(s.routes)\ntransfers=\(s.transfers)"
                  + "\nbytes=\(s.bytes)\nseconds=\(s.seconds)")
            return
        }
        let generator = SyntheticFeed(base: options.feed.map { URL(fileURLWithPath: $0) } ?? options.halifax, stopMode: options.stopMode)
        let replicas = SyntheticFeed.replicas(forRows: options.rows, baseRows: try generator.baseStopTimeRows())
        let s = try generator.write(replicas: replicas, to: URL(fileURLWithPath: out))
        print("replicas=\(s.replicas)\nstop_times=\(s.stopTimes)\ntrips=\(s.trips)\nstops=\(s.stops)\nbytes=\(s.bytes)\nseconds=\(s.seconds)")
    case "watch":
        let report = Report()
        try await WatchFanoutBenchmark.run(count: options.watchers, report: report)
        print(report.render())
    case "commute":
        let report = Report()
        try await CommuteBenchmark.run(count: options.commutes, report: report)
        print(report.render())
    case "ski":
        try SkiBenchmark.run(queries: options.queries)
    case "history":
        let report = Report()
        let capture = options.halifax.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("gtfs-rt/halifax/TripUpdates-2025-11-06T2104Z.pb")
        try await HistoryBenchmark.run(halifax: options.halifax, capture: capture, polls: 60, report: report)
        print(report.render())
    case "upstreams":
        let report = Report()
        try UpstreamBenchmark.run(report: report, data: options.halifax.deletingLastPathComponent().deletingLastPathComponent())
        print(report.render())
    case "import", "snapshot", "board", "large", "realtime", "page", "planner", "national", "plan-snapshot", "all":
        let suite = try Suite(options: options)
        defer { suite.cleanup() }
        let feed = options.feed.map { URL(fileURLWithPath: $0) } ?? options.halifax
        let label = options.feed == nil ? "Halifax" : feed.lastPathComponent
        switch options.command {
        case "import":
            try suite.importThroughput(feed, label: label)
        case "snapshot":
            let (seconds, _, tt) = try suite.importThroughput(feed, label: label)
            try suite.snapshotFigures(tt, label: label, importSeconds: seconds)
        case "large":
            try suite.synthetic()
        case "page":
            try await suite.boardPage()
        case "planner":
            try suite.planner(halifaxTimetable: nil)
        case "national":
            try suite.national()
        case "plan-snapshot":
            guard let path = options.positional.first else { throw BenchError("plan-snapshot needs a snapshot file") }
            try suite.plannerOnSnapshot(URL(fileURLWithPath: path))
        case "realtime":
            let (result, _) = try ImportBenchmark.importOnce([options.halifax])
            try suite.realtime(halifaxTimetable: result.timetable)
        case "board":
            if let path = options.feed {
                guard let date = options.date.flatMap({ ServiceDate(iso: $0) }), let zone = options.zone.flatMap(TimeZone.init(identifier:)) else {
                    throw BenchError("board --feed needs --date YYYY-MM-DD and --zone TZ")
                }
                let (result, _) = try ImportBenchmark.importOnce([URL(fileURLWithPath: path)])
                try suite.boardLatency(result.timetable, label: label, stopID: options.stop, feedForStops: URL(fileURLWithPath: path), date: date, zone: zone)
            } else {
                let (result, _) = try ImportBenchmark.importOnce([options.halifax])
                try suite.boards(halifaxTimetable: result.timetable)
            }
        default:
            let (seconds, _, tt) = try suite.importThroughput(options.halifax, label: "Halifax")
            try suite.snapshotFigures(tt, label: "Halifax", importSeconds: seconds)
            try suite.boards(halifaxTimetable: tt)
            try suite.realtime(halifaxTimetable: tt)
            try await suite.boardPage()
            try suite.planner(halifaxTimetable: tt)
            try suite.synthetic()
        }
        suite.printReport(title: options.command == "all" ? "full run" : options.command)
    default:
        throw BenchError("unknown command '\(options.command)'\n\n\(Options.usage)")
    }
}

do {
    try await runBench()
} catch {
    log("onward-bench: error: \(error)")
    exit(1)
}
