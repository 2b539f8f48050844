import API
import App
import ArgumentParser
import Foundation

/// `onward rt`: tools for GTFS-Realtime feeds.
struct RtCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rt",
        abstract: "Tools for GTFS-Realtime feeds.",
        subcommands: [RtInspectCommand.self]
    )
}

struct RtInspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print a GTFS-Realtime feed in readable form, with how it matches the static feed.",
        discussion: """
            FILE_OR_URL holds trip updates, vehicle positions or alerts, in any mix. \
            The match report says how many trips, stops and routes the static feed knows: \
            the bundled network without --feed, so pass the feed the realtime data belongs to.
            """
    )

    @Argument(help: ArgumentHelp("A GTFS-Realtime file or http(s) URL; NAME=FILE_OR_URL matches it against the static feed NAME "
                                 + "(else the first feed).", valueName: "[NAME=]FILE_OR_URL"))
    var input: String

    @Option(help: ArgumentHelp("Show the first N entities of each kind; 0 for none.", valueName: "N"))
    var limit: Int = 20

    @Flag(help: "Print one JSON document.")
    var json = false

    @OptionGroup var feeds: FeedOptions

    func validate() throws {
        if !(0...10_000).contains(limit) { throw ValidationError("--limit must be between 0 and 10000.") }
    }

    func run() async throws {
        try await runReporting {
            let dto: RealtimeInspectDTO
            do throws(RealtimeInspecting.Failure) {
                dto = try await RealtimeInspecting.inspect(input, feeds: feeds.feed, limit: limit)
            } catch {
                throw CLIError(error.description)
            }
            if json {
                try printJSON(dto)
            } else {
                print(RealtimeInspectView(dto: dto).render(.stdout))
            }
        }
    }
}
