import Logging
import PostgresNIO
import Storage

/// Texts between servers on one database: PostgreSQL's `NOTIFY` on one channel, heard by `LISTEN`
/// on a connection of each server's own (outside the pool, so a long listen never holds a pooled one).
/// A text is delivered to every listener once its transaction commits; PostgreSQL keeps no texts for
/// a listener that was away, so a listener is told when it (re)connects.
public struct PostgresNotifications: Sendable {
    public static let channel = "onward_live"
    let store: PostgresStore
    let logger: Logger

    public init(store: PostgresStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// Sends `text` (under 8,000 bytes: PostgreSQL's limit) to every listening server, this one included.
    public func send(_ text: String) async throws {
        try await store.access.run("announce a live change", "SELECT pg_notify(\(Self.channel), \(text))")
    }

    /// Calls `heard` with every text sent, until cancelled; with `nil` each time it has (re)connected,
    /// since texts sent while it was away are lost. After a break it connects again, waiting
    /// 0.1 s at first and up to 5 s between attempts.
    public func listen(_ heard: @escaping @Sendable (String?) async -> Void) async {
        var wait = Duration.milliseconds(100)
        while !Task.isCancelled {
            do {
                try await store.withOwnConnection { connection in
                    try await connection.listen(on: Self.channel) { texts in
                        await heard(nil)
                        wait = .milliseconds(100)
                        for try await text in texts { await heard(text.payload) }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("not hearing other servers' live changes; connecting again",
                               metadata: ["database": "\(store.location)", "error": "\(PostgresAccess.reason(error))"])
            }
            if Task.isCancelled { return }
            try? await Task.sleep(for: wait)
            wait = min(wait * 2, .seconds(5))
        }
    }
}
