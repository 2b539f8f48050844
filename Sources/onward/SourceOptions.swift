import App
import ArgumentParser
import Foundation
import Transit

/// The upstream sources (National Rail, the CTA bus tracker) as `onward serve` would
/// configure them: from the environment (`ONWARD_NATIONAL_RAIL_TOKEN`, `ONWARD_CTA_KEY`, …)
/// and the config file, so the CLI and the server read one configuration.
struct SourceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A JSON config file (default: onward.json in the data folder).", valueName: "FILE"))
    var config: String?

    @Option(help: ArgumentHelp("The data folder whose onward.json is read.", valueName: "DIR"))
    var dataDir: String?

    /// The registry of configured protocol sources (empty when none is configured).
    func registry() async throws -> SourceRegistry { ProtocolSources.registry(try await settings()) }

    /// The configuration `onward serve` would run with here (its data folder and database too).
    func settings() async throws -> ServeConfiguration {
        var flags: [ServeConfiguration.Key: String] = [:]
        flags[.dataDir] = dataDir
        do {
            return try await ServeConfiguration.resolve(flags: flags, environment: ProcessInfo.processInfo.environment,
                                                        configFile: config.map { URL(fileURLWithPath: $0) })
        } catch { throw CLIError(error.description) }
    }

    /// An ID prefixed with a source Onward knows but is not configured here says how to turn it on.
    func explainUnconfigured(_ id: String) throws {
        if let hint = ProtocolSources.unconfiguredHint(for: id) { throw CLIError(hint) }
    }
}
