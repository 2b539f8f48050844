import DataSources
import Foundation
import OnwardCore
import Transit
import TransitSources

/// The sources behind the `TransitSource` protocol that configuration turns on: the
/// one place that names the concrete adapters. Adding a source is a line here.
public enum ProtocolSources {
    public static func registry(_ config: ServeConfiguration, fetcher: any HTTPFetching = Fetchers.live(),
                                now: @escaping @Sendable () -> Instant = { .now() }) -> SourceRegistry {
        let sources: [any TransitSource] = []
        return SourceRegistry(sources)
    }
}
