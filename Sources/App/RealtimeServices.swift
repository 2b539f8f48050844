import DataSources
import GTFSSource
import Logging
import OnwardCore
import Server
import Services
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

/// With several servers on one PostgreSQL: a job that runs on one server at a time, the one that
/// holds its lock; when that server dies, another takes over within seconds. Used for each realtime
/// feed's polling (the upstream sees one client, not one per server; the others apply what the
/// poller stores, as the relay announces it) and for the commutes' clock (each alert is given once).
struct LeadingService: Service {
    let job: String
    let leadership: PostgresLeadership
    let work: @Sendable () async -> Void

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await leadership.whileLeading(job) { await work() }
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

/// The delay history's upkeep: folds finished days, drops old rows and refreshes the boards' book, hourly.
struct DelayHistoryService: Service {
    let keeper: DelayHistoryKeeper
    let now: @Sendable () -> Instant

    func run() async throws {
        await cancelWhenGracefulShutdown { await keeper.run(every: .seconds(3600), now: now) }
    }
}
