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
            FROM and TO are stop IDs or names ("Lebak Bulus", "Bundaran HI"); a station means any of its platforms. \
            Lists the fastest ways for each number of changes, earliest departure first; with --window, every \
            option leaving in the window.
            """
    )

    @Argument(help: "Where from: a stop or station ID or name.")
    var from: String

    @Argument(help: "Where to: a stop or station ID or name.")
    var to: String

    @OptionGroup var planning: PlanOptions

    @Flag(help: "Print one JSON document.")
    var json = false

    @OptionGroup var feeds: FeedOptions

    @OptionGroup var live: RealtimeOptions

    @OptionGroup var sources: SourceOptions

    func run() async throws {
        try await runReporting {
            let opened = try await CommandSources(feeds: feeds, live: live, sources: sources, for: from)
            let query = try await planning.query(from: from, to: to, queries: opened.queries())
            let now = query.at ?? Instant.now()
            await opened.readLive(asOf: now)
            let answer: JourneysDTO
            do { answer = try await opened.queries(now: now).plan(query) } catch { throw error.cli }
            if json { try printJSON(answer); return }
            let start = LocalTime(now, in: TimeZone.named(answer.from.timeZone))
            var subtitle = "\(start.date.weekdayName) \(start.date.isoString), \(query.arriveBy ? "arriving by" : "leaving from") \(start.hhmm)"
            if query.windowMinutes > 0 { subtitle += " for \(query.windowMinutes) min" }
            print(JourneyView(answer: answer, subtitle: subtitle).render(.stdout))
        }
    }
}
