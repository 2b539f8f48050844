import Foundation
import Synchronization

/// A token bucket per client key: the API's rate limit (per session or address, in `Server`) and
/// the sign-in throttle (per account and per client) both take their tokens here.
public final class RateLimiter: Sendable {
    public struct Configuration: Sendable, Hashable {
        /// Sustained requests per second per client.
        public var ratePerSecond: Double
        /// How many requests a client may make at once before the rate applies.
        public var burst: Double

        public init(ratePerSecond: Double = 50, burst: Double = 100) {
            self.ratePerSecond = ratePerSecond; self.burst = burst
        }
    }

    private struct Bucket { var tokens: Double; var updated: Double }
    public let configuration: Configuration
    private let buckets = Mutex<[String: Bucket]>([:])

    public init(_ configuration: Configuration) { self.configuration = configuration }

    /// Takes a token for `client` at `now` (seconds), or says how many seconds until one is free.
    public func take(client: String, now: Double) -> Double? {
        buckets.withLock { buckets in
            // Forget idle clients now and then, so the table stays small.
            if buckets.count > 10_000 { buckets = buckets.filter { now - $0.value.updated < 60 } }
            var b = buckets[client] ?? Bucket(tokens: configuration.burst, updated: now)
            b.tokens = min(configuration.burst, b.tokens + (now - b.updated) * configuration.ratePerSecond)
            b.updated = now
            defer { buckets[client] = b }
            if b.tokens >= 1 { b.tokens -= 1; return nil }
            return (1 - b.tokens) / configuration.ratePerSecond
        }
    }
}
