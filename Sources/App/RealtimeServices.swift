import DataSources
import GTFSSource
import Logging
import OnwardCore
import Server
import ServiceLifecycle
import StoragePostgres

/// A realtime feed polled for as long as the server runs: a failure keeps the last good
/// data, is recorded in the feed's health (and so in /health/ready and /metrics) and logged.
struct RealtimePollingService: Service {
    let feed: RealtimeFeedPolling
    let logger: Logger

    func run() async throws {
        // On shutdown the loop is cancelled, wherever it is (a fetch or the sleep between two).
        await cancelWhenGracefulShutdown { await poll() }
    }

    /// Polls until cancelled.
    func poll() async {
        await feed.run { error, status in
            logger.warning("realtime source failed; keeping the last good data",
                           metadata: ["source": .string(feed.name), "error": .string(error.message),
                                      "failures": .stringConvertible(status.consecutiveFailures)])
        }
    }
}

/// With several servers on one PostgreSQL: a realtime feed polled by one server at a time, the one
/// that holds its lock (so the upstream sees one client, not one per server). The others apply what
/// it stores, as the relay announces it; when it dies, one of them takes over within seconds.
struct LeadingPollingService: Service {
    let polling: RealtimePollingService
    let leadership: PostgresLeadership

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await leadership.whileLeading("realtime \(polling.feed.name)") { await polling.poll() }
        }
    }
}

/// The demonstration source, ticking for as long as the server runs.
struct SimulationService: Service {
    let ticker: SimulationTicker

    func run() async throws {
        await cancelWhenGracefulShutdown { await ticker.run() }
    }
}

/// With several servers on one PostgreSQL: the commutes' clock (deadlines, simulated travellers, live
/// times) runs on one server at a time, so each alert is given once; another takes over when it dies.
struct LeadingCommuteClock: Service {
    let commutes: CommuteService
    let leadership: PostgresLeadership

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await leadership.whileLeading("commutes") { await commutes.lead() }
        }
    }
}
