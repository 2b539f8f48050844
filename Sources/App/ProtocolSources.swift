import CTABusTracker
import DataSources
import Foundation
import NationalRail
import OnwardCore
import Transit
import TransitSources

/// The sources behind the `TransitSource` protocol that configuration turns on: the
/// one place that names the concrete adapters. Adding a source is a line here.
public enum ProtocolSources {
    /// `shared`: with several servers on one database, what they fetch is shared, so each upstream sees one client.
    public static func registry(_ config: ServeConfiguration, fetcher: any HTTPFetching = Fetchers.live(),
                                shared: (any SharedUpstreamAnswers)? = nil,
                                now: @escaping @Sendable () -> Instant = { .now() }) -> SourceRegistry {
        var sources: [any TransitSource] = []
        // URLs were checked when the configuration was read.
        if let token = config.nationalRailToken, let url = URL(string: config.nationalRailURL) {
            sources.append(NationalRailSource(token: token, endpoint: url, fetcher: fetcher, shared: shared, now: now))
        }
        if let key = config.ctaKey, let url = URL(string: config.ctaURL) {
            sources.append(CTABusTrackerSource(key: key, base: url, fetcher: fetcher, shared: shared, now: now))
        }
        return SourceRegistry(sources)
    }

    /// The sources Onward can use, with what turns each on.
    public static let known: [(name: String, setting: String)] = [
        ("national-rail", "national_rail_token (environment ONWARD_NATIONAL_RAIL_TOKEN)"),
        ("cta", "cta_key (environment ONWARD_CTA_KEY)"),
    ]

    /// For an ID like `national-rail:YRK` when that source is not configured: what to set.
    /// (Called only after the configured registry did not claim the ID.)
    public static func unconfiguredHint(for id: String) -> String? {
        guard let (name, _) = CanonicalID.split(id), let entry = known.first(where: { $0.name == name }) else { return nil }
        return "'\(id)' is a \(name) ID, but \(name) is not configured: set \(entry.setting)."
    }
}
