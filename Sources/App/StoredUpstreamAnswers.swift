import DataSources
import Logging
import OnwardCore
import Storage
import Synchronization

/// Upstream answers shared through the database (`SharedUpstreamAnswers` over an `UpstreamAnswerRepository`).
/// A storage failure is logged and treated as nothing shared: the server then fetches for itself.
public final class StoredUpstreamAnswers: SharedUpstreamAnswers {
    let repository: any UpstreamAnswerRepository
    let logger: Logger
    let now: @Sendable () -> Instant
    private let stores = Atomic<Int>(0)
    /// Every this many answers stored, those older than a day are forgotten (the table holds one row per
    /// key, so this only sheds keys nobody asks for any more).
    static let sweepEvery = 1_000

    public init(repository: any UpstreamAnswerRepository, logger: Logger, now: @escaping @Sendable () -> Instant = { .now() }) {
        self.repository = repository; self.logger = logger; self.now = now
    }

    public func answer(source: String, key: String) async -> UpstreamCache.Entry? {
        do {
            guard let r = try await repository.answer(source: source, key: key) else { return nil }
            return UpstreamCache.Entry(response: HTTPResponse(status: r.status, headers: r.headers, body: r.body), storedAt: r.fetchedAt)
        } catch {
            logger.warning("an upstream answer could not be read from the database", metadata: ["error": "\(error)"])
            return nil
        }
    }

    public func store(source: String, key: String, _ entry: UpstreamCache.Entry) async {
        let r = entry.response
        do {
            try await repository.save(UpstreamAnswerRecord(source: source, key: key, status: r.status, headers: r.headers, body: r.body,
                                                           fetchedAt: entry.storedAt))
            if stores.add(1, ordering: .relaxed).newValue % Self.sweepEvery == 0 {
                try await repository.removeOlder(than: now().adding(seconds: -86_400))
            }
        } catch {
            logger.warning("an upstream answer could not be kept in the database", metadata: ["error": "\(error)"])
        }
    }

    public func release(source: String, key: String) async {
        do { try await repository.release(source: source, key: key) } catch {
            logger.warning("a fetch claim could not be given up in the database; it runs out by itself", metadata: ["error": "\(error)"])
        }
    }

    public func claim(source: String, key: String, until: Instant) async -> Bool {
        do {
            return try await repository.claim(source: source, key: key, until: until, now: now())
        } catch {
            logger.warning("a fetch could not be claimed in the database; fetching anyway", metadata: ["error": "\(error)"])
            return true
        }
    }
}
