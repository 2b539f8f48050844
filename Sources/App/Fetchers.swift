import DataSources

/// The HTTP client the app uses for upstream sources.
public enum Fetchers {
    public static func live() -> any HTTPFetching { PendingFetcher() }
}

// Replaced by DataSources' URLSessionFetcher as soon as it lands (same session).
struct PendingFetcher: HTTPFetching {
    func fetch(_ request: HTTPRequest) async throws(SourceError) -> HTTPResponse {
        throw SourceError(.network, "fetching \(request.url) is not available yet")
    }
}
