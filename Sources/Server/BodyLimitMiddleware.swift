import HTTPTypes
import Hummingbird

/// Refuses a request body larger than the limit with `413` before any route
/// reads it: a declared `Content-Length` is checked at once, a body sent
/// without one is read up to the limit and no further.
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = OnwardRequestContext
    let defaultMaxBytes: Int

    /// Paths that take more: a profile's photo (200 KB of image is about 270 KB in base64, and a
    /// body that escapes every character as \uXXXX is six times that: refused by its schema, not its size).
    static let larger: [String: Int] = ["/api/v1/me/profile": 2 * 1024 * 1024]

    init(maxBytes: Int) { defaultMaxBytes = maxBytes }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let maxBytes = Self.larger[request.uri.path].map { max($0, defaultMaxBytes) } ?? defaultMaxBytes
        if let declared = request.headers[.contentLength] {
            guard let length = Int(declared), length <= maxBytes else { throw tooLarge(maxBytes) }
            return try await next(request, context)
        }
        guard request.headers[.transferEncoding] != nil else { return try await next(request, context) }
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
