import OnwardCore

/// How the checks of one kept static feed have gone: when it was last looked at, and the
/// last version refused (and why), which keeps the server degraded until a good one comes.
public struct FeedCheckHealth: Sendable, Hashable {
    public var feed: String
    public var lastCheck: Instant?
    /// Why the last check did not bring a version into service: a fetch that failed, or a
    /// version refused. Cleared by the next version accepted or found unchanged.
    public var problem: String?
    public var checks = 0
    /// Versions refused since the start (counted once per distinct version).
    public var refusals = 0
    /// Checks whose fetch failed (network, status, size).
    public var fetchFailures = 0

    public init(feed: String) { self.feed = feed }
}
