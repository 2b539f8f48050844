import Foundation
import GRDB
import Storage

/// Onward's data in one SQLite file, `onward.sqlite` in the data folder,
/// opened as a WAL-mode pool (readers never wait for the writer).
///
/// Opening runs the migrations, so the schema is current before anything
/// reads it (the server opens its store before it listens). A file that is not
/// SQLite, is damaged, or was written by a newer Onward is refused with a
/// `StorageError` naming the file; nothing is deleted or changed.
public final class SQLiteStore: Sendable {
    /// The database's file name inside the data folder.
    public static let fileName = "onward.sqlite"

    /// The database file.
    public let path: String
    /// The last good realtime feed of each source.
    public let realtimeFeeds: SQLiteRealtimeFeedRepository
    /// The commutes in progress.
    public let commutes: SQLiteCommuteRepository
    /// Accounts, sessions and saved routes.
    public let people: SQLitePeopleRepository
    /// Group trips: members, positions, events, chat, friendships.
    public let trips: SQLiteTripRepository
    /// On-demand upstreams\' answers, shared between servers.
    public let upstreamAnswers: SQLiteUpstreamAnswerRepository
    public let delayHistory: SQLiteDelayHistoryRepository
    /// Journeys people watch.
    public let watches: SQLiteWatchRepository
    public let feedVersions: SQLiteFeedVersionRepository

    private let pool: DatabasePool

    /// Opens (creating when absent) `onward.sqlite` in `directory`, which must exist.
    public convenience init(directory: String) throws(StorageError) {
        try self.init(path: URL(fileURLWithPath: directory).appendingPathComponent(Self.fileName).path)
    }

    /// Opens (creating when absent) the database at `path` and brings its schema up to date.
    public init(path: String) throws(StorageError) {
        self.path = path
        var configuration = Configuration()
        configuration.label = "onward"
        // A write is acknowledged only once it is on disk: WAL's default (NORMAL) syncs at checkpoints
        // only, so a power cut could lose the last commits a person was told were saved.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        do {
            if FileManager.default.fileExists(atPath: path) { try Self.checkReadable(path) }
            pool = try DatabasePool(path: path, configuration: configuration)
            try SQLiteMigrations.migrator.migrate(pool)
        } catch let error as StorageError {
            throw error
        } catch {
            throw Self.openingError(error, path: path)
        }
        let access = SQLiteAccess(pool: pool, path: path)
        realtimeFeeds = SQLiteRealtimeFeedRepository(db: access)
        commutes = SQLiteCommuteRepository(db: access)
        people = SQLitePeopleRepository(db: access)
        trips = SQLiteTripRepository(db: access)
        upstreamAnswers = SQLiteUpstreamAnswerRepository(db: access)
        delayHistory = SQLiteDelayHistoryRepository(db: access)
        watches = SQLiteWatchRepository(db: access)
        feedVersions = SQLiteFeedVersionRepository(db: access)
    }

    /// The migrations this version knows and has applied to the file, in order.
    public func appliedMigrations() throws(StorageError) -> [String] {
        do {
            return try pool.read { db in try SQLiteMigrations.migrator.appliedMigrations(db) }
        } catch {
            throw StorageError(.failed, "\(path): cannot read the applied migrations: \(Self.reason(error))")
        }
    }

    /// Every migration this version of Onward knows, in the order it applies them.
    public static var knownMigrations: [String] { SQLiteMigrations.migrator.migrations }

    /// Refuses an existing file this version cannot use, by reading only. Not
    /// through the pool: opening a pool writes (GRDB makes sure the WAL file is
    /// not empty), and a refused file must stay exactly as it was.
    private static func checkReadable(_ path: String) throws {
        let migrator = SQLiteMigrations.migrator
        // A newer schema is refused: GRDB would otherwise carry on under a schema
        // it does not know, and this version could then damage a newer one's data.
        // Reading the schema is also what fails on a file that is not SQLite.
        let unknown = try DatabaseQueue(path: path).read { db -> [String] in
            guard try migrator.hasBeenSuperseded(db) else { return [] }
            return try migrator.appliedIdentifiers(db).subtracting(migrator.migrations).sorted()
        }
        guard unknown.isEmpty else {
            throw StorageError(.newerSchema, """
                \(path) was written by a newer version of Onward (schema changes this version does not know: \
                \(unknown.joined(separator: ", "))). Run that newer version, or give this one another data folder \
                (--data-dir); the file was left unchanged.
                """)
        }
    }

    private static func openingError(_ error: any Error, path: String) -> StorageError {
        let code = (error as? DatabaseError)?.resultCode
        if code == .SQLITE_NOTADB || code == .SQLITE_CORRUPT {
            return StorageError(.unreadable, """
                \(path) is not an SQLite database or is damaged (\(reason(error))). Onward did not change or delete it. \
                Move it aside (or restore it from a backup) and start again, which creates a new empty database, \
                or give Onward another data folder (--data-dir).
                """)
        }
        return StorageError(.cannotOpen, """
            cannot open the database \(path) (\(reason(error))). Check that the data folder exists and that Onward \
            may read and write it.
            """)
    }

    /// SQLite's own words for a failure, without GRDB's SQL echo.
    static func reason(_ error: any Error) -> String {
        (error as? DatabaseError)?.message ?? String(describing: error)
    }
}
