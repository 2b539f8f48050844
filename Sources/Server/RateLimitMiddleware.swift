import Foundation
import HTTPTypes
import Hummingbird
import Services

/// Rate limiting of the API: a token bucket per signed-in session (a person's device), else per client
/// address (the one a trusted proxy names: see `TrustedProxies`), so one proxy's address does not
/// throttle everyone behind it. Over the limit, a `429` with `Retry-After` says when to come back.
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
        // (Every 401 is a thrown error, made a response by the request envelope further out.)
        do {
            return try await next(request, context)
        } catch where credential != nil && Problem.from(error).status == HTTPResponse.Status.unauthorized.code {
            _ = limiter.take(client: address, now: now)
            throw error
        }
    }
}
