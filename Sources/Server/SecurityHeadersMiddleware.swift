import HTTPTypes
import Hummingbird

/// Security headers on every response. The Content-Security-Policy allows
/// nothing from other origins, no inline scripts and no inline styles: the
/// pages load their one script and one stylesheet from this server.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = OnwardRequestContext

    static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
        "font-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        response.headers[HTTPField.Name("Permissions-Policy")!] = "geolocation=(self), camera=(), microphone=()"
        response.headers[HTTPField.Name("Cross-Origin-Opener-Policy")!] = "same-origin"
        return response
    }
}
