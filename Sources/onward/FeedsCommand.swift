import API
import App
import ArgumentParser
import Foundation
import OnwardCore

/// `onward feeds`: the static feeds `onward serve` keeps with this configuration, and the version
/// of each kept in the data folder; `onward feeds refresh` asks a running server to check now.
struct FeedsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feeds",
        abstract: "The static feeds a server keeps current: where each comes from, the version kept, its age and last service date.",
        discussion: "Configured as for `onward serve` (--feed, ONWARD_FEEDS, onward.json). `onward feeds refresh` asks a running server for a check now.",
        subcommands: [List.self, Refresh.self],
        defaultSubcommand: List.self
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the feeds and the versions kept in the data folder.")

        @Option(help: ArgumentHelp("A static feed as `onward serve` takes it. Repeatable.", valueName: "[NAME=]URL_OR_PATH"))
        var feed: [String] = []
        @Option(help: ArgumentHelp("The server's data folder (default: ./onward-data).", valueName: "DIR"))
        var dataDir: String?
        @Option(help: ArgumentHelp("A JSON config file (default: onward.json in the data folder).", valueName: "FILE"))
        var config: String?

        func run() async throws {
            try await runReporting {
                var flags: [ServeConfiguration.Key: String] = [:]
                flags[.dataDir] = dataDir
                if !feed.isEmpty { flags[.feeds] = feed.joined(separator: ",") }
                let settings: ServeConfiguration
                do {
                    settings = try await ServeConfiguration.resolve(flags: flags, environment: ProcessInfo.processInfo.environment,
                                                                    configFile: config.map { URL(fileURLWithPath: $0) })
                } catch { throw CLIError("\(error)") }
                let listing: KeptFeedsListing.Listing
                do { listing = try KeptFeedsListing.list(settings) } catch { throw CLIError("\(error)") }
                print(Self.text(listing, now: .now()))
            }
        }

        static func text(_ listing: KeptFeedsListing.Listing, now: Instant) -> String {
            let t = Terminal.stdout
            switch listing.kind {
            case "bundled": return "No feed is configured: the server serves the bundled network (\(Network.defaultName))."
            case "snapshot": return "The server serves the snapshot \(listing.feeds.first?.name ?? ""), as it is (import a new one to change it)."
            default: break
            }
            var lines: [String] = []
            for f in listing.feeds {
                lines.append(t.bold(f.name) + "  " + f.location + t.dim(f.isURL ? "  (fetched from its URL)" : "  (re-read when the file changes)"))
                guard let hash = f.shortHash, let fetchedAt = f.fetchedAt else {
                    lines.append(t.yellow("  no version kept in \(listing.folder) yet: the server fetches one when it starts"))
                    continue
                }
                let age = max(0, now.epochSeconds - fetchedAt.epochSeconds)
                lines.append("  version \(hash)" + (f.publisherVersion.map { " (\($0))" } ?? "")
                             + ", fetched \(LocalTime(fetchedAt, in: .gmt).iso8601) (\(Self.age(age)) ago)")
                if let first = f.firstDate, let last = f.lastDate {
                    let today = LocalTime(now, in: .gmt).date
                    let left = Int(last.dayNumber - today.dayNumber)
                    let end = left < 0 ? t.red("ended \(-left) day\(left == -1 ? "" : "s") ago")
                        : left < 7 ? t.yellow("ends in \(left) day\(left == 1 ? "" : "s")") : "\(left) days left"
                    lines.append("  service \(first.isoString) to \(last.isoString): \(end)")
                }
            }
            return lines.joined(separator: "\n")
        }

        static func age(_ seconds: Int64) -> String {
            seconds < 120 ? "\(seconds) s" : seconds < 7200 ? "\(seconds / 60) min" : seconds < 172_800 ? "\(seconds / 3600) h" : "\(seconds / 86_400) days"
        }
    }

    struct Refresh: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "refresh",
            abstract: "Ask a running server to check its static feeds for a new version now.",
            discussion: "Needs the server's operator token (operator_token), read from ONWARD_OPERATOR_TOKEN (never from the command line, which others can read)."
        )

        @Argument(help: ArgumentHelp("One feed's name (default: every feed).", valueName: "NAME"))
        var name: String?
        @Option(help: ArgumentHelp("The server, e.g. http://127.0.0.1:8080.", valueName: "URL"))
        var server: String = "http://127.0.0.1:8080"
        @Flag(help: "Print the server's answer as JSON.")
        var json = false

        func run() async throws {
            try await runReporting {
                guard let token = ProcessInfo.processInfo.environment["ONWARD_OPERATOR_TOKEN"], !token.isEmpty else {
                    throw CLIError("set ONWARD_OPERATOR_TOKEN to the server's operator_token")
                }
                let base = try ServerAccount.base(server)
                let query = name.map { "?feed=" + ($0.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? $0) } ?? ""
                let (status, data) = try await ServerAccount.send("POST", base + "/api/v1/feeds/refresh" + query, token: token)
                guard status == 200, let answer = try? JSONDecoder().decode(FeedRefreshDTO.self, from: data) else {
                    throw CLIError("the refresh was refused: \(ServerAccount.detail(data))")
                }
                if json { try printJSON(answer); return }
                let t = Terminal.stdout
                print(answer.accepted ? t.green("A new version is in service.")
                      : answer.forwarded ? "The server that fetches the feeds was asked to check; what it takes reaches every server within seconds."
                      : "No new version was taken.")
                for u in answer.timetables {
                    print("  \(u.name): \(u.state)" + (u.version.map { ", version \($0.hash.prefix(12)), service to \($0.lastDate ?? "?")" } ?? "")
                          + (u.detail.map { " — \($0)" } ?? "") + (u.warning.map { t.yellow(" — \($0)") } ?? ""))
                }
            }
        }
    }
}
