import Logging
import OnwardCore
import Storage

/// The one keeper of delay history: records what live sources said (each poll's observations), folds finished days into
/// aggregates, drops what is older than kept, and hands the boards a fresh `DelayHistoryBook` after each fold. Used by
/// the server (its realtime feeds) and by `onward history replay` alike.
public actor DelayHistoryKeeper {
    public struct Settings: Sendable, Hashable {
        /// Days of raw observations kept after their service date (then only the aggregates are).
        public var rawDays = 7
        /// Days of aggregates read into the book that boards and the planner use.
        public var windowDays = 56
        /// Days of aggregates kept at all.
        public var keepDays = 400
        /// A service day is folded once it is this many days old: its last runs end after midnight, and feeds still
        /// speak of them then.
        public var foldAfterDays = 2

        public init(rawDays: Int = 7, windowDays: Int = 56, keepDays: Int = 400, foldAfterDays: Int = 2) {
            self.rawDays = rawDays; self.windowDays = windowDays; self.keepDays = keepDays; self.foldAfterDays = foldAfterDays
        }
    }

    /// What one round of upkeep did.
    public struct Upkeep: Sendable, Hashable {
        public var folded: [ServiceDate]
        public var rawDropped: Int
        public var aggregatesDropped: Int
        /// Summaries with history enough in the book now.
        public var bookEntries: Int
    }

    public let repository: any DelayHistoryRepository
    public let settings: Settings
    let publish: @Sendable (DelayHistoryBook) async -> Void
    let logger: Logger
    /// Recording failures since the start (a failing database must not stop live data: the poll goes on without it).
    public private(set) var failures = 0
    private var published = false

    /// - Parameter publish: hears each new book (the server swaps it into its network's live store).
    public init(repository: any DelayHistoryRepository, settings: Settings = .init(), logger: Logger = Logger(label: "onward.history"),
                publish: @escaping @Sendable (DelayHistoryBook) async -> Void) {
        self.repository = repository; self.settings = settings; self.logger = logger; self.publish = publish
    }

    /// Stores one poll's observations. A failure is logged and counted, not thrown: history is worth less than live data.
    public func record(_ observations: [DelayObservation]) async {
        guard !observations.isEmpty else { return }
        do { try await repository.record(observations) } catch {
            failures += 1
            logger.warning("delay history not recorded", metadata: ["observations": "\(observations.count)", "error": "\(error)"])
        }
    }

    /// Folds the days old enough as of `today` (or every day through `foldThrough`, which a replay of finished days
    /// asks for), drops old rows, and publishes a new book when anything was folded or none was published yet.
    @discardableResult
    public func upkeep(today: ServiceDate, foldThrough: ServiceDate? = nil) async throws -> Upkeep {
        let folded = try await repository.fold(through: foldThrough ?? today.adding(days: -settings.foldAfterDays))
        let raw = try await repository.pruneRaw(before: today.adding(days: -settings.rawDays))
        let old = try await repository.pruneAggregates(before: today.adding(days: -settings.keepDays))
        var entries = -1
        if !folded.isEmpty || !published {
            let book = try await book(today: today)
            entries = book.count
            await publish(book)
            published = true
        }
        return Upkeep(folded: folded, rawDropped: raw, aggregatesDropped: old, bookEntries: entries)
    }

    /// The book of the window of days up to `today`.
    public func book(today: ServiceDate) async throws -> DelayHistoryBook {
        DelayHistoryBook(try await repository.aggregates(try await window(days: settings.windowDays, today: today), routeID: nil, stopID: nil))
    }

    /// The last `days` days of history there is, up to `today`: history recorded (or replayed) some time ago still
    /// speaks for how a route runs.
    public func window(days: Int, today: ServiceDate) async throws -> ClosedRange<ServiceDate> {
        let last = min(try await repository.lastFoldedDate() ?? today, today)
        return last.adding(days: -days + 1)...last
    }

    /// Records a poll's observations in the background, so the poll goes on at once (the feed stored for the other
    /// servers does not wait for history). Beyond `maxBacklog` polls waiting, a poll's observations are dropped and logged:
    /// a database falling behind must not hold ever more of them in memory.
    public nonisolated func submit(_ observations: [DelayObservation]) {
        Task { await self.recordQueued(observations) }
    }

    static let maxBacklog = 8
    private var backlog = 0

    private func recordQueued(_ observations: [DelayObservation]) async {
        backlog += 1
        defer { backlog -= 1 }
        guard backlog <= Self.maxBacklog else {
            failures += 1
            logger.warning("delay history falling behind: a poll's observations dropped", metadata: ["observations": "\(observations.count)"])
            return
        }
        await record(observations)
    }

    /// Upkeep now and then every `interval` until cancelled; a failure is logged and tried again next time.
    public func run(every interval: Duration, now: @escaping @Sendable () -> Instant) async {
        while !Task.isCancelled {
            do { try await upkeep(today: ServiceDate(dayNumber: Int32(now().epochSeconds / 86_400))) } catch {
                logger.warning("delay history upkeep failed", metadata: ["error": "\(error)"])
            }
            do { try await Task.sleep(for: interval) } catch { return }
        }
    }
}
