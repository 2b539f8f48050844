import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Monotonic time in nanoseconds, for timing runs and single queries.
enum Stopwatch {
    static func nanos() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }

    /// CPU seconds this process has used (all threads): less disturbed than wall time by other work on the machine.
    static func cpuSeconds() -> Double { Double(clock()) / Double(CLOCKS_PER_SEC) }

    /// Runs `body` once and returns its value with the elapsed seconds.
    static func measure<T>(_ body: () throws -> T) rethrows -> (value: T, seconds: Double) {
        let start = nanos()
        let value = try body()
        return (value, Double(nanos() - start) / 1e9)
    }
}

/// Order statistics over a set of samples.
struct Samples {
    let sorted: [Double]

    init(_ values: [Double]) { sorted = values.sorted() }

    var count: Int { sorted.count }
    var min: Double { sorted.first ?? .nan }
    var max: Double { sorted.last ?? .nan }

    /// The middle value (mean of the two middle values for an even count).
    var median: Double {
        guard !sorted.isEmpty else { return .nan }
        let n = sorted.count
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }

    /// The arithmetic mean: what a throughput (one answer after another on a core) is the inverse of.
    var mean: Double { sorted.isEmpty ? .nan : sorted.reduce(0, +) / Double(sorted.count) }

    /// Nearest-rank percentile, `p` in 0...100.
    func percentile(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1]
    }
}

/// A small deterministic generator so query times are the same from run to run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
