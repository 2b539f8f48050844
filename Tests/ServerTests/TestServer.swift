import App
import Foundation
import GTFSSource
import GTFSRealtime
import Hummingbird
import HummingbirdWebSocket
import Logging
import OnwardCore
import Server
import SkiMap
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
                     rateLimit: RateLimiter.Configuration = .init(ratePerSecond: 1000, burst: 1000)) -> ServerDependencies {
        var deps = ServerDependencies(sources: SourceRegistry([GTFSNetworkSource(store: store, displayName: "MRT Jakarta")] + more),
                                      network: NetworkSummary(stops: store.current.timetable.stopCount, trips: store.current.timetable.tripCount,
                                                              simulated: store.current.simulated),
                                      now: { now }, attribution: "Test data", rateLimit: rateLimit)
        deps.ski = ski
        return deps
    }
}
