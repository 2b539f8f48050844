import ArgumentParser
import Foundation

/// `onward`: departure boards, services and stops from GTFS, in a terminal.
@main
struct Onward: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "onward",
        abstract: "A real-time travel companion: departure boards, services and stops.",
        discussion: "Without --feed, commands use the bundled MRT Jakarta North–South line.",
        subcommands: [ServeCommand.self, BoardCommand.self, ServiceCommand.self, PlanCommand.self, HistoryCommand.self, CommuteCommand.self, WatchCommand.self, StopsCommand.self, RoutesCommand.self, SourcesCommand.self,
                      FeedsCommand.self, ImportCommand.self, AlertsCommand.self, RtCommand.self, LoginCommand.self, LogoutCommand.self, GlanceCommand.self, SkiCommand.self]
    )

    /// ArgumentParser's main, except that a usage error (a bad option, a failed `validate()`) is
    /// written as every other error is, "error: …" (ArgumentParser writes "Error: …"). It keeps
    /// ArgumentParser's exit code 64 (EX_USAGE), so a script can tell a command called wrongly,
    /// where nothing ran, from one that ran and failed (1).
    static func main() async {
        do {
            var command = try await asyncParseAsRoot(nil)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let message = fullMessage(for: error)
            let code = exitCode(for: error)
            guard code != .success, message.hasPrefix("Error: ") else { exit(withError: error) }
            FileHandle.standardError.write(Data((Terminal.stderr.red("error: ") + message.dropFirst("Error: ".count) + "\n").utf8))
            Foundation.exit(code.rawValue)
        }
    }
}
