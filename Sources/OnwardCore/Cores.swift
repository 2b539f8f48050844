import Foundation

/// How many cores this process may run on: the CPUs its affinity allows (`taskset`, a container's cpuset), which
/// Foundation's `activeProcessorCount` does not look at (it says 2 under `taskset -c 0` on this machine). Journeys are
/// planned one per core at once, and a range query on as many cores as it may use; counting cores it may not use
/// would queue plans behind one another on one core.
public enum Cores {
    public static let available: Int = allowed(status: (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? "")
        ?? ProcessInfo.processInfo.activeProcessorCount

    /// The CPUs a Linux `/proc/PID/status` says the process may run on (`Cpus_allowed:`, a hexadecimal mask in groups
    /// of eight digits separated by commas), or nil without one. (glibc's `sched_getaffinity` is not visible to Swift.)
    static func allowed(status: String) -> Int? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }) else { return nil }
        var count = 0
        for c in line.dropFirst("Cpus_allowed:".count) where c.isHexDigit { count += c.hexDigitValue!.nonzeroBitCount }
        return count > 0 ? count : nil
    }
}
