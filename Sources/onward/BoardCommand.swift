import API
import App
import ArgumentParser
import Foundation
import OnwardCore
import Transit

struct BoardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "board",
        abstract: "Departures (or arrivals) at a stop or station.",
        discussion: """
            STOP is a stop ID or a name ("Lebak Bulus", "blok m"); an ambiguous name lists the candidates. \
            A station gathers the departures of all its platforms.
            """
    )

    @Argument(help: "Stop or station: an ID or a name.")
    var stop: String

    @Option(help: ArgumentHelp("Only services that later call at this stop or station.", valueName: "STOP"))
    var to: String?

    @Option(help: ArgumentHelp("With --arrivals: only services that earlier called at this stop or station.", valueName: "STOP"))
    var from: String?

    @OptionGroup var when: TimeOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Show the next MINUTES minutes.", valueName: "MINUTES"))
    var window: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Show the next N services (default: \(Queries.defaultLimit) without --window).", valueName: "N"))
    var limit: Int?

    @Flag(help: "Show arrivals instead of departures.")
    var arrivals = false

    @Flag(help: "Print one JSON document.")
    var json = false

    @OptionGroup var feeds: FeedOptions

    @OptionGroup var live: RealtimeOptions

    @OptionGroup var sources: SourceOptions

    func validate() throws {
        if to != nil && arrivals { throw ValidationError("With --arrivals, use --from STOP to see services coming from a stop.") }
        if from != nil && !arrivals { throw ValidationError("--from goes with --arrivals; for departures use --to STOP.") }
    }

    func run() async throws {
        try await runReporting {
            let opened = try await CommandSources(feeds: feeds, live: live, sources: sources, for: stop)
            let lookup = opened.queries()
            // The stop, its calling point, date, time, window and limit read as the API reads a request.
            var query: Queries.BoardQuery
            let place: StopPlace, stopRef: Queries.ResolvedStop
            do {
                place = try await lookup.matchStop(stop)
                stopRef = try lookup.resolvedStop(place.id)
                let options: [String: String?] = ["to": to, "from": from, "window": window.map(String.init), "limit": limit.map(String.init)]
                query = try await lookup.boardQuery(try RequestParameters(options: options.merging(when.parameters) { $1 }), stop: stopRef,
                                                    arrivals: arrivals)
            } catch { throw error.cli }
            query.languages = live.languages
            let zone = TimeZone.named(place.timeZone)
            // With a date or time given, a timetable's board is "as of" that moment: a service before it has
            // departed. A live-only source answers for its own now, and refuses another time itself.
            let at = query.at
            let now = stopRef.answersForAnyTime ? at ?? Instant.now() : Instant.now()
            await opened.readLive(asOf: now)
            let board: BoardDTO
            do { board = try await opened.queries(now: now).board(query, stop: stopRef) } catch { throw error.cli }
            if json { try printJSON(board); return }
            if board.isLiveOnly {  // drawn as the upstream answered it
                print(SourceBoardView(board: board, now: now).render(.stdout))
            } else {
                let names = opened.queries().names(of: (board.alerts?.highPriority ?? []) + (board.alerts?.other ?? []))
                print(BoardView(board: board, from: at ?? now, zone: zone, window: window, origin: opened.network?.loaded.origin ?? "",
                                alerts: AlertText(names: names, at: now, zone: zone)).render(.stdout))
            }
        }
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
