import DataSources
import Foundation
import GTFS
import GTFSSource
import Logging
import OnwardCore
import Storage
import Timetable
import Tracing

/// Keeps the configured static feeds current: looks for a new version of each (a conditional
/// request to its URL, or its file's modification time), imports it with the others exactly as
/// `onward import` does, off the request path, checks it (`FeedAcceptance`), writes the compiled
/// timetable into the data folder, and hands back the new `ServedTimetable` for the caller to
/// swap in. A version that fails any step is refused with its reason and never offered again
/// while it is unchanged; the one in service stays.
actor FeedKeeper {
    let feeds: [KeptFeed]
    let folder: FeedFolder
    let acceptance: FeedAcceptance
    private let fetcher: any HTTPFetching
    private let now: @Sendable () -> Instant
    let logger: Logger
    private let pollerConfiguration: Poller.Configuration
    /// The database several servers share, when they do: each version accepted from a URL is stored
    /// there, and the servers that do not fetch load it from there (`Scope.shared`).
    let shared: (any FeedVersionRepository)?

    /// The timetable this keeper last accepted (or started on).
    private(set) var current: ServedTimetable?
    var manifest: FeedFolder.Manifest
    var pollers: [String: Poller] = [:]
    private var signatures: [String: String] = [:]
    private var health: [String: FeedCheckHealth]
    /// The last refusal of each feed, to tell a refusal repeated by its poller from a fetch failure.
    private var refusals: [String: String] = [:]
    /// A version accepted during the check under way.
    private var accepted: ServedTimetable?
    private var running: Task<ServedTimetable?, Never>?

    init(feeds: [KeptFeed], folder: FeedFolder, acceptance: FeedAcceptance, fetcher: any HTTPFetching, timeout: Duration, maxBytes: Int,
         now: @escaping @Sendable () -> Instant, logger: Logger, current: ServedTimetable?, manifest: FeedFolder.Manifest?,
         shared: (any FeedVersionRepository)? = nil) {
        self.feeds = feeds; self.folder = folder; self.acceptance = acceptance; self.fetcher = fetcher; self.now = now; self.logger = logger
        self.shared = shared
        pollerConfiguration = Poller.Configuration(timeout: timeout, backoffBase: .seconds(30), backoffCap: .seconds(3600), maxBodyBytes: maxBytes)
        self.current = current
        self.manifest = manifest ?? FeedFolder.Manifest(feeds: [])
        health = Dictionary(uniqueKeysWithValues: feeds.map { ($0.name, FeedCheckHealth(feed: $0.name)) })
        for feed in feeds {
            if case .file(let path) = feed.location { signatures[feed.name] = current == nil ? nil : FileDigest.signature(of: path) }
        }
    }

    /// Whether every feed was looked at in the last minute (a server that just fetched them, starting).
    var checkedRecently: Bool {
        let now = now()
        return feeds.allSatisfy { f in health[f.name]?.lastCheck.map { now.epochSeconds - $0.epochSeconds < 60 } ?? false }
    }

    /// How the checks of each feed have gone, in configuration order.
    var checks: [FeedCheckHealth] { feeds.compactMap { health[$0.name] } }

    /// Which feeds a check looks at.
    enum Scope: Sendable, Hashable {
        case all
        /// The file feeds only: a `stat` each, done often.
        case files
        case feed(String)
        /// No feed's source: the versions another server stored in the shared database.
        case shared

        func includes(_ feed: KeptFeed) -> Bool {
            switch self {
            case .all: true
            case .files: !feed.isURL
            case .feed(let name): feed.name == name
            case .shared: false
            }
        }
    }

    /// Looks for new versions of the feeds in `scope`, and returns the timetable made with them
    /// when one was accepted. A check asked for while one runs shares it.
    func check(_ scope: Scope = .all) async -> ServedTimetable? {
        if let running { return await running.value }
        let task = Task { await self.performCheck(scope) }
        running = task
        // Shutting down, the check stops where it is (a fetch is cut short): nothing half-done is kept or stored.
        let result = await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
        running = nil
        return result
    }

    private func performCheck(_ scope: Scope) async -> ServedTimetable? {
        accepted = nil
        if scope == .shared { return await followShared() }
        if current == nil { return await firstCheck() }
        for feed in feeds where scope.includes(feed) {
            health[feed.name]?.checks += 1
            health[feed.name]?.lastCheck = now()
            switch feed.location {
            case .url: await checkURL(feed)
            case .file(let path): await checkFile(feed, path: path)
            }
        }
        return accepted
    }

    // MARK: - Checks

    private func checkURL(_ feed: KeptFeed) async {
        let poller = pollers[feed.name] ?? makePoller(feed, resuming: manifest.entry(feed.name).map {
            (ConditionalRequest(etag: $0.etag, lastModified: $0.lastModified), $0.version.hash)
        })
        switch await poller.pollOnce() {
        case .succeeded:
            health[feed.name]?.problem = nil
            // The validators the poller took from the accepted answer, for a restart's first request.
            let validators = await poller.validators
            remember(validators, of: feed.name)
            try? folder.write(manifest)
            await share(feed, validators: validators)
        case .notModified:
            health[feed.name]?.problem = nil
        case .failed(let error, _):
            if refusals[feed.name] != error.message {
                health[feed.name]?.fetchFailures += 1
                logger.warning("could not fetch the static feed; the version in service stays",
                               metadata: ["feed": .string(feed.name), "error": .string(error.message)])
            }
            health[feed.name]?.problem = error.message
        }
    }

    private func checkFile(_ feed: KeptFeed, path: String) async {
        guard let signature = FileDigest.signature(of: path) else {
            health[feed.name]?.problem = "\(feed.location.safeName) is missing; the version in service stays"
            return
        }
        guard signature != signatures[feed.name] else { return }
        signatures[feed.name] = signature
        do {
            let hash = try FileDigest.digest(of: path)
            if hash == current?.version(of: feed.name)?.hash { health[feed.name]?.problem = nil; return }
            _ = try await accept([feed.name: Candidate(source: URL(fileURLWithPath: path), hash: hash, fetchedAt: now())])
            health[feed.name]?.problem = nil
        } catch {
            health[feed.name]?.problem = error.message
        }
    }

    /// The first start with no kept version: every feed is read (each URL in full), then all
    /// are imported together. Until that succeeds nothing is served, so nothing is kept from
    /// a failed attempt: the next one starts afresh.
    private func firstCheck() async -> ServedTimetable? {
        var candidates: [String: Candidate] = [:]
        var validators: [String: ConditionalRequest] = [:]
        for feed in feeds {
            health[feed.name]?.checks += 1
            health[feed.name]?.lastCheck = now()
            switch feed.location {
            case .url:
                let staged = Staged()
                let poller = Poller(location: feed.location, fetcher: fetcher, configuration: pollerConfiguration, now: now) { [folder] bytes in
                    try folder.create()
                    try bytes.write(to: folder.candidate(of: feed.name))
                    await staged.set(Poller.digest(bytes))
                }
                if case .failed(let error, _) = await poller.pollOnce() {
                    health[feed.name]?.fetchFailures += 1
                    health[feed.name]?.problem = error.message
                    return nil
                }
                guard let hash = await staged.hash else { return nil }
                candidates[feed.name] = Candidate(source: folder.candidate(of: feed.name), hash: hash, fetchedAt: now())
                validators[feed.name] = await poller.validators
            case .file(let path):
                signatures[feed.name] = FileDigest.signature(of: path)
                do {
                    candidates[feed.name] = Candidate(source: URL(fileURLWithPath: path), hash: try FileDigest.digest(of: path), fetchedAt: now())
                } catch {
                    health[feed.name]?.problem = error.message
                    return nil
                }
            }
        }
        do {
            let served = try await accept(candidates)
            for feed in feeds where feed.isURL {
                let v = validators[feed.name] ?? ConditionalRequest()
                remember(v, of: feed.name)
                pollers[feed.name] = makePoller(feed, resuming: (v, candidates[feed.name]!.hash))
            }
            try? folder.write(manifest)
            for feed in feeds { health[feed.name]?.problem = nil }
            for feed in feeds where feed.isURL { await share(feed, validators: validators[feed.name] ?? ConditionalRequest()) }
            return served
        } catch {
            for name in candidates.keys { health[name]?.problem = error.message }
            return nil
        }
    }

    /// Notes in the manifest the validators of the answer that brought `feed`'s kept version (written with it).
    func remember(_ validators: ConditionalRequest, of feed: String) {
        guard let i = manifest.feeds.firstIndex(where: { $0.version.feed == feed }) else { return }
        manifest.feeds[i].etag = validators.etag
        manifest.feeds[i].lastModified = validators.lastModified
    }

    private func makePoller(_ feed: KeptFeed, resuming: (conditional: ConditionalRequest, digest: String)?) -> Poller {
        let poller = Poller(location: feed.location, fetcher: fetcher, configuration: pollerConfiguration, now: now,
                            resuming: resuming) { [weak self, folder, now] bytes throws(SourceError) in
            guard let self else { return }
            let candidate = folder.candidate(of: feed.name)
            do { try folder.create(); try bytes.write(to: candidate) } catch {
                throw SourceError(.unreadable, "cannot keep the new version of \(feed.name) in \(folder.directory.path): \(error.localizedDescription)")
            }
            _ = try await self.accept([feed.name: Candidate(source: candidate, hash: Poller.digest(bytes), fetchedAt: now())])
        }
        pollers[feed.name] = poller
        return poller
    }

    // MARK: - Accepting a version

    struct Candidate: Sendable {
        /// The new version's zip or folder.
        var source: URL
        var hash: String
        var fetchedAt: Instant
    }

    private actor Staged {
        var hash: String?
        func set(_ hash: String) { self.hash = hash }
    }

    /// Imports every feed (the candidates' new versions, the kept versions of the others),
    /// checks each new version, keeps the result in the data folder and makes it current.
    func accept(_ candidates: [String: Candidate]) async throws(SourceError) -> ServedTimetable {
        let started = ContinuousClock.now
        let span = startSpan("feeds import and check")
        span.attributes["onward.feeds"] = candidates.keys.sorted().joined(separator: ", ")
        defer { span.end() }
        do {
            let served = try await importAndKeep(candidates, started: started)
            span.attributes["onward.timetable.trips"] = served.timetable.tripCount
            return served
        } catch {
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error, message: error.message))
            throw error
        }
    }

    private func importAndKeep(_ candidates: [String: Candidate], started: ContinuousClock.Instant) async throws(SourceError) -> ServedTimetable {
        let sources = feeds.map { feed in
            candidates[feed.name]?.source ?? {
                switch feed.location {
                case .url: folder.zip(of: feed.name)
                case .file(let path): URL(fileURLWithPath: path)
                }
            }()
        }
        let names = feeds.map { Optional($0.name) }
        let result: GTFSImporter.Result
        do {
            result = try await BlockingWork.run { () throws(FeedError) in try GTFSImporter.load(paths: sources, names: names) }
        } catch {
            throw refuse(candidates, "\(error.location): \(error.message)")
        }
        let tt = result.timetable
        for name in candidates.keys.sorted() {
            if let reason = acceptance.refusal(of: name, in: tt, replacing: current?.timetable, today: tt.today(of: name, at: now())) {
                throw refuse(candidates, reason)
            }
        }
        // Shutting down: a version not yet kept is left for the next start (or the next leader) to fetch again.
        if Task.isCancelled { throw SourceError(.network, "the check was cut short by shutdown") }
        let imported = ContinuousClock.now
        let versions = feeds.map { feed -> FeedVersion in
            let dates = tt.serviceDates(of: feed.name)
            var v = candidates[feed.name].map {
                FeedVersion(feed: feed.name, location: feed.location.safeName, hash: $0.hash, fetchedAt: $0.fetchedAt)
            } ?? current?.version(of: feed.name) ?? FeedVersion(feed: feed.name, location: feed.location.safeName, hash: "", fetchedAt: now())
            v.publisherVersion = tt.feed(named: feed.name)?.version
            v.firstDate = dates?.first
            v.lastDate = dates?.last
            return v
        }
        do {
            try folder.create()
            let snapshot = folder.snapshot.appendingPathExtension("new"), shapes = result.shapes
            try await BlockingWork.run { () throws in try tt.writeSnapshot(to: snapshot, shapes: shapes) }
            try folder.moveOver(folder.snapshot, from: snapshot)
            for feed in feeds where feed.isURL {
                if let c = candidates[feed.name] { try folder.moveOver(folder.zip(of: feed.name), from: c.source) }
            }
            manifest.feeds = versions.enumerated().map { i, v in
                let kept = manifest.entry(v.feed)
                return .init(version: v, locationKey: feeds[i].locationKey, etag: kept?.etag, lastModified: kept?.lastModified)
            }
            try folder.write(manifest)
        } catch {
            throw SourceError(.unreadable, "cannot keep the new timetable in \(folder.directory.path): \(error.localizedDescription)")
        }
        // What the new version dropped, for IDs people saved (told "no longer scheduled" rather than "no such ID").
        var retired = current?.retired ?? RetiredIDs()
        if let old = current?.timetable, let dropping = versions.first(where: { candidates[$0.feed] != nil }) {
            // On a thread of its own: it reads every trip of both versions (renames are found by their calls and times).
            let before = retired, version = RetiredIDs.version(dropping)
            retired = await BlockingWork.run { before.adding(from: old, to: tt, droppedBy: version) }
            try? folder.replace(folder.retiredURL, with: JSONEncoder().encode(retired))
        }
        let served = ServedTimetable(timetable: tt, shapes: result.shapes, versions: versions, retired: retired)
        current = served
        accepted = served
        for name in candidates.keys { refusals[name] = nil }
        let done = ContinuousClock.now
        // Notice, not info: an operator running at notice (no line per request) still sees each new timetable.
        logger.notice("accepted a new version of the timetable",
                    metadata: ["feeds": .string(candidates.keys.sorted().joined(separator: ", ")),
                               "versions": .string(versions.filter { candidates[$0.feed] != nil }.map(\.shortHash).joined(separator: ", ")),
                               "stops": .stringConvertible(tt.stopCount), "trips": .stringConvertible(tt.tripCount),
                               "import_seconds": .string(Self.seconds(imported - started)),
                               "keep_seconds": .string(Self.seconds(done - imported))])
        return served
    }

    /// The error a refused version fails with, counted and logged once (its poller does not offer it again).
    private func refuse(_ candidates: [String: Candidate], _ reason: String) -> SourceError {
        let names = candidates.keys.sorted()
        let message = "the new version of \(names.joined(separator: ", ")) was refused: \(reason)"
        for name in names {
            health[name]?.refusals += 1
            refusals[name] = message
            try? FileManager.default.removeItem(at: folder.candidate(of: name))
        }
        logger.error("refused a new version of the timetable; the version in service stays",
                     metadata: ["feeds": .string(names.joined(separator: ", ")),
                                "versions": .string(names.compactMap { candidates[$0]?.hash.prefix(12) }.joined(separator: ", ")),
                                "reason": .string(reason)])
        return SourceError(.rejected, message)
    }

    static func seconds(_ d: Duration) -> String { String(format: "%.3f", Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18) }
}
