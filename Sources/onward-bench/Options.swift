import Foundation

/// Command-line options, parsed by hand.
struct Options {
    var command = "all"
    var positional: [String] = []
    var dataDir: String?
    var rows = 10_000_000
    var runs = 5
    var synthRuns = 3
    var queries = 10_000
    var commutes = 10_000
    var watchers = 10_000
    var boardReplicas = 3
    var stopMode = SyntheticFeed.StopMode.renamed
    /// `synth --national`: a country made from a seed (`NationalNetwork`), not copies of a real feed.
    var national = false
    var nationalStops: Int?
    var seed: UInt64 = 1
    var keep = false
    var out: String?
    var feed: String?
    var date: String?
    var zone: String?
    var stop: String?
    var snapshotOut: String?
    var tmp: String?

    static let usage = """
    usage: onward-bench [all] [options]           run every benchmark and print a report
           onward-bench import [--feed PATH] [--runs N]
           onward-bench history   (delay history on Halifax: write cost per poll, rows and bytes per day, board with history)
           onward-bench import-peak PATH [--snapshot-out FILE]   (one import; prints time and VmHWM)
           onward-bench snapshot [--feed PATH] [--runs N]
           onward-bench snapshot-rss FILE                          (prints VmRSS before/after loading)
           onward-bench board [--feed PATH --date YYYY-MM-DD --zone TZ [--stop ID]] [--board-replicas N] [--queries N]
           onward-bench planner                          (journeys: one-to-one and one-hour range queries on Halifax and WMATA; index size)
       onward-bench page                             (board page render on the bundled network with simulated live data)
           onward-bench watch [--watchers N]            (one cancellation pushed to N watchers of one train, through a push endpoint on this machine)
           onward-bench commute [--commutes N]          (commuting mode: the engine per fix and per live update, a fix through the service, a live refresh)
           onward-bench ski [--queries N]               (ski area: load time; route queries between random points at every level)
           onward-bench upstreams                        (Darwin parse, alone and two at once; upstream requests saved by caching and coalescing)
           onward-bench large [--rows N] [--synth-runs N] [--stops renamed|shared]   (synthetic feed: import, peak RSS, snapshot)
           onward-bench synth --rows N --out DIR [--stops renamed|shared] [--feed BASE]
           onward-bench synth --national --rows N --out DIR [--national-stops N] [--seed N]   (a country from a seed: towns, buses, rail)
           onward-bench national [--rows N] [--national-stops N] [--seed N] [--queries N]   (that country: written, imported, journeys planned)
           onward-bench plan-snapshot FILE [--date YYYY-MM-DD --zone TZ] [--queries N]   (journeys on a compiled snapshot; the national network's date and zone by default)
    options:
      --data DIR            folder with the GTFS zips (default ../shared/data/gtfs or /work/shared/data/gtfs)
      --rows N              stop_times in the synthetic feed (default 10000000)
      --runs N              timed runs for imports and snapshot loads (default 5)
      --synth-runs N        child-process imports of the synthetic feed (default 3)
      --queries N           board queries per measurement (default 10000)
      --board-replicas N    copies of Halifax for the board feed (default 3, shared stops)
      --stops MODE          synthetic stops: renamed (each copy its own) or shared (default renamed)
      --tmp DIR             where temporary feeds and snapshots go (default the system temp folder)
      --keep                keep the temporary folder
      --national            synth: a national network made from a seed (about --rows stop_times; see NationalNetwork)
      --national-stops N    its stops (default rows / 500)
      --seed N              its seed (default 1)
    """

    init(_ args: [String]) throws {
        var i = 0
        func value() throws -> String {
            i += 1
            guard i < args.count else { throw BenchError("\(args[i - 1]) needs a value\n\n\(Options.usage)") }
            return args[i]
        }
        func int() throws -> Int {
            let v = try value()
            guard let n = Int(v.replacingOccurrences(of: "_", with: "")), n > 0 else { throw BenchError("\(args[i - 1]): '\(v)' is not a positive number") }
            return n
        }
        var sawCommand = false
        while i < args.count {
            let a = args[i]
            switch a {
            case "--data": dataDir = try value()
            case "--rows": rows = try int()
            case "--runs": runs = try int()
            case "--synth-runs": synthRuns = try int()
            case "--queries": queries = try int()
            case "--commutes": commutes = try int()
            case "--watchers": watchers = try int()
            case "--board-replicas": boardReplicas = try int()
            case "--stops":
                let v = try value()
                guard let m = SyntheticFeed.StopMode(rawValue: v) else { throw BenchError("--stops: renamed or shared, not '\(v)'") }
                stopMode = m
            case "--keep": keep = true
            case "--national": national = true
            case "--national-stops": nationalStops = try int()
            case "--seed": seed = UInt64(try int())
            case "--out": out = try value()
            case "--feed": feed = try value()
            case "--date": date = try value()
            case "--zone": zone = try value()
            case "--stop": stop = try value()
            case "--snapshot-out": snapshotOut = try value()
            case "--tmp": tmp = try value()
            case "-h", "--help", "help": command = "help"; sawCommand = true
            default:
                if a.hasPrefix("-") { throw BenchError("unknown option \(a)\n\n\(Options.usage)") }
                if !sawCommand { command = a; sawCommand = true } else { positional.append(a) }
            }
            i += 1
        }
    }

    /// The folder holding the GTFS zips.
    var gtfsFolder: URL {
        if let dataDir { return URL(fileURLWithPath: dataDir) }
        for candidate in ["../shared/data/gtfs", "/work/shared/data/gtfs"]
        where FileManager.default.fileExists(atPath: candidate + "/halifax-transit-2025-08.zip") {
            return URL(fileURLWithPath: candidate)
        }
        return URL(fileURLWithPath: "../shared/data/gtfs")
    }

    var halifax: URL { gtfsFolder.appendingPathComponent("halifax-transit-2025-08.zip") }
    var wmata: URL { gtfsFolder.appendingPathComponent("wmata-metrorail-2026-04.zip") }
}
