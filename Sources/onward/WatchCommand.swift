import API
import App
import ArgumentParser
import Foundation
import OnwardCore
import Transit

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Replay a watched journey: the messages its watcher would get, when they would get them.",
        discussion: """
            Watches the journey from FROM to TO leaving at --time (on --date, default today) as the server does, and \
            replays recorded GTFS-Realtime files (--realtime FILE, repeatable: a day's captures) in the order of their \
            headers' timestamps. After each capture the watch is checked, as the server checks it every 30 seconds; \
            each message is printed as it would be sent (by Web Push, Telegram and the live channel), with the best \
            alternative. Nothing is printed when nothing changed. With --track, the traveller's recorded positions \
            follow: from the first of them the journey (planned then, as commuting mode plans it) is replayed through \
            commuting mode with the rest of the recording, as `commute --track` does.
            """
    )

    @Argument(help: "Where from: a stop or station ID or name.")
    var from: String

    @Argument(help: "Where to: a stop or station ID or name.")
    var to: String

    @OptionGroup var planning: PlanOptions

    @Option(help: ArgumentHelp("Start watching this many minutes before the departure (5–180).", valueName: "MINUTES"))
    var lead = 30

    @Option(help: ArgumentHelp("A delay is news from this many minutes (1–60).", valueName: "MINUTES"))
    var threshold = 3

    @Option(help: ArgumentHelp("Then the traveller's positions and beacon sightings (JSON lines, as `commute --track`): from the first, "
                               + "the journey is replayed through commuting mode with the rest of the recording.", valueName: "FILE"))
    var track: String?

    @Option(help: ArgumentHelp("The operator's beacons.csv, for the track's beacon sightings.", valueName: "FILE"))
    var beacons: String?

    @Flag(help: "One JSON line per message: the live channel's notice, then (with --track) each alert as `commute --json` gives it.")
    var json = false

    @OptionGroup var feeds: FeedOptions

    @OptionGroup var live: RealtimeOptions

    @OptionGroup var sources: SourceOptions

    func validate() throws {
        if live.realtime.isEmpty { throw ValidationError("Give the recorded live data to replay: --realtime FILE (repeatable).") }
    }

    func run() async throws {
        try await runReporting {
            let opened = try await CommandSources(feeds: feeds, live: live, sources: sources, for: from)
            let query = try await planning.query(from: from, to: to, queries: opened.queries())
            guard let steps = try await opened.replayLive(from: Instant(epochSeconds: -1)) else {
                throw CLIError("--realtime: a replay reads recorded files, not URLs")
            }
            var said = 0
            do {
                // The server's own watch service (through `App`), on the recording's clock.
                let json = self.json
                let trip = track.map { path in
                    WatchReplay.Trip(track: .file(path: path, beacons: beacons), heading: { replayed in
                        if !json { print("\n" + CommuteCommand.heading(replayed.journey, zone: replayed.zone)) }
                    }, report: { alert in if json { try printJSONLine(alert) } else { print(CommuteCommand.line(alert)) } })
                }
                try await WatchReplay.run(sources: opened.registry, from: query.from, to: query.to, departure: query.at ?? Instant.now(),
                                          leadMinutes: lead, thresholdMinutes: threshold, live: steps, trip: trip, heading: { watch in
                    if !json { print("Watching the \(watch.time) from \(watch.fromName) to \(watch.toName), from \(lead) min before it leaves.\n") }
                }, report: { notice in
                    said += 1
                    if json { try printJSONLine(notice) } else { print(Self.line(notice)) }
                })
            } catch let e as WatchReplay.Failure {
                throw CLIError(e.parameter.map { "--\($0 == "departure" ? "time" : $0): \(e.description)" } ?? e.description)
            } catch {
                throw error.cli
            }
            if !json && said == 0 && track == nil { print("Nothing to say: the journey ran as planned in the recording's window.") }
        }
    }

    /// "07:12:00  cancelled        The 07:40 to Bundaran HI is cancelled: take the 07:48, …"
    static func line(_ n: WatchNoticeDTO) -> String {
        "\(CommuteCommand.clock(n.at))  \(n.kind.padding(toLength: 15, withPad: " ", startingAt: 0))  \(n.message)"
    }
}
