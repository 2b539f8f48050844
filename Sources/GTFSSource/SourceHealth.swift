import DataSources
import OnwardCore

/// How one realtime source is doing, for readiness, metrics and the "live data
/// unavailable" notices.
public struct SourceHealth: Sendable, Hashable {
    public var name: String
    public var lastSuccess: Instant?
    public var lastAttempt: Instant?
    public var lastError: SourceError?
    public var consecutiveFailures = 0
    public var successes = 0
    public var failures = 0
    /// The feed's own header timestamp of the last message applied.
    public var feedTimestamp: Instant?

    public init(name: String) { self.name = name }

    /// Seconds since the feed's data was made, at `now`.
    public func age(at now: Instant) -> Int64? {
        (feedTimestamp ?? lastSuccess).map { now.epochSeconds - $0.epochSeconds }
    }
}
