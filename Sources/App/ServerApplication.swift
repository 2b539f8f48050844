import DataSources
import GTFSRealtime
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import OnwardCore
import Server
import ServiceLifecycle
import StorageSQLite
import Timetable
import Transit

/// The composition root of `onward serve`: configuration in, a ready
/// application out, with realtime sources as services that start and stop
/// with the server (SIGTERM and SIGINT shut everything down cleanly).
public enum ServerApplication {
    public struct Built: Sendable {
        public var application: Application<RouterResponder<OnwardRequestContext>>
        public var store: LiveStore
        public var origin: String
        /// What is being served, for the start-up log line.
        public var summary: String {
            let tt = store.current.timetable
            return "\(origin): \(tt.stopCount) stops, \(tt.tripCount) trips"
        }
    }

    /// Opens the database in the data folder (migrating it), loads the network
    /// and the realtime feeds saved by the last run (all before the server
    /// listens, so /health/ready is true as soon as it answers), then builds the server.
    public static func build(_ config: ServeConfiguration, logger: Logger, fetcher: any HTTPFetching = Fetchers.live(),
                             now: @escaping @Sendable () -> Instant = { .now() }) async throws -> Built {
        try FileManager.default.createDirectory(atPath: config.dataDir, withIntermediateDirectories: true)
        // First, so a database this version cannot use stops the start before the slow timetable load.
        let saved = SavedFeeds(repository: try SQLiteStore(directory: config.dataDir).realtimeFeeds, logger: logger)
        let loaded = try Network.load(config.feeds)
        var state = NetworkState(timetable: loaded.timetable, maxAge: Int64(config.maxAge))
        state.simulated = config.simulate
        // Sources are known from the start, so a board says "no live data yet" rather than showing a plain timetable.
        let locations = config.realtime.compactMap(NamedFeedLocation.init)
        // Each source's bare IDs take the prefix of the static feed it names (else the first feed's).
        for (source, feed) in try Network.bind(locations, to: loaded.timetable) {
            state.realtimePrefixes[source] = feed.idPrefix
            logger.info("realtime source matched against static feed",
                        metadata: ["source": .string(source), "feed": .string(feed.name)])
        }
        for l in locations { state.sources[l.name] = SourceHealth(name: l.name) }
        if config.simulate { for name in SimulatedFeed.sourceNames { state.sources[name] = SourceHealth(name: name) } }
        let store = LiveStore(state)
        let writer = RealtimeWriter(store: store)
        try await saved.restore(locations.map(\.name), into: writer)
        var services: [any Service] = locations.map {
            RealtimePollingService(location: $0, interval: .seconds(config.pollInterval), fetcher: fetcher, writer: writer,
                                   saved: saved, now: now, logger: logger)
        }
        if config.simulate { services.append(SimulationService(writer: writer, interval: .seconds(config.simulateInterval))) }
        let registry = ProtocolSources.registry(config, fetcher: fetcher, now: now)
        // A feed named like a protocol source would have its IDs claimed by that source.
        if let taken = loaded.timetable.feeds.first(where: { registry.source(named: $0.name) != nil }) {
            throw Network.LoadError.nameTaken(taken.name)
        }
        let deps = ServerDependencies(store: store, sources: registry, now: now, attribution: attribution(loaded),
                                      rateLimit: .init(ratePerSecond: config.rateLimit, burst: config.rateBurst))
        let router = buildRouter(deps)
        let app = Application(
            router: router,
            server: .onward(router, deps: deps),
            configuration: .init(address: .hostname(config.host, port: config.port), serverName: "Onward"),
            services: services,
            logger: logger
        )
        return Built(application: app, store: store, origin: loaded.origin)
    }

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
