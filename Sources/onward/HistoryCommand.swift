import API
import App
import ArgumentParser
import Foundation
import OnwardCore
import Transit

/// `onward history`: how late a stop's routes or a route usually are, from the delay history the server keeps in its data
/// folder (or database); `onward history replay` fills it from recorded GTFS-Realtime files or the simulation.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "How late a stop's routes or a route usually are, by kind of day and hour, from the delay history.",
        discussion: """
            The history is the one `onward serve` keeps with this configuration (the data folder's database, or \
            database_url): what its realtime feeds said of each call, folded per day. `onward history replay` fills it \
            from recorded GTFS-Realtime trip updates (--realtime FILE…, applied in the order of their headers) or from \
            the simulation (--simulate), by the server's own path.
            """,
        subcommands: [Show.self, Replay.self],
        defaultSubcommand: Show.self
    )

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "The usual delays of a stop (by route) or a route.")

        @Argument(help: "A stop or station (ID or name), or a route (ID or short name).")
        var subject: String

        @Option(help: ArgumentHelp("How many days of history to read, back from the last (1–400).", valueName: "DAYS"))
        var days: Int?

        @Flag(help: "The answer of GET /api/v1/stops/{stopId}/history (or routes/{routeId}/history), as JSON.")
        var json = false

        @OptionGroup var feeds: FeedOptions
        @OptionGroup var sources: SourceOptions

        func run() async throws {
            try await runReporting {
                let opened = try await CommandSources(feeds: feeds, live: nil, sources: sources, for: subject)
                let queries = opened.queries()
                let asked: Queries.HistorySubject
                do { asked = try await Self.subject(subject, days: days, queries: queries) } catch { throw error.cli }
                let history = try await HistoryKeeping.open(try await sources.settings())
                let answer = try await history.report(asked, today: ServiceDate(dayNumber: Int32(queries.now.epochSeconds / 86_400)))
                await history.close()
                if json { try printJSON(answer) } else { print(HistoryText.text(answer)) }
            }
        }

        /// A stop by that ID or name, else a route.
        static func subject(_ text: String, days: Int?, queries: Queries) async throws(QueryError) -> Queries.HistorySubject {
            let p = try RequestParameters(options: ["days": days.map(String.init)])
            do { return try await queries.historySubject(.stop, text, p) } catch where error.code == .stopNotFound {
                return try await queries.historySubject(.route, text, p)
            }
        }
    }

    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "replay",
            abstract: "Fill the delay history from recorded GTFS-Realtime trip updates or from the simulation.")

        @OptionGroup var feeds: FeedOptions
        @OptionGroup var live: RealtimeOptions
        @OptionGroup var sources: SourceOptions

        @Option(help: ArgumentHelp("With --simulate: the first day simulated (YYYY-MM-DD, UTC midnight).", valueName: "DATE"))
        var from: String?

        @Option(help: ArgumentHelp("With --simulate: how many days.", valueName: "DAYS"))
        var days: Int = 14

        @Option(help: ArgumentHelp("With --simulate: minutes between simulated polls.", valueName: "MINUTES"))
        var step: Int = 5

        func validate() throws {
            if live.realtime.isEmpty == !live.simulate { throw ValidationError("Give either --realtime FILE… (recordings) or --simulate.") }
            if live.simulate && from == nil { throw ValidationError("--simulate needs --from DATE.") }
            if !(1...400).contains(days) { throw ValidationError("--days is 1 to 400.") }
            // The simulation speaks of runs from three hours back to two ahead: a longer step would miss some.
            if !(1...180).contains(step) { throw ValidationError("--step is 1 to 180 minutes.") }
        }

        func run() async throws {
            try await runReporting {
                let opened = try await CommandSources(feeds: feeds, live: live, sources: sources)
                guard let network = opened.network else { throw CLIError("history is kept for the GTFS network only") }
                let history = try await HistoryKeeping.open(try await sources.settings())
                let replayed: HistoryKeeping.Replayed
                do {
                    if live.simulate {
                        guard let text = from, let date = ServiceDate(iso: text) else { throw CLIError("--from must be YYYY-MM-DD") }
                        replayed = try await history.replaySimulation(network, from: Instant(epochSeconds: Int64(date.dayNumber) * 86_400),
                                                                      days: days, stepMinutes: step)
                    } else {
                        replayed = try await history.replayRecorded(network) { opened.setMoment($0) }
                    }
                } catch let error as CLIError { throw error } catch { throw CLIError("\(error)") }
                await history.close()
                let folded = replayed.folded.map(\.isoString)
                print("Replayed \(replayed.steps) \(live.simulate ? "simulated polls" : "recordings"): \(replayed.observations) observations.")
                print("Folded \(folded.count) day\(folded.count == 1 ? "" : "s")\(folded.isEmpty ? "" : " (\(folded.first!)\(folded.count > 1 ? " to \(folded.last!)" : ""))").")
                print("The history now holds \(replayed.rawObservations) raw observations and \(replayed.aggregates) day aggregates.")
            }
        }
    }
}
