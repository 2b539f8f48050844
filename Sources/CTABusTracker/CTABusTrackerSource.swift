import DataSources
import Foundation
import OnwardCore
import Synchronization
import TransitSources

/// The CTA Bus Tracker as a source: predictions at stops as departure boards, service
/// bulletins as alerts, routes → directions → stops to browse, and buses on a route.
///
/// It answers for the bus tracker's own "now" only: predictions, not a timetable. It has
/// no stop search (the API has none) and knows no stop before the bus tracker names it.
/// Requests go through an `UpstreamClient` (cache, coalescing, a daily budget, retries);
/// the key is added to each URL when it is sent and never appears in what this returns:
/// errors and statuses name the source (`cta`) and the operation, never a URL.
public final class CTABusTrackerSource: TransitSource {
    /// `cta`: every ID this source gives starts `cta:`.
    public let sourceNames = [CTAIDs.source]
    public let displayName = "CTA Bus Tracker"
    /// No stop search (the API has none), no boards for another time (predictions only),
    /// no arrivals boards or calling-at filter, no service details.
    public let capabilities: SourceCapabilities = [.departures, .alerts, .browse, .vehicles]

    /// The bus tracker's default allowance: 10,000 transactions a day per key.
    public static let defaultDailyLimit = 10_000

    let key: String
    let base: URL
    let client: UpstreamClient
    let now: @Sendable () -> Instant
    let timeout: Duration
    let state = Mutex(CTASourceState())

    /// - Parameters:
    ///   - key: the bus tracker API key. Empty: every call fails with `.configuration`, without a request.
    ///   - base: the API up to and including its version (`https://www.ctabustracker.com/bustime/api/v3`).
    ///   - fetcher: the network seam; a fake in tests.
    ///   - now: the clock for "now", cache ages and the budget.
    ///   - dailyLimit: the most requests sent in any 24 hours; nil for no limit of our own.
    ///   - retry: how transient failures are retried.
    ///   - timeout: for each request.
    ///   - shared: answers shared with the other servers on one database, so the API sees one client.
    public init(key: String, base: URL = CTARequest.defaultBase, fetcher: any HTTPFetching, shared: (any SharedUpstreamAnswers)? = nil,
                now: @escaping @Sendable () -> Instant = { Instant.now() },
                dailyLimit: Int? = CTABusTrackerSource.defaultDailyLimit, retry: RetryPolicy = RetryPolicy(),
                timeout: Duration = .seconds(10)) {
        self.key = key
        self.base = base
        self.now = now
        self.timeout = timeout
        self.client = UpstreamClient(
            configuration: UpstreamClient.Configuration(name: CTAIDs.source, requestLimit: dailyLimit, retry: retry,
                                                        timeout: timeout, secrets: key.isEmpty ? [] : [key]),
            fetcher: fetcher, shared: shared, now: now)
    }

    /// Stops the adapter has seen in a `getstops` answer, and routes in a `getroutes`
    /// answer. It knows nothing offline, so everything else is unknown to it.
    public func recognizes(localID: String, as kind: IDKind) -> Bool {
        state.withLock { s in
            switch kind {
            case .stop: s.stops[localID] != nil
            case .route: s.routes[localID] != nil
            case .service: false
            }
        }
    }

    /// One status, `cta`: unavailable while the key is refused or the day's requests are
    /// spent, failing after a failed request, fresh after a good one, idle before any.
    public func status(now: Instant) -> [SourceStatus] {
        let s = state.withLock { $0 }
        let age = s.lastSuccess.map { max(0, now.epochSeconds - $0.epochSeconds) }
        var status = SourceStatus(name: CTAIDs.source, state: .idle, ageSeconds: age, budgetRemaining: s.budgetRemaining)
        if key.isEmpty {
            status.state = .unavailable
            status.detail = "no API key is configured"
        } else if let until = s.dailyLimitUntil, now < until {
            status.state = .unavailable
            status.detail = "the API key's daily request limit is used up until midnight in Chicago"
        } else if s.isFailing, let failure = s.lastFailure {
            status.state = failure.error.code == .configuration ? .unavailable : .failing
            status.detail = failure.error.message
        } else if s.lastSuccess != nil {
            status.state = .fresh
        }
        return [status]
    }
}
