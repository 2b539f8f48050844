import DataSources
import GTFSRealtime
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import OnwardCore
import Server
import ServiceLifecycle
import Services
import StoragePostgres
import SkiMap
import Storage
import Timetable
import GTFSSource
import Transit
import TransitSources

/// The composition root of `onward serve`: configuration in, a ready
/// application out, with realtime sources as services that start and stop
/// with the server (SIGTERM and SIGINT shut everything down cleanly).
public enum ServerApplication {
    public struct Built: Sendable {
        public var application: Application<RouterResponder<OnwardRequestContext>>
        public var store: LiveStore
        /// Every source the server answers from, the GTFS network first.
        public var sources: SourceRegistry
        /// Accounts, sessions and saved routes, as the server keeps them.
        public var people: PeopleService
        /// The database: closed after the server stops.
        public var storage: OpenedStorage
        public var origin: String
        /// What is being served, as the start-up log line says it.
        public var summary: String { ServerApplication.summary(origin, store.current.timetable.stopCount, store.current.timetable.tripCount) }
    }

    /// Opens the database in the data folder (migrating it), loads the network
    /// and the realtime feeds saved by the last run (all before the server
    /// listens, so /health/ready is true as soon as it answers), then builds the server.
    public static func build(_ config: ServeConfiguration, logger: Logger, fetcher: any HTTPFetching = Fetchers.live(),
                             now: @escaping @Sendable () -> Instant = { .now() }) async throws -> Built {
        try FileManager.default.createDirectory(atPath: config.dataDir, withIntermediateDirectories: true)
        // First, so a database this version cannot use stops the start before the slow timetable load.
        let database = try await OpenedStorage.open(config, logger: logger)
        logger.info("storage opened", metadata: ["database": .string(database.description)])
        let saved = SavedFeeds(repository: database.realtimeFeeds, logger: logger)
        // Several servers on one PostgreSQL: live changes go between them, and each feed has one poller.
        let relay = database.postgres.map { LiveRelay(transport: PostgresRelay(notifications: PostgresNotifications(store: $0, logger: logger)), logger: logger) }
        // Servers starting together on one database with nothing kept: one fetches the feeds, the others load what it stored.
        let firstVersion = database.postgres.map { postgres -> TimetableStart.Exclusively in
            { work in try await PostgresLeadership(store: postgres, logger: logger, retry: .milliseconds(200)).exclusively("static feeds first version", work) }
        }
        let started = try await TimetableStart.open(config, fetcher: fetcher, now: now, logger: logger, shared: database.postgres?.feedVersions,
                                                    exclusively: firstVersion)
        let loaded = started.loaded
        let network = try GTFSNetwork.open(loaded, options: .init(realtime: config.realtime, simulate: config.simulate, maxAge: config.maxAge,
                                                                   pollInterval: config.pollInterval, simulateInterval: config.simulateInterval),
                                           fetcher: fetcher, now: now, saved: { feed, bytes, message, fetchedAt in
                                               await saved.save(bytes, of: message, source: feed, fetchedAt: fetchedAt)
                                               relay?.announce(.feed(source: feed))
                                           })
        for (source, prefix) in network.store.current.realtimePrefixes.sorted(by: { $0.key < $1.key }) {
            logger.info("realtime source matched against static feed",
                        metadata: ["source": .string(source), "feed": .string(String(prefix.dropLast()))])
        }
        try await saved.restore(network.feeds.map(\.name), into: network.writer)
        var services: [any Service] = network.feeds.map { feed -> any Service in
            let polling = RealtimePollingService(feed: feed, logger: logger)
            guard let postgres = database.postgres else { return polling }
            return LeadingService(job: "realtime \(feed.name)", leadership: PostgresLeadership(store: postgres, logger: logger)) { await polling.poll() }
        }
        if let ticker = network.simulation { services.append(SimulationService(ticker: ticker)) }
        // Sharing a database, the servers tell each other of the versions stored (the leader fetches; see FeedRefreshService).
        var announce: (@Sendable (RelayMessage) -> Void)?
        if let relay { announce = { message in relay.announce(message) } }
        let feedRefresh = started.keeper.map { keeper in
            FeedRefreshService(keeper: keeper, writer: network.writer, refreshSeconds: config.feedRefresh, logger: logger, announce: announce)
        }
        if let feedRefresh { services.append(feedRefresh) }
        let shared = database.postgres.map { StoredUpstreamAnswers(repository: $0.upstreamAnswers, logger: logger, now: now) }
        let upstream = ProtocolSources.registry(config, fetcher: fetcher, shared: shared, now: now)
        // Each server records what its feeds (and National Rail's boards) say and keeps its own book; folding is
        // idempotent, so servers sharing a database may each do it (one that meets another's fold retries in an hour).
        let keepers = upstream.sources.compactMap { $0 as? any KeepsDelayHistory }
        let history = DelayHistoryKeeper(repository: database.delayHistory, settings: config.historySettings, logger: logger) { [writer = network.writer] book in
            await writer.serve(history: book)
            for source in keepers { source.serve(history: book) }
        }
        await network.writer.observeDelays { observations in history.submit(observations) }
        for source in keepers { source.observeDelays { observations in history.submit(observations) } }
        services.append(DelayHistoryService(keeper: history, now: now))
        // A feed named like a protocol source would have its IDs claimed by that source.
        if let taken = loaded.timetable.feeds.first(where: { upstream.source(named: $0.name) != nil }) {
            throw Network.LoadError.nameTaken(taken.name)
        }
        let registry = SourceRegistry([network.source] + upstream.sources)
        let commutes = try await CommuteSetup.service(config, repository: database.commutes, sources: registry, fetcher: fetcher, now: now, logger: logger)
        // Before the server listens, so a commute in progress answers from the first request.
        try await commutes.load()
        services.append(commutes)
        feedRefresh?.afterEachSwap { commutes.timetableReplaced() }
        let people = PeopleService(repository: database.people, telegramBotToken: config.telegramBotToken,
                                   telegramBotUsername: config.telegramBotUsername, now: now)
        _ = try await database.people.removeExpiredSessions(before: now())
        let ski = try SkiAreaLoading.load(osm: config.skiArea, elevation: config.skiElevation)
        var settings = ServerDependencies.Settings()
        settings.network = NetworkSummary(simulated: config.simulate)
        settings.attribution = attribution(loaded)
        settings.rateLimit = .init(ratePerSecond: config.rateLimit, burst: config.rateBurst)
        settings.trustedProxies = try TrustedProxies(config.trustedProxies)
        settings.operatorToken = config.operatorToken
        settings.tracing = config.traceEndpoint != nil
        // The bundled town streets go with the bundled ski area only.
        settings.maps = MapLayersLoading.layers(ski: config.skiArea == nil ? ski : nil, store: network.store, config: config, logger: logger)
        if config.skiArea != nil { settings.maps.ski = MapGeoJSON.skiArea(ski) }
        let telegram = config.telegramBotToken.map {
            TelegramBot(token: $0, base: URL(string: config.telegramAPIURL)!, fetcher: fetcher, logger: logger)
        }
        let notifier = TripNotifier(repository: database.trips, people: database.people, push: commutes.pushSender, telegram: telegram)
        services.append(notifier)
        let trips = TripService(repository: database.trips, people: people, notifier: notifier, telegramWebhookSecret: config.telegramWebhookSecret, now: now)
        let watches = WatchService(repository: database.watches, sources: registry, notifier: notifier, checkSeconds: config.watchCheckInterval,
                                   now: now, logger: logger)
        services.append(watches)
        if let relay {
            let writer = network.writer, all = network.feeds.map(\.name)
            relay.connect(people: people, trips: trips, commutes: commutes, feedStored: { source in
                try? await saved.restore(source.map { [$0] } ?? all, into: writer, logLevel: .debug)
            }, timetable: feedRefresh?.sharing)
            services.append(relay)
            if let postgres = database.postgres {
                services.append(LeadingService(job: "commutes", leadership: PostgresLeadership(store: postgres, logger: logger)) { await commutes.lead() })
                watches.shareChecks()
                services.append(LeadingService(job: "watches", leadership: PostgresLeadership(store: postgres, logger: logger)) { await watches.lead() })
                if let feedRefresh {
                    services.append(LeadingService(job: "static feeds", leadership: PostgresLeadership(store: postgres, logger: logger)) { await feedRefresh.lead() })
                }
            }
        }
        let deps = ServerDependencies(sources: registry, people: people, trips: trips, commutes: commutes, watches: watches, ski: SkiRouter(ski),
                                      feedRefresh: feedRefresh, history: history, settings: settings, now: now)
        let router = buildRouter(deps)
        let app = Application(
            router: router,
            server: .onward(router, deps: deps),
            configuration: .init(address: .hostname(config.host, port: config.port), serverName: "Onward"),
            services: services,
            // Said once the port is bound, never before: a port in use fails without a "serving" line.
            onServerRunning: { [summary = summary(loaded.origin, loaded.timetable.stopCount, loaded.timetable.tripCount)] channel in
                logger.info("serving \(summary)",
                            metadata: ["url": "http://\(config.host):\(channel.localAddress?.port ?? config.port)/",
                                       "simulate": "\(config.simulate)", "realtime": "\(config.realtime.count) source(s)"])
            },
            logger: logger
        )
        return Built(application: app, store: network.store, sources: registry, people: people, storage: database, origin: loaded.origin)
    }

    /// "mrt-jakarta: 13 stops, 572 trips".
    static func summary(_ origin: String, _ stops: Int, _ trips: Int) -> String { "\(origin): \(stops) stops, \(trips) trips" }

    /// Whether the server could not listen because another process has the port.
    public static func isAddressInUse(_ error: any Error) -> Bool { isAddressInUseError(error) }

    /// Who made the data, for every page's footer.
    static func attribution(_ loaded: Network.Loaded) -> String {
        let agencies = loaded.timetable.agencies.map(\.name).joined(separator: ", ")
        if loaded.origin == Network.defaultName {
            return "Timetable: MRT Jakarta North–South line, © PT MRT Jakarta; map data © OpenStreetMap contributors (ODbL)."
        }
        return "Timetable: \(agencies.isEmpty ? loaded.origin : agencies)."
    }
}
