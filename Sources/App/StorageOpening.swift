import Foundation
import Logging
import Storage
import StoragePostgres
import StorageSQLite

/// Where the server keeps what people save: SQLite in the data folder by default (one server), or
/// PostgreSQL when `database_url` names one (several servers on one database). Either way the
/// schema is current before anything reads it.
public struct OpenedStorage: Sendable {
    public var realtimeFeeds: any RealtimeFeedRepository
    public var commutes: any CommuteRepository
    public var people: any PeopleRepository
    public var trips: any TripRepository
    public var watches: any WatchRepository
    public var delayHistory: any DelayHistoryRepository
    /// The PostgreSQL store, when that is the driver: what servers share live updates and leader locks through.
    public var postgres: PostgresStore?
    /// The database as the start-up log names it (never a password).
    public var description: String

    /// Opens the configured database and brings its schema up to date (the data folder must exist: the server makes it).
    public static func open(_ config: ServeConfiguration, logger: Logger) async throws -> OpenedStorage {
        if let url = config.databaseURL {
            let store = try await PostgresStore.open(try PostgresLocation(url: url), logger: logger)
            return OpenedStorage(realtimeFeeds: store.realtimeFeeds, commutes: store.commutes, people: store.people, trips: store.trips, watches: store.watches,
                                 delayHistory: store.delayHistory, postgres: store, description: store.location.description)
        }
        let store = try SQLiteStore(directory: config.dataDir)
        return OpenedStorage(realtimeFeeds: store.realtimeFeeds, commutes: store.commutes, people: store.people, trips: store.trips, watches: store.watches,
                             delayHistory: store.delayHistory, postgres: nil, description: store.path)
    }

    /// Closes a PostgreSQL pool (SQLite closes with the process).
    public func close() async { await postgres?.close() }
}
