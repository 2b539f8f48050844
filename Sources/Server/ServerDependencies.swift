import API
import Foundation
import OnwardCore
import SkiMap
import Storage
import Transit
import TransitSources

/// What the routes need, made by the composition root (`App`).
public struct ServerDependencies: Sendable {
    /// Every source (the GTFS network, National Rail, the CTA bus tracker), by name.
    public var sources: SourceRegistry
    /// What was loaded, for `/health/ready`.
    public var network: NetworkSummary
    public var metrics: ServerMetrics
    /// "Now" for live statuses; a test fixes it.
    public var now: @Sendable () -> Instant
    /// The data's attribution, shown in every page's footer.
    public var attribution: String
    public var rateLimit: RateLimiter.Configuration
    /// The proxies whose `Forwarded` / `X-Forwarded-For` name the client (none: every peer is the client).
    public var trustedProxies = TrustedProxies.none
    /// Origins (scheme://host[:port]) besides the server's own that may open WebSockets.
    public var allowedOrigins: Set<String>
    /// Largest request body accepted.
    public var maxBodyBytes: Int
    /// How often a live page of a source asked on demand (which announces no changes) asks it again.
    public var sourceRefresh: Duration = .seconds(30)
    /// The commutes in progress (commuting mode). By default kept in memory, without Web Push.
    public var commutes: CommuteService
    /// Accounts, sessions and saved routes. By default kept in memory.
    public var people: PeopleService
    /// Routing on the ski area, when one is loaded.
    public var ski: SkiRouter?
    /// Group trips. By default kept in memory.
    public var trips: TripService
    /// The trip map's own layers and base tiles.
    public var maps = MapLayers()
    /// How often a live trip map looks again for shares that ended.
    public var tripRecheck: Duration = .seconds(5)

    public init(sources: SourceRegistry, network: NetworkSummary = NetworkSummary(), metrics: ServerMetrics = ServerMetrics(),
                now: @escaping @Sendable () -> Instant = { .now() }, attribution: String = "", rateLimit: RateLimiter.Configuration = .init(),
                allowedOrigins: Set<String> = [], maxBodyBytes: Int = 16 * 1024, commutes: CommuteService? = nil,
                people: PeopleService? = nil) {
        self.sources = sources; self.network = network; self.metrics = metrics; self.now = now; self.attribution = attribution
        self.rateLimit = rateLimit; self.allowedOrigins = allowedOrigins; self.maxBodyBytes = maxBodyBytes
        self.commutes = commutes ?? CommuteService(repository: InMemoryCommuteRepository(), sources: sources, now: now)
        self.people = people ?? PeopleService(repository: InMemoryPeopleRepository(), now: now)
        trips = TripService(repository: InMemoryTripRepository(), people: self.people, now: now)
    }

    /// Who a request comes from (session cookie or bearer token), with the checks against forgery.
    var auth: Authenticator { Authenticator(people: people, allowedOrigins: allowedOrigins) }

    /// Queries over every source at this moment.
    func queries() -> Queries { Queries(sources, now: now()) }

    /// The moment a request names for a stop's board (`at`, or `date`/`time` read in the
    /// stop's zone), with that zone. The stop's place is asked of its source only when a
    /// local date or time needs its zone: `at` carries its offset.
    func boardMoment(_ q: Params, stopID: String, queries: Queries) async throws -> (moment: Instant?, zone: TimeZone?) {
        let needsZone = q.string("time") != nil || q.string("date") != nil
        let zone = needsZone ? TimeZone(identifier: try await queries.place(stopID).timeZone) ?? .gmt : nil
        return (try q.moment(in: zone ?? .gmt, now: queries.now), zone)
    }
}

/// What the server was started with, for readiness.
public struct NetworkSummary: Sendable, Hashable {
    public var stops: Int
    public var trips: Int
    /// The demonstration source runs (`--simulate`).
    public var simulated: Bool

    public init(stops: Int = 0, trips: Int = 0, simulated: Bool = false) { self.stops = stops; self.trips = trips; self.simulated = simulated }
}
