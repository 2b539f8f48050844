import API
import Foundation
import OnwardCore
import Services
import SkiMap
import Transit
import TransitSources

/// What the routes need, made complete by the composition root (`App`) and never changed after:
/// the sources, the use cases, and the settings of the HTTP edge.
public struct ServerDependencies: Sendable {
    /// How the HTTP edge behaves: limits, trusted proxies, origins, refresh periods and the trip map's layers.
    public struct Settings: Sendable {
        /// What was loaded, for `/health/ready`.
        public var network = NetworkSummary()
        /// The data's attribution, shown in every page's footer.
        public var attribution = ""
        public var rateLimit = RateLimiter.Configuration()
        /// The proxies whose `Forwarded` / `X-Forwarded-For` name the client (none: every peer is the client).
        public var trustedProxies = TrustedProxies.none
        /// Origins (scheme://host[:port]) besides the server's own that may open WebSockets.
        public var allowedOrigins: Set<String> = []
        /// Largest request body accepted.
        public var maxBodyBytes = 16 * 1024
        /// How often a live page of a source asked on demand (which announces no changes) asks it again.
        public var sourceRefresh: Duration = .seconds(30)
        /// The trip map's own layers and base tiles.
        public var maps = MapLayers()
        /// What an operator sends to ask for a feed check (`POST /api/v1/feeds/refresh`); nil: that route is off.
        public var operatorToken: String?
        /// How often a live trip map looks again for shares that ended.
        public var tripRecheck: Duration = .seconds(5)
        /// Journeys planned at once, and how many more may wait (`PlanningBudget`); beyond that a request is answered
        /// `503` with `Retry-After`. Nil: a plan per core, eight per core waiting.
        public var planningConcurrency: Int?
        public var planningQueue: Int?
        /// Whether spans are exported (`trace_endpoint`): each request then has one, and its ID is the trace's.
        /// Off, the request path takes no span at all.
        public var tracing = false

        public init() {}
    }

    /// Every source (the GTFS network, National Rail, the CTA bus tracker), by name.
    public let sources: SourceRegistry
    /// Accounts, sessions and saved routes.
    public let people: PeopleService
    /// Group trips.
    public let trips: TripService
    /// The commutes in progress (commuting mode).
    public let commutes: CommuteService
    /// Watched journeys (none in a server built without them, as some tests are).
    public let watches: WatchService?
    /// Routing on the ski area, when one is loaded.
    public let ski: SkiRouter?
    /// The static feeds' keeping, when they are kept current (feeds from URLs or files).
    public let feedRefresh: (any TimetableRefreshing)?
    /// The delay history, when this server keeps one (its realtime feeds are recorded).
    public let history: DelayHistoryKeeper?
    public let settings: Settings
    public let metrics: ServerMetrics
    /// How many journeys this server plans at once (every journey the API, the pages and live updates ask for).
    public let planning: PlanningBudget
    /// "Now" for live statuses; a test fixes it.
    public let now: @Sendable () -> Instant

    public init(sources: SourceRegistry, people: PeopleService, trips: TripService, commutes: CommuteService, watches: WatchService? = nil,
                ski: SkiRouter?, feedRefresh: (any TimetableRefreshing)? = nil, history: DelayHistoryKeeper? = nil, settings: Settings,
                metrics: ServerMetrics = ServerMetrics(), now: @escaping @Sendable () -> Instant) {
        self.sources = sources; self.people = people; self.trips = trips; self.commutes = commutes; self.watches = watches; self.ski = ski
        self.feedRefresh = feedRefresh; self.history = history
        self.settings = settings; self.metrics = metrics; self.now = now
        planning = settings.planningConcurrency.map { PlanningBudget(concurrent: $0, waiting: settings.planningQueue) }
            ?? PlanningBudget(waiting: settings.planningQueue)
    }

    /// Who a request comes from (session cookie or bearer token), with the checks against forgery.
    var auth: Authenticator { Authenticator(people: people, allowedOrigins: settings.allowedOrigins) }

    /// Queries over every source at this moment.
    func queries() -> Queries {
        var q = Queries(sources, now: now())
        q.planning = planning
        return q
    }

    /// The moment a request names for a stop's board (`at`, or `date`/`time` read in the
    /// stop's zone), with that zone. The stop's place is asked of its source only when a
    /// local date or time needs its zone: `at` carries its offset.
    func boardMoment(_ q: RequestParameters, stopID: String, queries: Queries) async throws -> (moment: Instant?, zone: TimeZone?) {
        let needsZone = q.string("time") != nil || q.string("date") != nil
        let zone = needsZone ? TimeZone.named(try await queries.place(stopID).timeZone) : nil
        return (try q.moment(in: zone ?? .gmt, now: queries.now), zone)
    }
}

/// What the server was started with, for readiness (its timetables' sizes are asked of them: they change with a new feed version).
public struct NetworkSummary: Sendable, Hashable {
    /// The demonstration source runs (`--simulate`).
    public var simulated: Bool

    public init(simulated: Bool = false) { self.simulated = simulated }
}
