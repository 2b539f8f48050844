import API
import App
import ArgumentParser
import Foundation
import OnwardCore
import Transit

struct PlanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Journeys from one stop or station to another, with changes.",
        discussion: """
            FROM and TO are stop IDs or names ("Lebak Bulus", "Bundaran HI"); a station means any of its platforms.
            Lists the fastest ways for each number of changes, earliest departure first; with --window, every
            option leaving in the window.
            """
    )

    @Argument(help: "Where from: a stop or station ID or name.")
    var from: String

    @Argument(help: "Where to: a stop or station ID or name.")
    var to: String

    @OptionGroup var when: TimeOptions

    @Flag(help: "Arrive by --time rather than leave at it.")
    var arriveBy = false

    @Option(help: ArgumentHelp("Every option leaving in the next MINUTES minutes (default: those of the first departure).", valueName: "MINUTES"))
    var window: Int = 0

    @Option(help: ArgumentHelp("At most N journeys (default \(Queries.defaultJourneyLimit)).", valueName: "N"))
    var limit: Int = Queries.defaultJourneyLimit

    @Option(help: ArgumentHelp("The longest walk between stops, in metres (default 500; 0: only the feed's transfers).", valueName: "METRES"))
    var maxWalk: Int = 500

    @Option(help: ArgumentHelp("The least time for a change, in seconds (default 60).", valueName: "SECONDS"))
    var transferSlack: Int = 60

    @Option(help: ArgumentHelp("At most N changes (default 5).", valueName: "N"))
    var maxTransfers: Int = 5

    @Flag(help: "Print one JSON document.")
    var json = false

    @OptionGroup var feeds: FeedOptions

    @OptionGroup var live: RealtimeOptions

    @OptionGroup var sources: SourceOptions

    func validate() throws {
        // The API's limits: one query layer, one set of limits.
        func check(_ v: Int, _ r: ClosedRange<Int>, _ name: String, _ unit: String) throws {
            if !r.contains(v) { throw ValidationError("--\(name) must be between \(r.lowerBound) and \(r.upperBound)\(unit).") }
        }
        try check(window, 0...Queries.maxWindowMinutes, "window", " minutes")
        try check(limit, 1...Queries.maxLimit, "limit", "")
        try check(maxWalk, 0...Queries.maxWalkMetres, "max-walk", " metres")
        try check(transferSlack, 0...Queries.maxTransferSlackSeconds, "transfer-slack", " seconds")
        try check(maxTransfers, 0...Queries.maxTransfersAllowed, "max-transfers", "")
        if arriveBy && when.time == nil { throw ValidationError("--arrive-by needs --time.") }
    }

    func run() async throws {
        try await runReporting {
            let opened = try CommandSources(feeds: feeds, live: live, sources: sources, for: from)
            let lookup = opened.queries()
            let origin: StopPlace, destination: StopPlace
            do {
                origin = try await lookup.matchStop(from)
                destination = try await lookup.matchStop(to)
            } catch let e as QueryError { throw e.cli }
            let zone = TimeZone(identifier: origin.timeZone) ?? .gmt
            let at = when.date == nil && when.time == nil ? nil : try when.instant(in: zone)
            let now = at ?? Instant.now()
            await opened.readLive(asOf: now)
            var query = Queries.JourneyQuery(from: origin.id, to: destination.id, at: at)
            query.arriveBy = arriveBy
            query.windowMinutes = window
            query.limit = limit
            query.maxWalkMetres = maxWalk
            query.transferSlackSeconds = transferSlack
            query.maxTransfers = maxTransfers
            let answer: JourneysDTO
            do { answer = try await opened.queries(now: now).plan(query) } catch let e as QueryError { throw e.cli }
            if json { try printJSON(answer); return }
            let start = LocalTime(now, in: zone)
            let weekday = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][start.date.weekdayIndex]
            var subtitle = "\(weekday) \(start.date.isoString), \(arriveBy ? "arriving by" : "leaving from") \(start.hhmm)"
            if window > 0 { subtitle += " for \(window) min" }
            print(JourneyView(answer: answer, subtitle: subtitle).render(.stdout))
        }
    }
}
