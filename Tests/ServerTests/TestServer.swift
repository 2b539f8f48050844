import App
import Foundation
import GTFSSource
import GTFSRealtime
import Hummingbird
import HummingbirdWebSocket
import Logging
import OnwardCore
import Server
import Services
import SkiMap
import Storage
import Timetable
import Transit
import TransitSources

/// A server on the bundled network with simulated live data applied at a fixed
/// moment, so answers are the same on every run.
enum TestServer {
    /// Monday 2026-11-23 08:00 in Jakarta (UTC+7).
    static let now = Instant(epochSeconds: Int64(ServiceDate(iso: "2026-11-23")!.dayNumber) * 86_400 + 1 * 3600)

    static let timetable = Result { try Network.load([]).timetable }

    /// The bundled ski area (Vallnord), loaded once.
    static let ski = try? SkiRouter(SkiAreaLoading.load())

    /// A store whose realtime data is the simulation at `at`.
    static func store(simulatedAt at: Instant = now) throws -> LiveStore {
        var state = NetworkState(timetable: try timetable.get())
        state.applySimulation(at: at)
        return LiveStore(state)
    }

    static func app(_ deps: ServerDependencies, limits: ConnectionLimits = .init(), logger: Logger? = nil) -> some ApplicationProtocol {
        let router = buildRouter(deps)
        return Application(router: router, server: .onward(router, deps: deps, limits: limits),
                           configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                           logger: logger ?? quiet)
    }

    /// Warnings and errors only: each request is logged at info.
    static let quiet: Logger = {
        var logger = Logger(label: "Onward")
        logger.logLevel = .warning
        return logger
    }()

    /// The bundled network as the source, then `more` (upstream sources) after it, as the app composes them.
    static func deps(_ store: LiveStore, more: [any TransitSource] = [],
                     rateLimit: RateLimiter.Configuration = .init(ratePerSecond: 1000, burst: 1000),
                     now: @escaping @Sendable () -> Instant = { now }, people: PeopleService? = nil,
                     trips: ((PeopleService) -> TripService)? = nil, commutes: ((SourceRegistry) -> CommuteService)? = nil,
                     settings change: (inout ServerDependencies.Settings) -> Void = { _ in }) -> ServerDependencies {
        var settings = ServerDependencies.Settings()
        settings.network = NetworkSummary(simulated: store.current.simulated)
        settings.rateLimit = rateLimit
        change(&settings)
        return deps(sources: SourceRegistry([GTFSNetworkSource(store: store, displayName: "MRT Jakarta")] + more), settings: settings,
                    now: now, people: people, trips: trips, commutes: commutes)
    }

    /// Dependencies as `App` makes them, over `sources`, with storage in memory and no push or Telegram
    /// unless a test gives its own use cases.
    static func deps(sources: SourceRegistry, settings: ServerDependencies.Settings, now: @escaping @Sendable () -> Instant = { now },
                     people: PeopleService? = nil, trips: ((PeopleService) -> TripService)? = nil,
                     commutes: ((SourceRegistry) -> CommuteService)? = nil) -> ServerDependencies {
        var settings = settings
        if settings.attribution.isEmpty { settings.attribution = "Test data" }
        let people = people ?? PeopleService(repository: InMemoryPeopleRepository(), now: now)
        return ServerDependencies(sources: sources, people: people,
                                  trips: trips?(people) ?? TripService(repository: InMemoryTripRepository(), people: people, now: now),
                                  commutes: commutes?(sources) ?? CommuteService(repository: InMemoryCommuteRepository(), sources: sources, now: now),
                                  watches: WatchService(repository: InMemoryWatchRepository(), sources: sources, notifier: nil, now: now),
                                  ski: ski, history: DelayHistoryKeeper(repository: InMemoryDelayHistoryRepository()) { _ in },
                                  settings: settings, now: now)
    }
}

extension ServerDependencies {
    /// A copy with some parts replaced: a test's own use cases, clock or settings.
    func replacing(now: (@Sendable () -> Instant)? = nil, people: PeopleService? = nil, trips: ((PeopleService) -> TripService)? = nil,
                   commutes: ((SourceRegistry) -> CommuteService)? = nil,
                   settings change: (inout Settings) -> Void = { _ in }) -> ServerDependencies {
        var settings = self.settings
        change(&settings)
        let people = people ?? self.people
        return ServerDependencies(sources: sources, people: people, trips: trips?(people) ?? self.trips, commutes: commutes?(sources) ?? self.commutes,
                                  watches: watches, ski: ski, settings: settings, metrics: metrics, now: now ?? self.now)
    }
}
