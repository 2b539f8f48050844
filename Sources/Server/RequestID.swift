import HTTPTypes
import Hummingbird
import Logging

/// Gives each request an ID: its trace's when spans are exported (`RequestSpan`), else kept from a
/// well-formed `X-Request-Id` sent by a proxy, else Hummingbird's own (already in every log line as `hb.request.id`).
/// It goes back in the response and in problem documents.
///
/// Hummingbird's ID is reused rather than a second one made and added to the
/// logger: each metadata change re-renders the log handler's metadata, and
/// doing it twice was a tenth of a small API request's time.
enum RequestID {
    /// The request's ID, kept in `context` (and in its logger when it came from a proxy).
    static func assign(_ request: Request, _ context: inout OnwardRequestContext, traceID: String? = nil) -> String {
        let id: String
        if let traceID {
            id = traceID
            context.logger[metadataKey: "hb.request.id"] = .string(id)
        } else if let incoming = request.headers[.requestID], incoming.utf8.count <= 64,
           incoming.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 122) || $0 == UInt8(ascii: "-") }) {
            id = incoming
            context.logger[metadataKey: "hb.request.id"] = .string(id)
        } else {
            id = context.id
        }
        context.requestID = id
        return id
    }
}

extension HTTPField.Name {
    static let requestID = Self("X-Request-Id")!
    static let retryAfter = Self("Retry-After")!
}
