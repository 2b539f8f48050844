import DataSources
import Foundation
import GTFSRealtime
import OnwardCore

/// One realtime feed of the GTFS network, read through the one apply path: each new
/// body is decoded and handed to the network's `RealtimeWriter`, and each poll's outcome
/// is recorded in the feed's health. The server runs `run()` for as long as it serves;
/// the CLI calls `pollOnce()` once. Either way the same code fetches, applies and records.
public struct RealtimeFeedPolling: Sendable {
    /// The feed's safe name (never its URL, which may carry a key).
    public let name: String
    /// Where it is read from.
    public let location: FeedLocation
    let poller: Poller
    let writer: RealtimeWriter
    let clock: any Clock<Duration>

    /// - Parameters:
    ///   - saved: called after a body is applied (the server keeps it for its next start).
    ///   - clock: what the loop sleeps on between polls; a test clock drives it without waiting.
    public init(location: NamedFeedLocation, interval: Duration, fetcher: any HTTPFetching, writer: RealtimeWriter,
                now: @escaping @Sendable () -> Instant, clock: any Clock<Duration> = ContinuousClock(),
                saved: (@Sendable (_ feed: String, Data, RealtimeMessage, _ fetchedAt: Instant) async -> Void)? = nil) {
        let name = location.name
        self.name = name
        self.location = location.location
        self.writer = writer
        self.clock = clock
        poller = Poller(location: location.location, fetcher: fetcher, configuration: .init(interval: interval), now: now) { bytes in
            let fetchedAt = now()
            let message = try RealtimeFeed.decode(bytes, source: name)
            await writer.apply(message, source: name, now: fetchedAt)
            await saved?(name, bytes, message, fetchedAt)
        }
    }

    /// Fetches once, applies what is new, records the outcome in the feed's health.
    @discardableResult
    public func pollOnce() async -> PollState {
        _ = await poller.pollOnce()
        let status = await poller.status
        await writer.record(status, source: name)
        return status
    }

    /// Polls until cancelled, waiting as the poll state says (the interval, or a backoff
    /// after failures). `failed` hears each failure (the server logs it).
    public func run(failed: @Sendable (SourceError, PollState) -> Void = { _, _ in }) async {
        while !Task.isCancelled {
            let status = await pollOnce()
            if status.consecutiveFailures > 0, let error = status.lastError, !Task.isCancelled { failed(error, status) }
            do { try await clock.sleep(for: status.nextDelay) } catch { return }  // cancelled: shutting down
        }
    }
}

/// The demonstration source: simulated live data for the bundled network, regenerated
/// on each tick and labelled as simulated everywhere.
public struct SimulationTicker: Sendable {
    let writer: RealtimeWriter
    let interval: Duration

    public init(writer: RealtimeWriter, interval: Duration) { self.writer = writer; self.interval = interval }

    /// Applies the simulation as of `now`, each simulated source recorded as healthy.
    public func tick(now: Instant) async {
        let state = writer.store.current
        let messages = SimulatedFeed(timetable: state.timetable, idPrefix: state.idPrefix).messages(at: now)
        for (name, message) in messages.bySource {
            await writer.apply(RealtimeMessage(message), source: name, now: now)
            var status = PollState(interval: interval)
            status.record(.succeeded(at: now))
            await writer.record(status, source: name)
        }
    }

    /// Ticks until cancelled.
    public func run() async {
        while !Task.isCancelled {
            await tick(now: .now())
            do { try await Task.sleep(for: interval) } catch { return }  // cancelled: shutting down
        }
    }
}
