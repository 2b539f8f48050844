/// How `UpstreamClient` may answer one kind of request from its cache.
///
/// The caller names the cache entry, because only it knows which requests
/// are the same question: two SOAP bodies for one board may differ in a
/// timestamp, and a URL may carry a key that must not become part of a key.
public struct CachePolicy: Sendable, Hashable {
    /// The entry's name within the source, e.g. `board:ECR:dep`.
    public var key: String
    /// How long an answer is fresh: within it, no request is made.
    public var ttl: Duration
    /// How long past `ttl` a stale answer is still returned at once while a
    /// refresh runs in the background. Past it, the caller waits for a fetch.
    public var staleWhileRevalidate: Duration
    /// How long past `ttl` a stale answer is returned instead of a transient
    /// failure (network, timeout, 5xx, 429). Zero passes failures on.
    public var staleIfError: Duration

    public init(key: String, ttl: Duration, staleWhileRevalidate: Duration = .zero, staleIfError: Duration = .zero) {
        self.key = key
        self.ttl = max(ttl, .zero)
        self.staleWhileRevalidate = max(staleWhileRevalidate, .zero)
        self.staleIfError = max(staleIfError, .zero)
    }
}
