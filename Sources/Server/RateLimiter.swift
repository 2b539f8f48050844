import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// Rate limiting of the API: a token bucket per signed-in session (a person's device), else per client
/// address (the one a trusted proxy names: see `TrustedProxies`), so one proxy's address does not
/// throttle everyone behind it. Over the limit, a `429` with `Retry-After` says when to come back.
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

struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = OnwardRequestContext
    let limiter: RateLimiter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let address = "client " + context.clientAddress
        // A credential's bucket is keyed by its hash (never the token itself); it is not looked up here.
        let credential = (Authenticator.bearer(request) ?? request.cookies[Authenticator.cookieName]?.value).map { "session " + Secrets.sha256($0) }
        let now = Date().timeIntervalSinceReferenceDate
        if let wait = limiter.take(client: credential ?? address, now: now) {
            var response = try Problem(status: .tooManyRequests, code: "rate-limited", title: "Too many requests",
                                       detail: "This client has made too many requests; try again in a moment.")
                .response(from: request, context: context)
            response.headers[.retryAfter] = String(max(1, Int(wait.rounded(.up))))
            return response
        }
        // A credential that signs nobody in costs its address a token too: made-up tokens are no way around the limit.
        // (Every 401 is a thrown Problem, made a response by the request envelope further out.)
        do {
            return try await next(request, context)
        } catch let error as Problem where credential != nil && error.status == HTTPResponse.Status.unauthorized.code {
            _ = limiter.take(client: address, now: now)
            throw error
        }
    }
}
