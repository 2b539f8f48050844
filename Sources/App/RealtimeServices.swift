import DataSources
import GTFSSource
import Logging
import OnwardCore
import ServiceLifecycle

/// A realtime feed polled for as long as the server runs: a failure keeps the last good
/// data, is recorded in the feed's health (and so in /health/ready and /metrics) and logged.
struct RealtimePollingService: Service {
    let feed: RealtimeFeedPolling
    let logger: Logger

    func run() async throws {
        // On shutdown the loop is cancelled, wherever it is (a fetch or the sleep between two).
        await cancelWhenGracefulShutdown {
            await feed.run { error, status in
                logger.warning("realtime source failed; keeping the last good data",
                               metadata: ["source": .string(feed.name), "error": .string(error.message),
                                          "failures": .stringConvertible(status.consecutiveFailures)])
            }
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
