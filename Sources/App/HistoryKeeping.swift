import Foundation
import GTFSSource
import Logging
import OnwardCore
import Services
import Storage
import StorageSQLite
import Transit
import API

/// Delay history outside the server: `onward history` opens the server's storage (its data folder, or its PostgreSQL)
/// through this, and fills it from recordings or the simulation by the server's own path (the network's writer hands
/// each message's observations to the keeper).
public struct HistoryKeeping: Sendable {
    public let keeper: DelayHistoryKeeper
    let storage: OpenedStorage

    /// Opens the configured storage (making the data folder when it is new) and a keeper on it.
    public static func open(_ config: ServeConfiguration) async throws -> HistoryKeeping {
        if config.databaseURL == nil { try FileManager.default.createDirectory(atPath: config.dataDir, withIntermediateDirectories: true) }
        var logger = Logger(label: "onward.history")
        logger.logLevel = .warning
        let storage = try await OpenedStorage.open(config, logger: logger)
        return HistoryKeeping(keeper: DelayHistoryKeeper(repository: storage.delayHistory, settings: config.historySettings, logger: logger) { _ in },
                              storage: storage)
    }

    public func close() async { await storage.close() }

    /// Puts the history the configured storage holds in `network`'s service, so a CLI board shows what the server's
    /// would. Nothing when there is no database yet (nothing is made) or it cannot be read (the board goes on without).
    public static func serveBook(_ config: ServeConfiguration, to network: GTFSNetwork, today: ServiceDate) async {
        guard config.databaseURL != nil || FileManager.default.fileExists(atPath: config.dataDir + "/" + SQLiteStore.fileName) else { return }
        guard let history = try? await open(config) else { return }
        if let book = try? await history.keeper.book(today: today), !book.isEmpty { await network.writer.serve(history: book) }
        await history.close()
    }

    /// What a replay did.
    public struct Replayed: Sendable {
        /// Messages (recordings) or simulation ticks applied.
        public var steps: Int
        public var observations: Int
        /// The service dates folded at the end.
        public var folded: [ServiceDate]
        /// Rows the history holds now.
        public var rawObservations: Int
        public var aggregates: Int
    }

    /// The history a request asks for (`DelayHistoryKeeper.report`).
    public func report(_ subject: Queries.HistorySubject, today: ServiceDate) async throws -> HistoryDTO {
        try await keeper.report(subject, today: today)
    }

    /// Replays the network's recorded realtime files (`--realtime FILE…`) in the order of their headers, each applied
    /// as of its moment and recorded; then folds every day the recordings speak of (a replay is of finished days).
    /// `moment` sets the network's clock.
    public func replayRecorded(_ network: GTFSNetwork, moment: @escaping @Sendable (Instant) -> Void) async throws -> Replayed {
        let replay = try RealtimeReplay(network)
        let counter = Counter()
        await network.writer.observeDelays { [keeper] observations in
            await counter.add(observations)
            await keeper.record(observations)
        }
        for capture in replay.captures {
            moment(capture.at)
            await replay.apply(capture)
        }
        return try await finish(steps: replay.captures.count, counter: counter)
    }

    /// Runs the simulation from `start` for `days` days, a tick every `stepMinutes`, each recorded; then folds.
    public func replaySimulation(_ network: GTFSNetwork, from start: Instant, days: Int, stepMinutes: Int) async throws -> Replayed {
        guard let ticker = network.simulation else { throw HistoryReplayError(description: "the simulation is off: give --simulate") }
        let counter = Counter()
        await network.writer.observeDelays { [keeper] observations in
            await counter.add(observations)
            await keeper.record(observations)
        }
        let steps = days * 1440 / stepMinutes
        for i in 0..<steps { await ticker.tick(now: start.adding(seconds: Int64(i * stepMinutes * 60))) }
        return try await finish(steps: steps, counter: counter)
    }

    private func finish(steps: Int, counter: Counter) async throws -> Replayed {
        let dates = await counter.dates
        guard let last = dates.max() else {
            let size = try await keeper.repository.size()
            return Replayed(steps: steps, observations: 0, folded: [], rawObservations: size.observations, aggregates: size.aggregates)
        }
        // Folded as of the last day replayed, so its raw observations are kept their days too.
        let upkeep = try await keeper.upkeep(today: last, foldThrough: last)
        let size = try await keeper.repository.size()
        return Replayed(steps: steps, observations: await counter.count, folded: upkeep.folded, rawObservations: size.observations,
                        aggregates: size.aggregates)
    }

    private actor Counter {
        var count = 0
        var dates = Set<ServiceDate>()
        func add(_ o: [DelayObservation]) { count += o.count; for x in o { dates.insert(x.serviceDate) } }
    }
}

public struct HistoryReplayError: Error, CustomStringConvertible {
    public var description: String
}
