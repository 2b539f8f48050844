import API
import Foundation
import OnwardCore
import Timetable
import Transit
import TransitSources

/// What the routes need, made by the composition root (`App`).
public struct ServerDependencies: Sendable {
    public var store: LiveStore
    /// Sources behind the `TransitSource` protocol (National Rail, the CTA bus tracker), by name.
    public var sources: SourceRegistry
    public var metrics: ServerMetrics
    /// "Now" for live statuses; a test fixes it.
    public var now: @Sendable () -> Instant
    /// The data's attribution, shown in every page's footer.
    public var attribution: String
    public var rateLimit: RateLimiter.Configuration
    /// Origins (scheme://host[:port]) besides the server's own that may open WebSockets.
    public var allowedOrigins: Set<String>
    /// Largest request body accepted.
    public var maxBodyBytes: Int
    /// How often a live page of a protocol source (which announces no changes) asks it again.
    public var sourceRefresh: Duration = .seconds(30)

    public init(store: LiveStore, sources: SourceRegistry = .empty, metrics: ServerMetrics = ServerMetrics(), now: @escaping @Sendable () -> Instant = { .now() },
                attribution: String = "", rateLimit: RateLimiter.Configuration = .init(), allowedOrigins: Set<String> = [],
                maxBodyBytes: Int = 16 * 1024) {
        self.store = store; self.sources = sources; self.metrics = metrics; self.now = now; self.attribution = attribution
        self.rateLimit = rateLimit; self.allowedOrigins = allowedOrigins; self.maxBodyBytes = maxBodyBytes
    }

    /// Queries over the state at this moment.
    func queries() -> Queries { Queries(store.current, now: now()) }

    /// Queries over the protocol sources at this moment.
    func sourceQueries() -> SourceQueries { SourceQueries(sources, now: now()) }

    /// Whether `id` belongs to a protocol source rather than the GTFS network: prefixed
    /// with its name, or unprefixed, unknown to the timetable and recognised by exactly one source.
    func sourceOwns(_ id: String, as kind: IDKind, _ queries: Queries) -> Bool {
        guard !sources.isEmpty else { return false }
        if sources.owns(id) { return true }
        let tt = queries.state.timetable
        // Known to the timetable: found, or ambiguous between its feeds (which the timetable explains).
        func known<I>(_ lookup: IDLookup<I>) -> Bool { if case .notFound = lookup { false } else { true } }
        let knownToTimetable = switch kind {
        case .stop: known(tt.lookupStop(id: id))
        case .service: known(tt.lookupTrip(id: id))
        case .route: known(tt.lookupRoute(id: id))
        }
        return !knownToTimetable && sources.resolve(id, as: kind) != nil
    }

    /// The moment a request names for a protocol source's stop (`at`, or `date`/`time` read in
    /// the stop's zone), with that zone. The stop's place is asked of the source only when a
    /// local date or time needs its zone: `at` carries its offset.
    func sourceMoment(_ q: Params, stopID: String, now: Instant) async throws -> (moment: Instant?, zone: TimeZone) {
        let needsZone = q.string("time") != nil || q.string("date") != nil
        let zone = needsZone ? TimeZone(identifier: (try await sourceQueries().stop(stopID)).timeZone) ?? .gmt : .gmt
        return (try q.moment(in: zone, now: now), zone)
    }
}
