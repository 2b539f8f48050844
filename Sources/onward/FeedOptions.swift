import App
import ArgumentParser
import Foundation

/// `--feed`, shared by every command that reads a timetable.
struct FeedOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("A GTFS zip or folder, or a snapshot from `onward import`; NAME=PATH names the feed, "
                                            + "whose IDs are NAME:LOCAL (else the file's name names it). Repeat for several feeds.",
                                            valueName: "[NAME=]FEED_OR_SNAPSHOT"))
    var feed: [String] = []

    /// - Parameter identifying: each feed's version too (`onward sources` shows them).
    func load(identifying: Bool = false) throws -> Network.Loaded {
        do {
            return try Network.load(feed, identifying: identifying)
        } catch {
            throw CLIError(error.description)
        }
    }
}

/// An error the CLI prints as one clear line, with exit code 1.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ message: String) { description = message }
}

extension Onward {
    static func fail(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data((Terminal.stderr.red("error: ") + message + "\n").utf8))
        return ExitCode(1)
    }
}

/// Runs a command body, turning a `CLIError` into a message and exit code 1 (never a stack trace).
func runReporting(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let e as CLIError {
        throw Onward.fail(e.description)
    }
}
