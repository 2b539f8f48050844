import Foundation
import GRDB
import OnwardCore
import OnwardTesting
import Storage
import StorageSQLite
import Testing

@Suite("SQLite store")
struct SQLiteStoreTests {
    let record = RealtimeFeedRecord(source: "https://example.org/rt/trip-updates.pb", payload: Data("trip updates".utf8),
                                    fetchedAt: Instant(epochSeconds: 1_762_463_100), feedTimestamp: Instant(epochSeconds: 1_762_463_054))

    @Test("the database is onward.sqlite in the data folder, in WAL mode")
    func fileAndJournal() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try SQLiteStore(directory: folder.path)
        try await store.realtimeFeeds.save(record)
        #expect(store.path == folder.file("onward.sqlite").path)
        let mode = try await DatabaseQueue(path: store.path).read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }

    @Test("reopening keeps the data")
    func reopen() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await SQLiteStore(directory: folder.path).realtimeFeeds.save(record)
        let reopened = try SQLiteStore(directory: folder.path)
        #expect(try await reopened.realtimeFeeds.all() == [record])
    }

    @Test("migrations run once, in order; opening again applies nothing and loses nothing")
    func migrationsAreIdempotent() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = try SQLiteStore(directory: folder.path)
        #expect(SQLiteStore.knownMigrations == ["v1", "v2-commutes", "v3-people", "v4-trips", "v5-trip-people", "v6-push-key", "v7-upstream-answers", "v8-friendship-rows", "v9-sign-in-attempts", "v10-watched-journeys", "v11-feed-versions", "v12-delay-history"])
        #expect(try first.appliedMigrations() == SQLiteStore.knownMigrations)
        try await first.realtimeFeeds.save(record)
        for _ in 0..<3 {
            let again = try SQLiteStore(directory: folder.path)
            #expect(try again.appliedMigrations() == SQLiteStore.knownMigrations)
            #expect(try await again.realtimeFeeds.all() == [record])
        }
        let rows = try await DatabaseQueue(path: first.path).read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(rows == ["v1", "v2-commutes", "v3-people", "v4-trips", "v5-trip-people", "v6-push-key", "v7-upstream-answers", "v8-friendship-rows", "v9-sign-in-attempts", "v10-watched-journeys", "v11-feed-versions", "v12-delay-history"])
    }

    @Test("a file that is not SQLite is refused with a clear error and left as it was")
    func garbageFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("onward.sqlite")
        let garbage = Data(String(repeating: "these are not the bytes of an SQLite database. ", count: 200).utf8)
        try garbage.write(to: file)
        try expectRefused(folder, .unreadable, saying: ["not an SQLite database or is damaged", "Move it aside"])
    }

    @Test("a damaged SQLite file is refused with a clear error and left as it was")
    func damagedFile() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("onward.sqlite")
        do { try await SQLiteStore(directory: folder.path).realtimeFeeds.save(record) }
        // Keep SQLite's 100-byte header (so it still looks like SQLite) and wreck the schema page after it.
        var bytes = try Data(contentsOf: file)
        try #require(bytes.count > 4096)
        bytes.replaceSubrange(100..<4096, with: Data(repeating: 0xA5, count: 3996))
        try bytes.write(to: file)
        try expectRefused(folder, .unreadable, saying: ["not an SQLite database or is damaged"])
    }

    @Test("a database written by a newer Onward is refused and left as it was")
    func newerSchema() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("onward.sqlite")
        do { try await SQLiteStore(directory: folder.path).realtimeFeeds.save(record) }
        // What a later version would have done: applied a migration this one has never heard of.
        do {
            let queue = try DatabaseQueue(path: file.path)
            try await queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v2-from-the-future')") }
            // Into the main file, so the comparison below sees every byte there is.
            try await queue.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        }
        try expectRefused(folder, .newerSchema, saying: ["newer version of Onward", "v2-from-the-future"])
        // Still whole: the newer version can carry on with it.
        let kept = try await DatabaseQueue(path: file.path).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM realtime_feed") }
        #expect(kept == 1)
    }

    /// Opening the folder's database must fail with `code`, in a message naming
    /// the file and saying each of `phrases`, and leave every byte of the file as it was.
    func expectRefused(_ folder: TemporaryFolder, _ code: StorageError.Code, saying phrases: [String]) throws {
        let file = folder.file("onward.sqlite")
        let before = try Data(contentsOf: file)
        let error = try #require(throws: StorageError.self) { try SQLiteStore(directory: folder.path) }
        #expect(error.code == code)
        for phrase in [file.path] + phrases { #expect(error.message.contains(phrase), "\(error.message)") }
        #expect(try Data(contentsOf: file) == before)
    }

    @Test("a data folder that does not exist is an error naming the file")
    func missingFolder() throws {
        let path = "/nonexistent-onward-folder-\(UUID().uuidString)"
        let error = try #require(throws: StorageError.self) { try SQLiteStore(directory: path) }
        #expect(error.code == .cannotOpen)
        #expect(error.message.contains(path + "/onward.sqlite"), "\(error.message)")
    }
}
