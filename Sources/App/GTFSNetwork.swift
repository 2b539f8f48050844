import DataSources
import Foundation
import GTFSRealtime
import GTFSSource
import OnwardCore
import Timetable

/// The GTFS network as configured: the loaded timetable in its live store, the source that
/// answers from it, and its realtime feeds (each bound to its static feed). The server polls
/// the feeds for as long as it runs; the CLI reads each once. Both through `RealtimeFeedPolling`.
public struct GTFSNetwork: Sendable {
    public let loaded: Network.Loaded
    public let store: LiveStore
    public let writer: RealtimeWriter
    public let source: GTFSNetworkSource
    public let feeds: [RealtimeFeedPolling]
    public let simulation: SimulationTicker?

    public struct Options: Sendable {
        /// `[NAME=]URL_OR_FILE` of each realtime feed.
        public var realtime: [String] = []
        public var simulate = false
        public var maxAge = 120
        public var pollInterval = 30
        public var simulateInterval = 5

        public init(realtime: [String] = [], simulate: Bool = false, maxAge: Int = 120, pollInterval: Int = 30, simulateInterval: Int = 5) {
            self.realtime = realtime; self.simulate = simulate; self.maxAge = maxAge
            self.pollInterval = pollInterval; self.simulateInterval = simulateInterval
        }
    }

    /// - Parameters:
    ///   - saved: keeps each applied body for the next start (the server).
    ///   - clock: what the polling loops sleep on.
    public static func open(_ loaded: Network.Loaded, options: Options, fetcher: any HTTPFetching,
                            now: @escaping @Sendable () -> Instant = { .now() }, clock: any Clock<Duration> = ContinuousClock(),
                            saved: (@Sendable (_ feed: String, Data, RealtimeMessage, _ fetchedAt: Instant) async -> Void)? = nil) throws(Network.LoadError) -> GTFSNetwork {
        var state = NetworkState(served: loaded.served, maxAge: Int64(options.maxAge))
        state.simulated = options.simulate
        let locations = options.realtime.compactMap(NamedFeedLocation.init)
        // Each feed's bare IDs take the prefix of the static feed it names (else the first feed's).
        for (source, feed) in try Network.bind(locations, to: loaded.timetable) { state.realtimePrefixes[source] = feed.idPrefix }
        // Feeds are known from the start, so a board says "no live data yet" rather than showing a plain timetable.
        for l in locations { state.sources[l.name] = SourceHealth(name: l.name) }
        if options.simulate { for name in SimulatedFeed.sourceNames { state.sources[name] = SourceHealth(name: name) } }
        let store = LiveStore(state)
        let writer = RealtimeWriter(store: store)
        let feeds = locations.map {
            RealtimeFeedPolling(location: $0, interval: .seconds(options.pollInterval), fetcher: fetcher, writer: writer, now: now,
                                clock: clock, saved: saved)
        }
        return GTFSNetwork(loaded: loaded, store: store, writer: writer, source: GTFSNetworkSource(store: store, displayName: displayName(loaded)),
                           feeds: feeds, simulation: options.simulate ? SimulationTicker(writer: writer, interval: .seconds(options.simulateInterval)) : nil)
    }

    /// Reads every realtime feed once and applies the simulation as of `now`: what a CLI
    /// command shows. The failures, by feed name, for the command to report.
    public func readOnce(now: Instant) async -> [(name: String, error: SourceError)] {
        var failed: [(String, SourceError)] = []
        for feed in feeds {
            let status = await feed.pollOnce()
            if status.consecutiveFailures > 0, let error = status.lastError { failed.append((feed.name, error)) }
        }
        await simulation?.tick(now: now)
        return failed
    }

    /// Whether any realtime feed (or the simulation) has delivered data.
    public var hasLiveData: Bool { store.current.sources.values.contains { $0.lastSuccess != nil } }

    /// A name for people: the bundled network's, else its agencies', else its feeds'.
    static func displayName(_ loaded: Network.Loaded) -> String {
        if loaded.origin == Network.defaultName { return "MRT Jakarta" }
        let agencies = loaded.timetable.agencies.map(\.name)
        return agencies.isEmpty ? loaded.timetable.feeds.map(\.name).joined(separator: ", ") : agencies.joined(separator: ", ")
    }
}
