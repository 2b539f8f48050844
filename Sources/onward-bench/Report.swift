import Foundation

/// One line of the summary table.
struct Figure {
    var name: String
    var value: String
    var target: String
    /// nil: informational, no target.
    var pass: Bool?
}

/// Collects figures and prints them as an aligned table.
final class Report {
    private(set) var figures: [Figure] = []
    private(set) var notes: [String] = []

    func add(_ name: String, _ value: String, target: String = "", pass: Bool? = nil) {
        figures.append(Figure(name: name, value: value, target: target, pass: pass))
        let verdict = pass.map { $0 ? "PASS" : "FAIL" } ?? ""
        log("  → \(name): \(value)\(target.isEmpty ? "" : "  [target \(target)] \(verdict)")")
    }

    func note(_ text: String) { notes.append(text) }

    func render() -> String {
        let headers = ["figure", "value", "target", "result"]
        let rows = figures.map { [$0.name, $0.value, $0.target, $0.pass.map { $0 ? "pass" : "FAIL" } ?? "–"] }
        var widths = headers.map(\.count)
        for r in rows { for (i, c) in r.enumerated() { widths[i] = max(widths[i], c.count) } }
        func line(_ cells: [String]) -> String {
            "| " + cells.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: " | ") + " |"
        }
        var out = [line(headers), "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"]
        out += rows.map(line)
        if !notes.isEmpty { out.append(""); out += notes.map { "- " + $0 } }
        return out.joined(separator: "\n")
    }
}

/// Progress lines go to standard error so a child's standard output stays machine-readable.
func log(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// The machine the figures come from.
enum Machine {
    static var summary: String {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "?" } ?? "unknown CPU"
        let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        let memKB = meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal") }.flatMap { Int($0.filter(\.isNumber)) } ?? 0
        let kernel = (try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
        let date = ISO8601DateFormatter().string(from: Date())
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
        return "machine: \(ProcessInfo.processInfo.activeProcessorCount) cores (nproc), \(model), "
            + String(format: "%.1f GiB RAM", Double(memKB) / 1_048_576) + ", Linux \(kernel); load average \(load) (other work on the machine adds noise); date: \(date)"
    }
}

/// Number formatting for the report.
enum Format {
    static func rate(_ perSecond: Double) -> String { String(format: "%.2f M rows/s", perSecond / 1e6) }
    static func seconds(_ s: Double) -> String { s < 1 ? String(format: "%.1f ms", s * 1000) : String(format: "%.2f s", s) }
    static func micros(_ ns: Double) -> String { String(format: "%.1f µs", ns / 1000) }
    static func bytes(_ b: Int) -> String {
        let d = Double(b)
        if d >= 1e9 { return String(format: "%.2f GB", d / 1e9) }
        return String(format: "%.0f MB", d / 1e6)
    }
    static func count(_ n: Int) -> String {
        let s = String(n)
        var out = ""
        for (i, c) in s.reversed().enumerated() {
            if i > 0 && i % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return String(out.reversed())
    }
}
