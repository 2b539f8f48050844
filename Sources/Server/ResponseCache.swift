import Hummingbird
import Synchronization

/// Answers computed this second from this version of the state, by request.
/// Many phones watch the same busy board: they get the same bytes without the
/// board being computed and encoded again. An answer depends only on the
/// request, the state version and the current second, so a hit is exactly what
/// a fresh computation would give; the table empties when either moves on.
final class ResponseCache: Sendable {
    private struct Table {
        var version = -1
        var second: Int64 = -1
        var answers: [String: ByteBuffer] = [:]
    }

    private let table = Mutex(Table())
    /// Distinct requests kept per second, so odd queries cannot grow it without bound.
    let capacity: Int

    init(capacity: Int = 1_000) { self.capacity = capacity }

    /// The answer kept for `key`, if it was computed this second from this version. Routes ask
    /// before they read the request's parameters: a kept answer was computed from the same
    /// request, so its parameters were good, and reading them again was most of a hit's time.
    func cached(_ key: String, version: Int, second: Int64) -> ByteBuffer? {
        table.withLock { t -> ByteBuffer? in
            guard t.version == version, t.second == second else { return nil }
            return t.answers[key]
        }
    }

    func answer(for key: String, version: Int, second: Int64, compute: () async throws -> ByteBuffer) async rethrows -> ByteBuffer {
        if let hit = cached(key, version: version, second: second) { return hit }
        let fresh = try await compute()
        keep(fresh, for: key, version: version, second: second)
        return fresh
    }

    /// Keeps an answer computed this second from this version (the table starts afresh when either moved on).
    func keep(_ answer: ByteBuffer, for key: String, version: Int, second: Int64) {
        table.withLock { t in
            if t.version != version || t.second != second { t = Table(version: version, second: second) }
            if t.answers.count < capacity { t.answers[key] = answer }
        }
    }
}
