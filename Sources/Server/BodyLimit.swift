import HTTPTypes
import Hummingbird

/// Refuses a request body larger than the limit with `413` before any route
/// reads it: a declared `Content-Length` is checked at once, a body sent
/// without one is read up to the limit and no further.
struct BodyLimit: Sendable {
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

    /// Whether the request has a body to check (nearly every GET has none: nothing to measure, not even the path).
    static func hasBody(_ request: Request) -> Bool {
        request.headers[.contentLength] != nil || request.headers[.transferEncoding] != nil
    }

    /// The request, its body read when it came without a length; a `413` problem when the body is too large.
    func checked(_ request: Request) async throws -> Request {
        let maxBytes = Self.limit(for: Substring(request.uri.path), default: defaultMaxBytes)
        if let declared = request.headers[.contentLength] {
            guard let length = Int(declared), length <= maxBytes else { throw tooLarge(maxBytes) }
            return request
        }
        var request = request
        do {
            _ = try await request.collectBody(upTo: maxBytes)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw tooLarge(maxBytes)
        }
        return request
    }

    private func tooLarge(_ maxBytes: Int) -> Problem {
        Problem(status: .contentTooLarge, code: "body-too-large", title: "Request body too large",
                detail: "A request body may be at most \(maxBytes) bytes.")
    }
}
