import DataSources
import Foundation
import OnwardCore
import Tracing

/// The HTTP client the app uses for upstream sources.
public enum Fetchers {
    /// `traced`: each fetch has a span (spans are exported); off, none is made.
    public static func live(traced: Bool = false) -> any HTTPFetching {
        traced ? TracedFetcher(URLSessionFetcher()) : URLSessionFetcher()
    }
}

/// A span for each upstream fetch (a static feed, a realtime feed, National Rail, the bus tracker, Telegram),
/// in the trace of whatever asked for it. It names the method and the host only: an upstream's path or query
/// may carry its key (the CTA's `key=`, Telegram's bot token), and a span is as public as a log.
struct TracedFetcher: HTTPFetching {
    let inner: any HTTPFetching

    init(_ inner: any HTTPFetching) { self.inner = inner }

    func fetch(_ request: HTTPRequest) async throws(SourceError) -> HTTPResponse {
        let host = request.url.host ?? "upstream"
        let result: Result<HTTPResponse, SourceError> = await withSpan("\(request.method.rawValue) \(host)", ofKind: .client) { span in
            span.attributes["http.request.method"] = request.method.rawValue
            span.attributes["server.address"] = host
            if let port = request.url.port { span.attributes["server.port"] = port }
            do throws(SourceError) {
                let response = try await inner.fetch(request)
                span.attributes["http.response.status_code"] = response.status
                span.attributes["http.response.body.size"] = response.body.count
                if response.status >= 400 { span.setStatus(SpanStatus(code: .error)) }
                return .success(response)
            } catch {
                span.recordError(error)
                span.setStatus(SpanStatus(code: .error, message: error.message))
                return .failure(error)
            }
        }
        return try result.get()
    }
}
