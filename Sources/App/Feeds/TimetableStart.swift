import DataSources
import Foundation
import GTFSSource
import Logging
import OnwardCore
import Storage
import Timetable

/// The timetable a server starts on, and the keeper that brings it new versions.
enum TimetableStart {
    typealias Exclusively = @Sendable (_ work: @escaping @Sendable () async -> First?) async throws -> First?

    /// A first version: stored by another server, or fetched here.
    enum First: Sendable {
        case stored(ServedTimetable)
        case fetched(ServedTimetable)
    }

    struct Started: Sendable {
        var loaded: Network.Loaded
        /// nil for the bundled network and for a compiled snapshot, which never change while the server runs.
        var keeper: FeedKeeper?
    }

    /// The bundled network or a snapshot as today; configured feeds from the data folder's kept
    /// version at once when there is one (even when their URLs do not answer), else from their
    /// first good version: files are read now, and a URL is fetched until a version is accepted.
    /// - Parameter shared: the database servers share, when they do: a first start with no kept version
    ///   loads the one another server stored there, and fetches only when there is none.
    /// - Parameter exclusively: runs its work while no other server sharing the database runs the same (an advisory
    ///   lock): servers starting together with nothing kept fetch the feeds once, not once each.
    static func open(_ config: ServeConfiguration, fetcher: any HTTPFetching, now: @escaping @Sendable () -> Instant,
                     logger: Logger, shared: (any FeedVersionRepository)? = nil, exclusively: Exclusively? = nil,
                     waitOnFirstFetch: Duration = .seconds(2)) async throws -> Started {
        let keeping: Network.Keeping
        do { keeping = try Network.Keeping(config.feeds) } catch { throw Network.LoadError.configuration(error.description) }
        switch keeping {
        case .bundled:
            return Started(loaded: try Network.load([], identifying: true), keeper: nil)
        case .snapshot(let path):
            return Started(loaded: try Network.load([path], identifying: true), keeper: nil)
        case .feeds(let feeds):
            let folder = FeedFolder(dataDir: config.dataDir)
            let origin = feeds.map { "\($0.name) (\($0.location.safeName))" }.joined(separator: ", ")
            func keeper(current: ServedTimetable?, manifest: FeedFolder.Manifest?) -> FeedKeeper {
                FeedKeeper(feeds: feeds, folder: folder, acceptance: FeedAcceptance(maxShrink: config.feedMaxShrink), fetcher: fetcher,
                           timeout: .seconds(300), maxBytes: config.feedMaxBytes, now: now, logger: logger, current: current, manifest: manifest,
                           shared: shared)
            }
            if feeds.contains(where: \.isURL), let manifest = folder.manifest(), folder.matches(manifest, feeds),
               let timetable = try? Timetable.loadSnapshot(from: folder.snapshot) {
                let shapes = (try? ShapeTable.loadSnapshot(from: folder.snapshot)) ?? .empty
                let served = ServedTimetable(timetable: timetable, shapes: shapes, versions: manifest.feeds.map(\.version), retired: folder.retired())
                let kept = keeper(current: served, manifest: manifest)
                let oldest = manifest.feeds.map(\.version.fetchedAt).min() ?? now()
                logger.info("serving the kept timetable; checking for a newer version in the background",
                            metadata: ["feeds": .string(origin), "fetched_seconds_ago": .stringConvertible(now().epochSeconds - oldest.epochSeconds),
                                       "versions": .string(served.versions.map(\.shortHash).joined(separator: ", "))])
                return Started(loaded: Network.Loaded(served, origin: origin), keeper: kept)
            }
            let kept = keeper(current: nil, manifest: nil)
            var wait = waitOnFirstFetch
            let first: @Sendable () async -> First? = {
                // Another server's stored version first: sharing a database, the agency is asked by one server only.
                if shared != nil, let served = await kept.check(.shared) { return .stored(served) }
                return await kept.check().map(First.fetched)
            }
            while true {
                let found: First?
                if let exclusively { found = try await exclusively(first) } else { found = await first() }
                switch found {
                case .stored(let served)?:
                    logger.info("serving the timetable another server stored", metadata: ["feeds": .string(origin),
                                "versions": .string(served.versions.map(\.shortHash).joined(separator: ", "))])
                    return Started(loaded: Network.Loaded(served, origin: origin), keeper: kept)
                case .fetched(let served)?:
                    return Started(loaded: Network.Loaded(served, origin: origin), keeper: kept)
                case nil:
                    break
                }
                let problems = await kept.checks.compactMap(\.problem)
                // A file that cannot be read stops the start with the reason, as it always has; a URL may answer later.
                guard feeds.contains(where: \.isURL) else {
                    throw Network.LoadError.configuration("cannot use the feeds: " + problems.joined(separator: "; "))
                }
                logger.warning("no version of the feeds is in service yet; trying again",
                               metadata: ["problem": .string(problems.joined(separator: "; ")), "retry_seconds": .stringConvertible(wait.components.seconds)])
                try await Task.sleep(for: wait)
                wait = min(wait * 2, .seconds(300))
            }
        }
    }
}
