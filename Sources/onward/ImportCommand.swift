import App
import ArgumentParser
import Foundation
import GTFS
import OnwardCore
import Timetable

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Check GTFS feeds and compile them into a snapshot the other commands load instantly."
    )

    @Argument(help: ArgumentHelp("GTFS zips or folders, each PATH or NAME=PATH. Every ID is NAME:LOCAL; without NAME, the file's name "
                                 + "(lower case, '-' for other characters) names the feed. The snapshot keeps the names.",
                                 valueName: "FEED"))
    var feeds: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the snapshot.", valueName: "SNAPSHOT"))
    var output: String = "timetable.onward"

    func run() async throws {
        try await runReporting {
            let err = Terminal.stderr
            let bar = ProgressBar(enabled: err.isTTY)
            let started = Date()
            let result: GTFSImporter.Result
            do {
                let arguments = feeds.map(Network.FeedArgument.init)
                result = try GTFSImporter.load(paths: arguments.map { URL(fileURLWithPath: $0.path) }, names: arguments.map(\.name)) {
                    bar.update($0)
                }
            } catch let error as FeedError {
                bar.clear()
                throw CLIError("the feed was refused: \(error.location): \(error.message)")
            }
            bar.clear()
            let imported = Date().timeIntervalSince(started)
            let url = URL(fileURLWithPath: output)
            do { try result.timetable.writeSnapshot(to: url, shapes: result.shapes) } catch {
                throw CLIError("cannot write the snapshot to \(output): \(error.localizedDescription)")
            }
            print(summary(result, seconds: imported, output: output))
        }
    }

    func summary(_ r: GTFSImporter.Result, seconds: Double, output: String) -> String {
        let t = Terminal.stdout
        let tt = r.timetable
        var lines = [t.bold("Imported \(tt.feeds.map(\.name).joined(separator: ", "))") + t.dim(String(format: " in %.2f s", seconds))]
        let order = ["agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt", "calendar.txt", "calendar_dates.txt",
                     "frequencies.txt", "transfers.txt", "shapes.txt"]
        for file in order { if let n = r.rowCounts[file] { lines.append("  \(file.padding(toLength: 20, withPad: " ", startingAt: 0)) \(n.formatted()) rows") } }
        lines.append("  timetable: \(tt.tripCount.formatted()) trips in \(tt.patternCount.formatted()) patterns, \(tt.stopTimeCount.formatted()) stop times")
        if let range = tt.calendarRange { lines.append("  service dates: \(range.lowerBound.isoString) to \(range.upperBound.isoString)") }
        let summary = NoticeSummary(r.notices)
        if summary.total == 0 {
            lines.append(t.green("No notices."))
        } else {
            lines.append(t.yellow("\(summary.total) notice\(summary.total == 1 ? "" : "s") (rows or trips skipped, import went on):"))
            for g in summary.groups {
                lines.append("  \(g.kind): \(g.count)")
                for e in g.examples { lines.append(t.dim("    \(e.location): \(e.message)")) }
            }
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        lines.append("Snapshot written to \(output) (\(ByteCountFormatter.string(fromByteCount: Int64(size), countStyle: .file))). Use it with --feed \(output).")
        return lines.joined(separator: "\n")
    }
}

/// A one-line progress bar on standard error, drawn only on a terminal.
final class ProgressBar: @unchecked Sendable {
    let enabled: Bool
    private var lastDraw = Date.distantPast

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ p: GTFSImporter.Progress) {
        guard enabled, Date().timeIntervalSince(lastDraw) > 0.1 || p.bytesRead == p.totalBytes else { return }
        lastDraw = Date()
        let fraction = p.totalBytes.map { $0 > 0 ? min(Double(p.bytesRead) / Double($0), 1) : 1 } ?? 0
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        FileHandle.standardError.write(Data("\r\(p.feed) \(p.file.padding(toLength: 16, withPad: " ", startingAt: 0)) \(bar) \(Int(fraction * 100))%".utf8))
    }

    func clear() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
