import Foundation
import OnwardCore
import Transit

/// What the routes need, made by the composition root (`App`).
public struct ServerDependencies: Sendable {
    public var store: LiveStore
    public var metrics: ServerMetrics
    /// "Now" for live statuses; a test fixes it.
    public var now: @Sendable () -> Instant
    /// The data's attribution, shown in every page's footer.
    public var attribution: String
    public var rateLimit: RateLimiter.Configuration
    /// Origins (scheme://host[:port]) besides the server's own that may open WebSockets.
    public var allowedOrigins: Set<String>
    /// Largest request body accepted.
    public var maxBodyBytes: Int

    public init(store: LiveStore, metrics: ServerMetrics = ServerMetrics(), now: @escaping @Sendable () -> Instant = { .now() },
                attribution: String = "", rateLimit: RateLimiter.Configuration = .init(), allowedOrigins: Set<String> = [],
                maxBodyBytes: Int = 16 * 1024) {
        self.store = store; self.metrics = metrics; self.now = now; self.attribution = attribution
        self.rateLimit = rateLimit; self.allowedOrigins = allowedOrigins; self.maxBodyBytes = maxBodyBytes
    }

    /// Queries over the state at this moment.
    func queries() -> Queries { Queries(store.current, now: now()) }
}
