import API
import App
import ArgumentParser
import Foundation
import GTFSRealtime
import OnwardCore
import Timetable
import Transit
import TransitSources

struct BoardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "board",
        abstract: "Departures (or arrivals) at a stop or station.",
        discussion: """
            STOP is a stop ID or a name ("Lebak Bulus", "blok m"); an ambiguous name lists the candidates.
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

    @Option(help: ArgumentHelp("Show the next MINUTES minutes.", valueName: "MINUTES"))
    var window: Int?

    @Option(help: ArgumentHelp("Show the next N services (default 15).", valueName: "N"))
    var limit: Int?

    @Flag(help: "Show arrivals instead of departures.")
    var arrivals = false

    @Flag(help: "Print one JSON document.")
    var json = false

    @OptionGroup var feeds: FeedOptions

    @OptionGroup var live: RealtimeOptions

    @OptionGroup var sources: SourceOptions

    func validate() throws {
        // The API's limits: one query layer, one set of limits.
        if let window, !(1...Queries.maxWindowMinutes).contains(window) {
            throw ValidationError("--window must be between 1 and \(Queries.maxWindowMinutes) minutes.")
        }
        if let limit, !(1...Queries.maxLimit).contains(limit) { throw ValidationError("--limit must be between 1 and \(Queries.maxLimit).") }
        if to != nil && arrivals { throw ValidationError("With --arrivals, use --from STOP to see services coming from a stop.") }
        if from != nil && !arrivals { throw ValidationError("--from goes with --arrivals; for departures use --to STOP.") }
    }

    func run() async throws {
        try await runReporting {
            let registry = try sources.registry()
            if registry.owns(stop) {
                try await sourceBoard(registry)
                return
            }
            try sources.explainUnconfigured(stop)
            let loaded = try feeds.load()
            let tt = loaded.timetable
            if !registry.isEmpty, case .notFound = tt.lookupStop(id: stop), registry.resolve(stop, as: .stop) != nil {
                try await sourceBoard(registry)
                return
            }
            let stopIndex = try resolve(stop, in: tt)
            let viaName = to ?? from
            let via = try viaName.map { try resolve($0, in: tt) }
            let zone = TimeZone(identifier: tt.timeZoneIdentifier(of: stopIndex)) ?? .gmt
            let start = try when.instant(in: zone)
            let request = BoardRequest(kind: arrivals ? .arrivals : .departures, stop: stopIndex, from: start,
                                       window: window.map { $0 * 60 }, limit: window == nil ? (limit ?? 15) : limit, via: via)
            // With a date or time given, the board is "as of" that moment: a service before it has departed.
            let now = when.date == nil && when.time == nil ? Instant.now() : start
            let liveData = await live.load(tt, now: now)
            let entries = liveData.map { tt.liveBoard(request, overlay: $0.overlay, now: now) } ?? tt.board(request)
            let summary = live.summary(liveData, now: now)
            let book = liveData?.alertBook(tt)
            let boardAlerts = book?.boardAlerts(for: stopIndex, routes: entries.map(\.routeID), trips: entries.map(\.tripID), at: now)
            let languages = live.languages
            if json {
                let entryAlerts = book.map { b in entries.map { e in b.serviceAlerts(route: e.routeID, trip: e.tripID, at: now).map(\.id) } }
                let alerts = boardAlerts.map {
                    BoardAlertsDTO(highPriority: $0.highPriority.map { AlertDTO($0, languages: languages, timeZone: zone) },
                                   other: $0.other.map { AlertDTO($0, languages: languages, timeZone: zone) })
                }
                try printJSON(BoardDTO(stop: tt.place(stopIndex), via: via.map { tt.place($0) }, entries: entries, arrivals: arrivals,
                                       live: summary, alerts: alerts, entryAlerts: entryAlerts))
            } else {
                let alertView = book.map { AlertsView(timetable: tt, book: $0, alerts: [], inactive: 0, at: now, zone: zone, languages: languages,
                                                       simulated: summary?.simulated ?? false, subject: nil) }
                print(BoardView(timetable: tt, stop: stopIndex, via: via, from: start, zone: zone, arrivals: arrivals,
                                window: window, entries: entries, origin: loaded.origin, live: summary, now: now,
                                alerts: boardAlerts, alertView: alertView).render(.stdout))
            }
        }
    }
}

extension BoardCommand {
    /// A board from a source behind the protocol (National Rail, the bus tracker), through the
    /// same query layer as the API: what `--json` prints is what the server answers.
    func sourceBoard(_ registry: SourceRegistry) async throws {
        let now = Instant.now()
        let queries = SourceQueries(registry, now: now)
        var at: Instant?
        if when.date != nil || when.time != nil {
            let place: API.StopDTO
            do { place = try await queries.stop(stop) } catch { throw CLIError(error.message) }
            at = try when.instant(in: TimeZone(identifier: place.timeZone) ?? .gmt)
        }
        let query = Queries.BoardQuery(stopID: stop, arrivals: arrivals, via: to ?? from, at: at, windowMinutes: window,
                                       limit: limit, languages: live.languages)
        let board: BoardDTO
        do { board = try await queries.board(query) } catch { throw CLIError(error.message) }
        if json { try printJSON(board) } else { print(SourceBoardView(board: board, now: now).render(.stdout)) }
    }
}

/// Resolves a stop argument, or explains why it cannot.
func resolve(_ text: String, in tt: Timetable) throws -> StopIndex {
    switch tt.resolveStop(text) {
    case .found(let s):
        return s
    case .notFound:
        // Suggest names that are near (a typo), never a search that would find nothing either.
        let near = tt.nearestNames(text)
        guard !near.isEmpty else {
            throw CLIError("no stop or station matches '\(text)'. Search by part of a name with `onward stops --search TEXT`.")
        }
        let list = near.map { "  \($0.id)  \($0.name)" }.joined(separator: "\n")
        throw CLIError("no stop or station matches '\(text)'. Did you mean:\n\(list)")
    case .ambiguous(let candidates):
        let list = candidates.map { "  \($0.id)  \($0.name)\($0.kind == .station ? " (station)" : "")" }.joined(separator: "\n")
        throw CLIError("'\(text)' matches several stops; name one by ID:\n\(list)")
    }
}
