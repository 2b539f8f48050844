import Foundation
import GRDB
import OnwardCore
import OnwardTesting
import PostgresNIO
import Storage
import StoragePostgres
import StorageSQLite
import Testing
import Trips

/// Migration v8 moves the friendships from their one JSON row (as versions before it kept them) into one
/// row each: in both dialects, nothing lost, each person's read back alone.
@Suite("friendships moved into rows (migration v8)")
struct FriendshipMigrationTests {
    static let before: Friendships = {
        var f = Friendships()
        f.request(from: "ana", to: "ben")
        f.request(from: "ben", to: "ana")  // accepted: friends
        f.request(from: "cy", to: "ana")
        f.request(from: "dee", to: "é☃")
        return f
    }()

    static func check(_ repo: any TripRepository) async throws {
        #expect(try await repo.friendships(of: ["ana", "ben", "cy", "dee", "é☃"]) == before)
        #expect(try await repo.friendships(of: ["ana"]) == before.involving(["ana"]))
        #expect(try await repo.friendships(of: ["ana"]).areFriends("ana", "ben", trips: []))
    }

    @Test("SQLite")
    func sqlite() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try SQLiteStore(directory: folder.path).path
        // The database as version 7 left it: the one JSON row, and v8 not yet applied.
        let pool = try DatabasePool(path: path)
        try await pool.write { db in
            try db.execute(sql: "DROP TABLE friendship")
            try db.execute(sql: "CREATE TABLE friendships (id INTEGER PRIMARY KEY CHECK (id = 1), state BLOB NOT NULL)")
            try db.execute(sql: "INSERT INTO friendships (id, state) VALUES (1, ?)", arguments: [try StoredState.encode(Self.before)])
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v8-friendship-rows'")
        }
        try pool.close()
        let store = try SQLiteStore(directory: folder.path)
        #expect(try store.appliedMigrations() == SQLiteStore.knownMigrations)
        try await Self.check(store.trips)
    }

    @Test("PostgreSQL", .enabled(if: TestPostgres.enabled, TestPostgres.skipped))
    func postgres() async throws {
        let location = try TestPostgres.freshLocation()
        let first = try await PostgresStore.open(location, logger: TestPostgres.logger)
        let state = try StoredState.encode(Self.before)
        try await first.client.query("DROP TABLE friendship")
        try await first.client.query("CREATE TABLE friendships (id integer PRIMARY KEY CHECK (id = 1), state bytea NOT NULL)")
        try await first.client.query("INSERT INTO friendships (id, state) VALUES (1, \(state))")
        try await first.client.query("DELETE FROM onward_migrations WHERE identifier = 'v8-friendship-rows'")
        let store = try await PostgresStore.open(location, logger: TestPostgres.logger)
        #expect(try await store.appliedMigrations() == PostgresStore.knownMigrations)
        try await Self.check(store.trips)
        await store.close()
        await TestPostgres.drop(location, first)
    }
}
