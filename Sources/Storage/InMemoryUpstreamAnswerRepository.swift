import OnwardCore
import Synchronization

/// Upstream answers kept in memory: for tests (one process standing for several servers).
public final class InMemoryUpstreamAnswerRepository: UpstreamAnswerRepository {
    private struct Key: Hashable { var source: String; var key: String }
    private let answers = Mutex<[Key: UpstreamAnswerRecord]>([:])
    private let claims = Mutex<[Key: Instant]>([:])

    public init() {}

    public func answer(source: String, key: String) async throws -> UpstreamAnswerRecord? {
        answers.withLock { $0[Key(source: source, key: key)] }
    }

    public func save(_ record: UpstreamAnswerRecord) async throws {
        let k = Key(source: record.source, key: record.key)
        answers.withLock { a in
            if let kept = a[k], kept.fetchedAt > record.fetchedAt { return }
            a[k] = record
        }
        _ = claims.withLock { $0.removeValue(forKey: k) }
    }

    public func claim(source: String, key: String, until: Instant, now: Instant) async throws -> Bool {
        claims.withLock { c in
            let k = Key(source: source, key: key)
            if let held = c[k], held >= now { return false }
            c[k] = until
            return true
        }
    }

    public func release(source: String, key: String) async throws {
        _ = claims.withLock { $0.removeValue(forKey: Key(source: source, key: key)) }
    }

    public func removeOlder(than before: Instant) async throws -> Int {
        claims.withLock { c in c = c.filter { $0.value >= before } }
        return answers.withLock { a in
            let old = a.filter { $0.value.fetchedAt < before }.map(\.key)
            for k in old { a.removeValue(forKey: k) }
            return old.count
        }
    }
}
