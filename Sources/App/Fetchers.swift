import DataSources

/// The HTTP client the app uses for upstream sources.
public enum Fetchers {
    public static func live() -> any HTTPFetching { URLSessionFetcher() }
}
