import App
import ArgumentParser
import Foundation

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Check GTFS feeds and compile them into a snapshot the other commands load instantly."
    )

    @Argument(help: ArgumentHelp("GTFS zips or folders, each PATH or NAME=PATH, or NAME=URL (fetched first). Every ID is NAME:LOCAL; without NAME, the file's name "
                                 + "(lower case, '-' for other characters) names the feed. The snapshot keeps the names.",
                                 valueName: "FEED"))
    var feeds: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the snapshot.", valueName: "SNAPSHOT"))
    var output: String = "timetable.onward"

    func run() async throws {
        try await runReporting {
            let bar = ProgressBar(enabled: Terminal.stderr.isTTY)
            let summary: FeedImporting.Summary
            let downloads = FileManager.default.temporaryDirectory.appendingPathComponent("onward-import-\(getpid())")
            defer { try? FileManager.default.removeItem(at: downloads) }
            do throws(FeedImporting.Failure) {
                try? FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
                let local = try await FeedImporting.downloaded(feeds, into: downloads)
                summary = try FeedImporting.importFeeds(local, to: output) { bar.update($0) }
            } catch {
                bar.clear()
                throw CLIError(error.description)
            }
            bar.clear()
            print(Self.text(summary, output: output))
        }
    }

    static func text(_ r: FeedImporting.Summary, output: String) -> String {
        let t = Terminal.stdout
        var lines = [t.bold("Imported \(r.feeds.joined(separator: ", "))") + t.dim(String(format: " in %.2f s", r.seconds))]
        for (file, n) in r.rowCounts { lines.append("  \(file.padding(toLength: 20, withPad: " ", startingAt: 0)) \(n.formatted()) rows") }
        lines.append("  timetable: \(r.trips.formatted()) trips in \(r.patterns.formatted()) patterns, \(r.stopTimes.formatted()) stop times")
        if let range = r.serviceDates { lines.append("  service dates: \(range.first) to \(range.last)") }
        let total = r.notices.reduce(0) { $0 + $1.count }
        if total == 0 {
            lines.append(t.green("No notices."))
        } else {
            lines.append(t.yellow("\(total) notice\(total == 1 ? "" : "s") (rows or trips skipped, import went on):"))
            for g in r.notices {
                lines.append("  \(g.kind): \(g.count)")
                for e in g.examples { lines.append(t.dim("    \(e.location): \(e.message)")) }
            }
        }
        lines.append("Snapshot written to \(output) (\(ByteCountFormatter.string(fromByteCount: Int64(r.snapshotBytes), countStyle: .file))). "
                     + "Use it with --feed \(output).")
        return lines.joined(separator: "\n")
    }
}
