import App
import ArgumentParser
import Foundation

/// `onward serve`: the web app and the JSON/WebSocket API.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the server: the web app, the JSON API and live updates.",
        discussion: """
            Without --feed it serves the bundled network. Every option can also be set by an \
            environment variable (ONWARD_PORT, ONWARD_REALTIME, …) or in a JSON config file \
            (--config, or onward.json in the data folder); flags win over the environment, \
            which wins over the file.
            """
    )

    @Option(help: "Address to listen on (default: 127.0.0.1).") var host: String?
    @Option(help: "Port to listen on (default: 8080).") var port: Int?
    @Option(help: ArgumentHelp("GTFS zip or folder, an http(s) URL (checked for new versions), or a snapshot; NAME=PATH names the feed (its IDs are NAME:LOCAL). Repeatable.",
                               valueName: "[NAME=]FEED")) var feed: [String] = []
    @Option(help: ArgumentHelp("GTFS-Realtime URL or file, polled; NAME=URL_OR_FILE binds it to the static feed NAME (else the first). Repeatable.",
                               valueName: "[NAME=]URL_OR_FILE")) var realtime: [String] = []
    @Option(help: ArgumentHelp("Seconds between checks of each static feed for a new version (default: 21600, six hours; 0: only when asked).",
                               valueName: "SECONDS")) var feedRefresh: Int?
    @Flag(help: "Simulated live data for the bundled network (labelled as simulated).") var simulate = false
    @Option(help: ArgumentHelp("Folder for the server's data (default: ./onward-data).", valueName: "DIR")) var dataDir: String?
    @Option(help: ArgumentHelp("Seconds between polls of each realtime source (default: 30).", valueName: "SECONDS")) var pollInterval: Int?
    @Option(help: ArgumentHelp("Live data older than this is shown as last known (default: 120).", valueName: "SECONDS")) var maxAge: Int?
    @Option(help: ArgumentHelp("A JSON config file.", valueName: "FILE")) var config: String?
    @Option(help: ArgumentHelp("trace, debug, info (the default), notice, warning, error.", valueName: "LEVEL")) var logLevel: String?

    func run() async throws {
        var flags: [ServeConfiguration.Key: String] = [:]
        flags[.host] = host
        flags[.port] = port.map(String.init)
        if !feed.isEmpty { flags[.feeds] = feed.joined(separator: ",") }
        if !realtime.isEmpty { flags[.realtime] = realtime.joined(separator: ",") }
        flags[.feedRefresh] = feedRefresh.map(String.init)
        if simulate { flags[.simulate] = "true" }
        flags[.dataDir] = dataDir
        flags[.pollInterval] = pollInterval.map(String.init)
        flags[.maxAge] = maxAge.map(String.init)
        flags[.logLevel] = logLevel
        try await runReporting {
            let settings: ServeConfiguration
            do {
                settings = try await ServeConfiguration.resolve(flags: flags, environment: ProcessInfo.processInfo.environment,
                                                          configFile: config.map { URL(fileURLWithPath: $0) })
            } catch let error as ServeConfiguration.Problem {
                throw CLIError(error.description)
            }
            do {
                try await ServerApplication.serve(settings)
            } catch let error as ServerApplication.ServeFailure {
                throw CLIError(error.description)
            }
        }
    }
}
