import DataSources
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import GTFSSource
import Logging
import OnwardCore
import ServiceLifecycle
import Services
import Synchronization
import Timetable
import Tracing

/// Checks the static feeds for new versions for as long as the server runs: on its schedule
/// (`feed_refresh`; files are looked at every 10 seconds at most, which costs a `stat`), and at
/// once when asked (an operator's `onward feeds refresh`, SIGHUP). A version the keeper accepts
/// is swapped into the live store, with the live data re-applied to it; every check's outcome
/// goes into the feeds' health.
///
/// Servers sharing a PostgreSQL database: only the leader checks on the schedule (`lead()`, under
/// its lock, as realtime polling is); it stores what it accepts and announces it, and every other
/// server loads that from the database (`Scope.shared`), on the announcement or, should one be
/// missed, within `followInterval`. A check asked of another server is passed to the leader.
final class FeedRefreshService: Service, TimetableRefreshing, Sendable {
    let keeper: FeedKeeper
    let writer: RealtimeWriter
    /// Between checks of every feed; zero: only when asked.
    let interval: Duration
    /// Between looks at the file feeds' modification times (none when there are no file feeds).
    let fileInterval: Duration?
    /// Between looks at the shared database's versions, when servers share one (the announcement usually comes first).
    let followInterval: Duration?
    let logger: Logger
    /// Tells the other servers sharing the database (nil: this server is alone).
    private let announce: (@Sendable (RelayMessage) -> Void)?
    /// Whether this server checks the feeds now: always when alone; the leader's when servers share a database.
    private let leading: Atomic<Bool>
    /// Told after each swap (the commutes ask their live times again).
    private let swapped = Mutex<[@Sendable () -> Void]>([])
    /// Checks asked for, waiting for the loop, each with the trace it was asked in (an operator's request,
    /// another server's announcement), so the check shows in that trace.
    private let asked: AsyncStream<Asked>
    private let ask: AsyncStream<Asked>.Continuation

    struct Asked: Sendable {
        var scope: FeedKeeper.Scope
        var context: ServiceContext?
    }

    init(keeper: FeedKeeper, writer: RealtimeWriter, refreshSeconds: Int, logger: Logger,
         announce: (@Sendable (RelayMessage) -> Void)? = nil, followInterval: Duration = .seconds(30)) {
        self.keeper = keeper; self.writer = writer; self.logger = logger; self.announce = announce
        interval = .seconds(refreshSeconds)
        fileInterval = keeper.feeds.contains { !$0.isURL } && refreshSeconds > 0 ? .seconds(min(refreshSeconds, 10)) : nil
        self.followInterval = announce == nil ? nil : followInterval
        leading = Atomic(announce == nil)
        (asked, ask) = AsyncStream.makeStream(of: Asked.self, bufferingPolicy: .bufferingNewest(8))
    }

    var feedNames: [String] { keeper.feeds.map(\.name) }

    func refreshNow(feed: String?) async -> TimetableRefreshOutcome {
        let scope = feed.map(FeedKeeper.Scope.feed) ?? .all
        guard leading.load(ordering: .relaxed) else {
            announce?(.timetableCheckAsked(feed: feed))
            return .askedOfAnother
        }
        return await refresh(scope) ? .accepted : .unchanged
    }

    /// Runs one check now and swaps in what it accepted: what the schedule, an operator, SIGHUP and
    /// another server's announcement all come to. Returns whether a new version went into service.
    @discardableResult
    func refresh(_ scope: FeedKeeper.Scope) async -> Bool {
        await withSpan(scope == .shared ? "feeds load stored version" : "feeds check") { span in
            let served = await keeper.check(scope)
            span.attributes["onward.feeds.accepted"] = served != nil
            if let served {
                let old = await writer.store.current.served
                // Journeys are being asked: the new timetable's planner is built now, off the request path, not by
                // the first journey after the swap (which, with every request arriving meanwhile, would wait for it).
                if old.hasPlanner {
                    await withSpan("feeds build planner") { _ in await BlockingWork.run { _ = served.planner } }
                }
                let started = ContinuousClock.now
                let leaving = OldTimetable(old)
                await withSpan("feeds swap") { span in
                    await writer.serve(served)
                    span.attributes["onward.timetable.trips"] = served.timetable.tripCount
                }
                leaving.returnMemoryOnceReleased()
                logger.notice("the new timetable is in service", metadata: ["swap_seconds": .string(FeedKeeper.seconds(ContinuousClock.now - started))])
                for tell in swapped.withLock({ $0 }) { tell() }
                // What this server fetched, the others load from the database.
                if scope != .shared { announce?(.timetable) }
            }
            for check in await keeper.checks { await writer.record(check) }
            return served != nil
        }
    }

    /// Calls `tell` after each new timetable goes into service.
    func afterEachSwap(_ tell: @escaping @Sendable () -> Void) { swapped.withLock { $0.append(tell) } }

    /// Asks the loop for a check, in the trace of the caller.
    private func askCheck(_ scope: FeedKeeper.Scope) { ask.yield(Asked(scope: scope, context: ServiceContext.current)) }

    /// What another server announced: a version it stored (load it), or an operator's request (the leader checks).
    var sharing: LiveRelay.TimetableSharing {
        LiveRelay.TimetableSharing(stored: { [weak self] in self?.askCheck(.shared) },
                                   checkAsked: { [weak self] feed in
                                       guard let self, self.leading.load(ordering: .relaxed) else { return }
                                       self.askCheck(feed.map(FeedKeeper.Scope.feed) ?? .all)
                                   })
    }

    func run() async throws {
        // SIGHUP: check every feed now, as operators expect of a daemon asked to reload.
        signal(SIGHUP, SIG_IGN)
        let hangUp = DispatchSource.makeSignalSource(signal: SIGHUP)
        hangUp.setEventHandler { [weak self] in Task { _ = await self?.refreshNow(feed: nil) } }
        hangUp.resume()
        defer { hangUp.cancel() }
        await cancelWhenGracefulShutdown {
            for check in await self.keeper.checks { await self.writer.record(check) }
            // Started on a kept version: its sources are looked at now, not a schedule's period later.
            if self.announce == nil, await !self.keeper.checkedRecently { self.askCheck(.all) }
            await withTaskGroup(of: Void.self) { group in
                // Alone, this server keeps the schedule; sharing a database, the leader does (`lead()`).
                if self.announce == nil { group.addTask { await self.schedule() } }
                if let every = self.followInterval { group.addTask { await self.every(every, ask: .shared) } }
                group.addTask {
                    for await asked in self.asked {
                        if Task.isCancelled { return }
                        if let context = asked.context {
                            _ = await ServiceContext.withValue(context) { await self.refresh(asked.scope) }
                        } else {
                            await self.refresh(asked.scope)
                        }
                    }
                }
                await group.next()
                group.cancelAll()
            }
        }
    }

    /// The schedule, kept while this server leads (servers sharing a database: under the leader's lock).
    func lead() async {
        leading.store(true, ordering: .relaxed)
        defer { leading.store(false, ordering: .relaxed) }
        // A new leader first brings itself to what the last one stored, then checks the sources (unless it just
        // did, starting): the last leader may have stopped mid-fetch.
        askCheck(.shared)
        if await !keeper.checkedRecently { askCheck(.all) }
        await schedule()
    }

    private func schedule() async {
        await withTaskGroup(of: Void.self) { group in
            for (every, scope) in [(interval, FeedKeeper.Scope.all), (fileInterval ?? .zero, .files)] where every > .zero {
                group.addTask { await self.every(every, ask: scope) }
            }
            await group.waitForAll()
        }
        // With no schedule (feed_refresh 0) the lead lasts until cancelled all the same.
        if interval == .zero { while !Task.isCancelled { do { try await Task.sleep(for: .seconds(3600)) } catch { return } } }
    }

    private func every(_ period: Duration, ask scope: FeedKeeper.Scope) async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: period) } catch { return }
            askCheck(scope)
        }
    }
}

/// The timetable a swap took out of service. Its memory is freed when the last request holding it finishes, but
/// glibc keeps freed pages of a large heap for later: a server that swapped in a 10-million-row timetable stayed
/// 110 MB above where it started. Once the old one is gone (looked at every 100 ms, for at most a minute: a
/// request takes milliseconds), glibc is asked to give its free pages back (`malloc_trim`), on a thread of its own.
private final class OldTimetable: Sendable {
    private let released: @Sendable () -> Bool

    init(_ served: ServedTimetable) {
        weak let held = served
        released = { held == nil }
    }

    /// glibc's `malloc_trim(0)`. It is declared in <malloc.h>, which Swift's Glibc module does not bring in,
    /// so it is looked up by name; on another C library it is not there, and nothing is done.
    private static func trim() {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        typealias MallocTrim = @convention(c) (Int) -> Int32
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        #endif
    }

    func returnMemoryOnceReleased() {
        Task { [released] in
            for _ in 0..<600 where !released() {
                do { try await Task.sleep(for: .milliseconds(100)) } catch { return }
            }
            await BlockingWork.run { Self.trim() }
        }
    }
}
