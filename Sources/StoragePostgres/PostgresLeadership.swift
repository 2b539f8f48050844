import Logging
import PostgresNIO
import Storage

/// One server at a time does a job (polls an upstream): the one holding a session-level advisory lock
/// named for the job, on a connection of its own. When that server dies or loses the database, its
/// connection ends, PostgreSQL releases the lock, and a waiting server takes it within `retry`.
public struct PostgresLeadership: Sendable {
    let store: PostgresStore
    let logger: Logger
    /// How often a waiting server tries the lock, and the leader checks it still has its connection.
    public var retry: Duration

    public init(store: PostgresStore, logger: Logger, retry: Duration = .seconds(2)) {
        self.store = store
        self.logger = logger
        self.retry = retry
    }

    /// Runs `lead` while this server holds the lock for `job`, and waits while another does; until
    /// cancelled. `lead` is cancelled when the lock is lost (and runs again when it is won again).
    public func whileLeading(_ job: String, _ lead: @escaping @Sendable () async -> Void) async {
        while !Task.isCancelled {
            do {
                // Closing the connection after releases the lock.
                try await store.withOwnConnection { connection in try await hold(job, on: connection, lead) }
            } catch {
                if Task.isCancelled { return }
                logger.warning("lost the database while leading or waiting to lead; connecting again",
                               metadata: ["job": "\(job)", "error": "\(PostgresAccess.reason(error))"])
            }
            try? await Task.sleep(for: retry)
        }
    }

    /// Runs `work` once, while this server holds the lock for `job` (waiting while another does), then lets it go.
    public func exclusively<T: Sendable>(_ job: String, _ work: @escaping @Sendable () async -> T) async throws -> T {
        try await store.withOwnConnection { connection in
            while try await !tryLock(job, connection) {
                try await Task.sleep(for: retry)
            }
            // Closing the connection after releases the lock.
            return await work()
        }
    }

    private func hold(_ job: String, on connection: PostgresConnection, _ lead: @escaping @Sendable () async -> Void) async throws {
        // Wait for the lock, trying every `retry`.
        while try await !tryLock(job, connection) {
            try await Task.sleep(for: retry)
        }
        logger.info("this server now leads", metadata: ["job": "\(job)"])
        // Lead until the connection (and with it the lock) is lost, or until cancelled.
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await lead() }
            group.addTask {
                while true {
                    try await Task.sleep(for: retry)
                    _ = try await connection.query("SELECT 1", logger: logger).get()
                }
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    private func tryLock(_ job: String, _ connection: PostgresConnection) async throws -> Bool {
        // Advisory locks are the whole database's: the schema is in the name, so two deployments in one database do not share leaders.
        let name = (store.location.searchPath ?? "") + " " + job
        let rows = try await connection.query("SELECT pg_try_advisory_lock(\(AdvisoryLock.leader), hashtext(\(name)))", logger: logger).get()
        return try rows.rows.first?.decode(Bool.self) ?? false
    }
}
