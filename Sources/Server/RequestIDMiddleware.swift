import HTTPTypes
import Hummingbird
import Logging

/// Gives each request an ID: kept from a well-formed `X-Request-Id` sent by a
/// proxy, else made here. It goes in every log line and back in the response.
struct RequestIDMiddleware: RouterMiddleware {
    typealias Context = OnwardRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let incoming = request.headers[.requestID]
        let id = incoming.flatMap { $0.count <= 64 && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" } ? $0 : nil }
            ?? String(UInt64.random(in: 0...UInt64.max), radix: 16)
        context.requestID = id
        context.logger[metadataKey: "request.id"] = .string(id)
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
