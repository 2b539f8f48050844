import DataSources
import Foundation
import GTFSSource
import Logging
import OnwardCore
import ServiceLifecycle
import Services
import Synchronization

/// Checks the static feeds for new versions for as long as the server runs: on its schedule
/// (`feed_refresh`; files are looked at every 10 seconds at most, which costs a `stat`), and at
/// once when asked (an operator's `onward feeds refresh`, SIGHUP). A version the keeper accepts
/// is swapped into the live store, with the live data re-applied to it; every check's outcome
/// goes into the feeds' health.
final class FeedRefreshService: Service, TimetableRefreshing, Sendable {
    let keeper: FeedKeeper
    let writer: RealtimeWriter
    /// Between checks of every feed; zero: only when asked.
    let interval: Duration
    /// Between looks at the file feeds' modification times (none when there are no file feeds).
    let fileInterval: Duration?
    let logger: Logger
    /// Checks asked for, waiting for the loop.
    private let asked: AsyncStream<FeedKeeper.Scope>
    private let ask: AsyncStream<FeedKeeper.Scope>.Continuation

    init(keeper: FeedKeeper, writer: RealtimeWriter, refreshSeconds: Int, logger: Logger) {
        self.keeper = keeper; self.writer = writer; self.logger = logger
        interval = .seconds(refreshSeconds)
        fileInterval = keeper.feeds.contains { !$0.isURL } && refreshSeconds > 0 ? .seconds(min(refreshSeconds, 10)) : nil
        (asked, ask) = AsyncStream.makeStream(of: FeedKeeper.Scope.self, bufferingPolicy: .bufferingNewest(8))
    }

    /// Runs one check now and swaps in what it accepted: what the schedule, an operator and
    /// SIGHUP all come to. Returns whether a new version went into service.
    @discardableResult
    func refresh(_ scope: FeedKeeper.Scope = .all) async -> Bool {
        let served = await keeper.check(scope)
        if let served {
            let started = ContinuousClock.now
            await writer.serve(served)
            logger.info("the new timetable is in service", metadata: ["swap_seconds": .string(FeedKeeper.seconds(ContinuousClock.now - started))])
        }
        for check in await keeper.checks { await writer.record(check) }
        return served != nil
    }

    var feedNames: [String] { keeper.feeds.map(\.name) }

    func refreshNow(feed: String?) async -> Bool { await refresh(feed.map(FeedKeeper.Scope.feed) ?? .all) }

    func run() async throws {
        // SIGHUP: check every feed now, as operators expect of a daemon asked to reload.
        signal(SIGHUP, SIG_IGN)
        let hangUp = DispatchSource.makeSignalSource(signal: SIGHUP)
        hangUp.setEventHandler { [ask] in ask.yield(.all) }
        hangUp.resume()
        defer { hangUp.cancel() }
        await cancelWhenGracefulShutdown { await self.loop() }
    }

    /// Checks on the schedule and whenever one is asked for, until cancelled.
    func loop() async {
        for check in await keeper.checks { await writer.record(check) }
        await withTaskGroup(of: Void.self) { group in
            for (every, scope) in [(interval, FeedKeeper.Scope.all), (fileInterval ?? .zero, .files)] where every > .zero {
                group.addTask {
                    while !Task.isCancelled {
                        do { try await Task.sleep(for: every) } catch { return }
                        self.ask.yield(scope)
                    }
                }
            }
            group.addTask {
                for await scope in self.asked {
                    if Task.isCancelled { return }
                    await self.refresh(scope)
                }
            }
            await group.next()
            group.cancelAll()
        }
    }
}
