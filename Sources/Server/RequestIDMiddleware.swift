import HTTPTypes
import Hummingbird
import Logging

/// Gives each request an ID: kept from a well-formed `X-Request-Id` sent by a
/// proxy, else Hummingbird's own (already in every log line as `hb.request.id`).
/// It goes back in the response and in problem documents.
///
/// Hummingbird's ID is reused rather than a second one made and added to the
/// logger: each metadata change re-renders the log handler's metadata, and
/// doing it twice was a tenth of a small API request's time.
struct RequestIDMiddleware: RouterMiddleware {
    typealias Context = OnwardRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let id: String
        if let incoming = request.headers[.requestID], incoming.utf8.count <= 64,
           incoming.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 122) || $0 == UInt8(ascii: "-") }) {
            id = incoming
            context.logger[metadataKey: "hb.request.id"] = .string(id)
        } else {
            id = context.id
        }
        context.requestID = id
        do {
            var response = try await next(request, context)
            response.headers[.requestID] = id
            return response
        } catch {
            // The error middleware outside this one turns it into a response; it reads the ID from the error.
            throw RequestFailure(underlying: error, requestID: id)
        }
    }
}

/// An error on its way out, carrying the request ID for the problem document.
struct RequestFailure: Error {
    var underlying: any Error
    var requestID: String
}

extension HTTPField.Name {
    static let requestID = Self("X-Request-Id")!
    static let retryAfter = Self("Retry-After")!
}
