import Foundation
import Logging
import PostgresNIO
import Storage

/// Onward's data in PostgreSQL, for several servers on one database (SQLite in the data folder is
/// the default for one). One pool of connections for every repository.
///
/// Opening runs the migrations, so the schema is current before anything reads it (the server
/// opens its store before it listens). Servers starting together take turns (an advisory lock);
/// a database written by a newer Onward is refused with a `StorageError` and left unchanged.
public final class PostgresStore: Sendable {
    public let location: PostgresLocation
    /// The last good realtime feed of each source.
    public let realtimeFeeds: PostgresRealtimeFeedRepository
    /// The commutes in progress.
    public let commutes: PostgresCommuteRepository
    /// Accounts, sessions and saved routes.
    public let people: PostgresPeopleRepository
    /// Group trips: members, positions, events, chat, friendships.
    public let trips: PostgresTripRepository
    /// On-demand upstreams\' answers, shared between servers.
    public let upstreamAnswers: PostgresUpstreamAnswerRepository
    public let delayHistory: PostgresDelayHistoryRepository
    /// Journeys people watch.
    public let watches: PostgresWatchRepository
    public let feedVersions: PostgresFeedVersionRepository

    /// The pool, for what else needs the database (notifications, leader locks).
    public let client: PostgresClient
    let access: PostgresAccess
    private let running: Task<Void, Never>

    /// Connects, brings the schema up to date, and returns the store; the pool runs until `close()`.
    public static func open(_ location: PostgresLocation, logger: Logger) async throws(StorageError) -> PostgresStore {
        let store = PostgresStore(location: location, configuration: try location.clientConfiguration(), logger: logger)
        do {
            try await store.checkConnects(logger)
            try await store.migrate()
        } catch {
            await store.close()
            throw error
        }
        return store
    }

    private init(location: PostgresLocation, configuration: PostgresClient.Configuration, logger: Logger) {
        self.location = location
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let client = client
        running = Task { await client.run() }
        access = PostgresAccess(client: client, place: location.description, logger: logger)
        realtimeFeeds = PostgresRealtimeFeedRepository(db: access)
        commutes = PostgresCommuteRepository(db: access)
        people = PostgresPeopleRepository(db: access)
        trips = PostgresTripRepository(db: access)
        upstreamAnswers = PostgresUpstreamAnswerRepository(db: access)
        delayHistory = PostgresDelayHistoryRepository(db: access)
        watches = PostgresWatchRepository(db: access)
        feedVersions = PostgresFeedVersionRepository(db: access)
    }

    /// Stops the pool (its connections close); the store answers nothing afterwards.
    public func close() async {
        running.cancel()
        await running.value
    }

    /// Every migration this version of Onward knows, in order: the same steps as SQLite's.
    public static var knownMigrations: [String] { PostgresMigrations.identifiers }

    /// The migrations applied to the database, in the order they were applied.
    public func appliedMigrations() async throws(StorageError) -> [String] {
        try await access.rows("read the applied migrations", "SELECT identifier FROM onward_migrations ORDER BY applied_order")
            .map { row throws(StorageError) in try decoded(String.self, row) }
    }

    /// Runs `body` on a connection of its own, outside the pool (for a long LISTEN, or a lock held as long as
    /// the connection lives), and closes it after, whether `body` returned or threw.
    public func withOwnConnection<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let connection = try await PostgresConnection.connect(configuration: try location.connectionConfiguration(), id: 1, logger: access.logger)
        let answer: Result<T, any Error>
        do { answer = .success(try await body(connection)) } catch { answer = .failure(error) }
        try? await connection.close()
        return try answer.get()
    }

    /// A first connection, outside the pool (which retries quietly), so a database that is not there
    /// or refuses Onward says so at once instead of when someone signs in.
    private func checkConnects(_ logger: Logger) async throws(StorageError) {
        do {
            let connection = try await PostgresConnection.connect(configuration: try location.connectionConfiguration(), id: 0, logger: logger)
            try await connection.close()
        } catch {
            let reason = PostgresAccess.reason(error)
            if reason.contains("CERTIFICATE_VERIFY_FAILED") {
                throw StorageError(.cannotOpen, """
                    cannot open the database \(location): its TLS certificate is not trusted (\(location.tls.rawValue) checks it). Name \
                    the authority that signed it with sslrootcert=/path/to/ca.pem in database_url, or use sslmode=require to \
                    encrypt without checking.
                    """)
            }
            throw StorageError(.cannotOpen, """
                cannot open the database \(location) (\(reason)). Check database_url, and that PostgreSQL \
                is running and reachable.
                """)
        }
    }

    /// Applies the steps this database has not had, each recorded with it, all in one transaction under a lock.
    private func migrate() async throws(StorageError) {
        let known = PostgresMigrations.steps
        let schema = location.searchPath
        try await access.transaction("bring the schema up to date") { tx in
            // Two servers starting at once: the second waits here, then finds nothing left to do.
            try await tx.run("SELECT pg_advisory_xact_lock(\(AdvisoryLock.migrations))")
            if let schema {
                // The name is checked (letters, digits, _) by PostgresLocation; identifiers cannot be bound.
                try await tx.run(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \"\(schema)\""))
            }
            try await tx.run("""
                CREATE TABLE IF NOT EXISTS onward_migrations (
                    identifier text PRIMARY KEY, applied_order integer NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
                """)
            let applied = try await tx.rows("SELECT identifier FROM onward_migrations").map { try $0.decode(String.self) }
            let unknown = Set(applied).subtracting(known.map(\.identifier)).sorted()
            guard unknown.isEmpty else {
                throw StorageError(.newerSchema, """
                    \(location) was written by a newer version of Onward (schema changes this version does not know: \
                    \(unknown.joined(separator: ", "))). Run that newer version, or give this one another database; \
                    the database was left unchanged.
                    """)
            }
            for (order, step) in known.enumerated() where !applied.contains(step.identifier) {
                for sql in step.sql { try await tx.run(PostgresQuery(unsafeSQL: sql)) }
                try await tx.run("INSERT INTO onward_migrations (identifier, applied_order) VALUES (\(step.identifier), \(order + 1))")
            }
        }
    }
}

/// The advisory lock keys Onward takes (64-bit, so they do not collide with another application's by chance).
enum AdvisoryLock {
    /// Held while the schema is brought up to date.
    static let migrations: Int64 = 0x4F6E_7761_7264_0001
    /// With a conversation's hash: numbers its messages one post at a time.
    static let chat: Int32 = 0x4F6E_0002
    /// With a job's hash: held by the server that does the job (`PostgresLeadership`).
    static let leader: Int32 = 0x4F6E_0003
    /// With a person's hash: one change to their friendships at a time.
    static let friendships: Int32 = 0x4F6E_0004
}

/// One column of a row, or a `StorageError` saying the database answered in a shape this version does not read.
func decoded<T: PostgresDecodable>(_ type: T.Type, _ row: PostgresRow) throws(StorageError) -> T {
    do { return try row.decode(T.self) } catch { throw StorageError(.failed, "the database answered a \(T.self) this version cannot read (\(error))") }
}
