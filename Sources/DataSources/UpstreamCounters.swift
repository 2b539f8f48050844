/// What an `UpstreamClient` has done since it started, for health pages and metrics.
/// A snapshot: reading it again gives newer numbers.
public struct UpstreamCounters: Sendable, Hashable {
    /// Requests actually sent upstream, retries included: what the budget counts.
    public var upstreamRequests = 0
    /// Of those, the retries.
    public var retries = 0
    /// Calls answered by a fresh cache entry, with no request.
    public var cacheHits = 0
    /// Calls that waited for a fetch another call had started for the same key.
    public var coalescedWaits = 0
    /// Calls answered by a stale entry (while revalidating, on error, or over budget).
    public var staleServed = 0
    /// Fetches answered by another server's answer (servers sharing a database), with no request.
    public var sharedAnswers = 0
    /// Requests not sent because the budget was spent.
    public var budgetRefusals = 0
    /// Calls that ended in an error thrown to the caller.
    public var failures = 0

    public init() {}
}
