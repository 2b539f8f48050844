import DataSources
import Foundation
import GTFSRealtime
import Logging
import OnwardCore
import ServiceLifecycle
import Transit

/// Polls one realtime source for as long as the server runs: each new body is
/// decoded, applied and saved for the next start; a failure keeps the last good
/// data and is recorded in the source's health (and so in /health/ready and /metrics).
struct RealtimePollingService: Service {
    let poller: Poller
    let name: String
    let writer: RealtimeWriter
    let logger: Logger

    init(location: NamedFeedLocation, interval: Duration, fetcher: any HTTPFetching, writer: RealtimeWriter, saved: SavedFeeds,
         now: @escaping @Sendable () -> Instant, logger: Logger) {
        // Known by a safe name everywhere (health, metrics, logs, storage): never the URL, which may carry a key.
        let name = location.name
        self.name = name
        self.writer = writer
        self.logger = logger
        poller = Poller(location: location.location, fetcher: fetcher, configuration: .init(interval: interval), now: now) { bytes in
            let fetchedAt = now()
            let message = try RealtimeFeed.decode(bytes, source: name)
            await writer.apply(message, source: name, now: fetchedAt)
            await saved.save(bytes, of: message, source: name, fetchedAt: fetchedAt)
        }
    }

    func run() async throws {
        // On shutdown the loop is cancelled, wherever it is (a fetch or the sleep between two).
        try await cancelWhenGracefulShutdown { try await self.poll() }
    }

    private func poll() async throws {
        while !Task.isCancelled {
            let event = await poller.pollOnce()
            let status = await poller.status
            await writer.record(status, source: name)
            if case .failed(let error, _) = event {
                logger.warning("realtime source failed; keeping the last good data",
                               metadata: ["source": .string(name), "error": .string(error.message),
                                          "failures": .stringConvertible(status.consecutiveFailures)])
            }
            do { try await Task.sleep(for: status.nextDelay) } catch { return }  // cancelled: shutting down
        }
    }
}

/// The demonstration source: regenerates simulated live data for the bundled
/// network every few seconds, labelled as simulated everywhere.
struct SimulationService: Service {
    let writer: RealtimeWriter
    let interval: Duration

    func run() async throws {
        try await cancelWhenGracefulShutdown { try await self.loop() }
    }

    private func loop() async throws {
        while !Task.isCancelled {
            await tick(now: .now())
            do { try await Task.sleep(for: interval) } catch { return }  // cancelled: shutting down
        }
    }

    func tick(now: Instant) async {
        let state = writer.store.current
        let messages = SimulatedFeed(timetable: state.timetable, idPrefix: state.idPrefix).messages(at: now)
        for (name, message) in messages.bySource {
            await writer.apply(RealtimeMessage(message), source: name, now: now)
            var status = PollState(interval: interval)
            status.record(.succeeded(at: now))
            await writer.record(status, source: name)
        }
    }
}
