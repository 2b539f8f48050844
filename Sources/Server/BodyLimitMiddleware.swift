import HTTPTypes
import Hummingbird

/// Refuses a request body larger than the limit with `413` before any route
/// reads it: a declared `Content-Length` is checked at once, a body sent
/// without one is read up to the limit and no further.
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = OnwardRequestContext
    let defaultMaxBytes: Int

    /// Paths that take more: a profile's photo (200 KB of image is about 270 KB in base64), and texts
    /// of up to 2,000 characters (a chat message, an event's details). A body that escapes every
    /// character (a backslash-u escape pair, twelve bytes, for one outside the BMP) is refused by its
    /// schema with a 400 that names the field, not by its size.
    static func limit(for path: Substring, default defaultMaxBytes: Int) -> Int {
        if path == "/api/v1/me/profile" { return max(4 * 1024 * 1024, defaultMaxBytes) }
        if path.hasPrefix("/api/v1/chat/") || (path.hasPrefix("/api/v1/trips/") && path.hasSuffix("/events")) { return max(64 * 1024, defaultMaxBytes) }
        return defaultMaxBytes
    }

    init(maxBytes: Int) { defaultMaxBytes = maxBytes }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let declared = request.headers[.contentLength]
        // No body (nearly every GET): nothing to measure, not even the path.
        if declared == nil && request.headers[.transferEncoding] == nil { return try await next(request, context) }
        let maxBytes = Self.limit(for: Substring(request.uri.path), default: defaultMaxBytes)
        if let declared {
            guard let length = Int(declared), length <= maxBytes else { throw tooLarge(maxBytes) }
            return try await next(request, context)
        }
        var request = request
        do {
            _ = try await request.collectBody(upTo: maxBytes)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw tooLarge(maxBytes)
        }
        return try await next(request, context)
    }

    private func tooLarge(_ maxBytes: Int) -> Problem {
        Problem(status: .contentTooLarge, code: "body-too-large", title: "Request body too large",
                detail: "A request body may be at most \(maxBytes) bytes.")
    }
}
