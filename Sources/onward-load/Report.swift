import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Nearest-rank order statistics of latencies in nanoseconds, printed in milliseconds.
struct Latencies {
    let sorted: [Int64]
    init(_ values: [Int64]) { sorted = values.sorted() }

    var count: Int { sorted.count }

    /// The value below which `p` percent of samples lie (nearest rank).
    func percentile(_ p: Double) -> Int64? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1]
    }

    var p50: String { ms(percentile(50)) }
    var p99: String { ms(percentile(99)) }
    var max: String { ms(sorted.last) }
    var min: String { ms(sorted.first) }
}

func ms(_ nanos: Int64?) -> String {
    guard let nanos else { return "-" }
    return String(format: "%.2f", Double(nanos) / 1e6)
}

func pad(_ text: String, _ width: Int, right: Bool = true) -> String {
    let space = String(repeating: " ", count: Swift.max(0, width - text.count))
    return right ? space + text : text + space
}

/// The machine the figures come from: cores and load, which change what they mean.
enum Machine {
    static var cores: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// The 1-, 5- and 15-minute load averages.
    static var loadAverage: String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "unknown" }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// CPU seconds this process has used, all threads (server and clients alike).
    static func cpuSeconds() -> Double { Double(clock()) / Double(CLOCKS_PER_SEC) }

    /// File descriptors open in this process (Linux), to count sockets.
    static func openSockets() -> Int? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return nil }
        return entries.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0))?.hasPrefix("socket:") == true }.count
    }

    /// Raises the soft limit on open files towards `needed` (each subscriber is two sockets here: client and server end).
    static func raiseFileLimit(to needed: Int) -> (soft: UInt64, hard: UInt64)? {
        #if canImport(Glibc)
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        if limit.rlim_cur < rlim_t(needed) {
            limit.rlim_cur = Swift.min(limit.rlim_max, rlim_t(needed))
            _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        }
        return (UInt64(limit.rlim_cur), UInt64(limit.rlim_max))
        #else
        return nil
        #endif
    }
}
