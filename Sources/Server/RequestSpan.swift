import HTTPTypes
import Hummingbird
import Services
import Tracing

/// A request's span, when spans are exported: continued from a `traceparent` the client or a proxy
/// sent (W3C Trace Context), named by the route's template (never the path itself: a commute's ID
/// is the key to it), with the method and status. Its trace ID becomes the request's ID, so the
/// access log, `X-Request-Id` and problem documents name the trace.
enum RequestSpan {
    static func run(_ request: Request, _ handle: (_ traceID: String?, _ span: any Span) async throws -> Response) async throws -> Response {
        var parent = ServiceContext.topLevel
        InstrumentationSystem.instrument.extract(request.headers, into: &parent, using: HeaderExtractor())
        return try await withSpan(request.method.rawValue, context: parent, ofKind: .server) { span in
            span.attributes["http.request.method"] = request.method.rawValue
            return try await handle(TracePropagation.traceID(of: span.context), span)
        }
    }

    /// Names the finished span by its route and notes the status (5xx is an error, as OpenTelemetry's HTTP conventions say).
    static func finish(_ span: any Span, method: String, route: String?, status: Int) {
        span.operationName = route.map { "\(method) \($0)" } ?? method
        if let route { span.attributes["http.route"] = route }
        span.attributes["http.response.status_code"] = status
        if status >= 500 { span.setStatus(SpanStatus(code: .error)) }
    }

    private struct HeaderExtractor: Extractor {
        func extract(key: String, from carrier: HTTPFields) -> String? {
            HTTPField.Name(key).flatMap { carrier[$0] }
        }
    }
}
