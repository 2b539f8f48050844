import Foundation
import OnwardCore
import OnwardTesting
import PostgresNIO
import Storage
import StoragePostgres
import StorageSQLite
import Testing

@Suite("PostgreSQL store")
struct PostgresStoreTests {
    let record = RealtimeFeedRecord(source: "https://example.org/rt/trip-updates.pb", payload: Data("trip updates".utf8),
                                    fetchedAt: Instant(epochSeconds: 1_762_463_100), feedTimestamp: Instant(epochSeconds: 1_762_463_054))

    @Test("the migrations are SQLite's steps, applied once in order; opening again applies nothing and loses nothing",
          .enabled(if: TestPostgres.enabled, TestPostgres.skipped))
    func migrations() async throws {
        #expect(PostgresStore.knownMigrations == SQLiteStore.knownMigrations)
        let location = try TestPostgres.freshLocation()
        let first = try await PostgresStore.open(location, logger: TestPostgres.logger)
        #expect(try await first.appliedMigrations() == PostgresStore.knownMigrations)
        try await first.realtimeFeeds.save(record)
        for _ in 0..<2 {
            let again = try await PostgresStore.open(location, logger: TestPostgres.logger)
            #expect(try await again.appliedMigrations() == PostgresStore.knownMigrations)
            #expect(try await again.realtimeFeeds.all() == [record])
            await again.close()
        }
        await TestPostgres.drop(location, first)
    }

    @Test("servers starting at once on an empty database take turns: each opens, the schema is made once",
          .enabled(if: TestPostgres.enabled, TestPostgres.skipped))
    func startingTogether() async throws {
        let location = try TestPostgres.freshLocation()
        let stores = try await withThrowingTaskGroup(of: PostgresStore.self) { group in
            for _ in 0..<4 { group.addTask { try await PostgresStore.open(location, logger: TestPostgres.logger) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(stores.count == 4)
        for store in stores { #expect(try await store.appliedMigrations() == PostgresStore.knownMigrations) }
        for store in stores.dropFirst() { await store.close() }
        await TestPostgres.drop(location, stores[0])
    }

    @Test("a database written by a newer Onward is refused and left as it was", .enabled(if: TestPostgres.enabled, TestPostgres.skipped))
    func newerSchema() async throws {
        let location = try TestPostgres.freshLocation()
        let store = try await PostgresStore.open(location, logger: TestPostgres.logger)
        try await store.realtimeFeeds.save(record)
        try await store.client.query("INSERT INTO onward_migrations (identifier, applied_order) VALUES ('v99-future', 99)")
        do {
            _ = try await PostgresStore.open(location, logger: TestPostgres.logger)
            Issue.record("a newer schema was opened")
        } catch {
            #expect(error.code == .newerSchema)
            #expect(error.message.contains("v99-future") && error.message.contains("left unchanged"))
        }
        #expect(try await store.appliedMigrations() == PostgresStore.knownMigrations + ["v99-future"])
        #expect(try await store.realtimeFeeds.all() == [record])
        await TestPostgres.drop(location, store)
    }

    @Test("a database that does not answer is a clear error at once, naming it without its password")
    func unreachable() async throws {
        // Port 1 on loopback: nothing listens, so the connection is refused.
        let location = try PostgresLocation(url: "postgres://onward:s3cret-pw@127.0.0.1:1/onward?sslmode=disable")
        do {
            _ = try await PostgresStore.open(location, logger: TestPostgres.logger)
            Issue.record("opened a database that is not there")
        } catch {
            #expect(error.code == .cannotOpen)
            #expect(error.message.contains("postgres://onward@127.0.0.1:1/onward"))
            #expect(!error.message.contains("s3cret-pw"))
            // Refused at once, not a timeout's wait: the message is the connection's own refusal.
            #expect(error.message.contains("onnection refused"))
        }
    }

    @Test("a database that is not on the server is a clear error", .enabled(if: TestPostgres.enabled, TestPostgres.skipped))
    func missingDatabase() async throws {
        var location = try TestPostgres.freshLocation()
        location.database = "no_such_database"
        await #expect {
            _ = try await PostgresStore.open(location, logger: TestPostgres.logger)
        } throws: { error in
            let message = (error as? StorageError)?.message ?? ""
            return (error as? StorageError)?.code == .cannotOpen && message.contains("\"no_such_database\" does not exist")
        }
    }

    @Test("database URLs: what each part means, and errors that say what is wrong without the password")
    func urls() throws {
        let full = try PostgresLocation(url: "postgresql://ana:p%40ss@db.example:6543/city?sslmode=require&pool_max=40&search_path=onward")
        #expect(full.host == "db.example" && full.port == 6543 && full.user == "ana" && full.database == "city")
        #expect(full.tls == .require && full.poolMax == 40 && full.searchPath == "onward")
        #expect(full.description == "postgres://ana@db.example:6543/city (schema onward)")
        #expect(!String(describing: full).contains("p@ss") && !String(reflecting: full).contains("p%40ss"))
        let plain = try PostgresLocation(url: "postgres://localhost/onward")
        #expect(plain.port == 5432 && plain.user == "postgres" && plain.tls == .prefer && plain.poolMax == 20 && plain.searchPath == nil)
        let socket = try PostgresLocation(url: "postgres://onward@/onward?host=/run/postgresql")
        #expect(socket.socketFolder == "/run/postgresql" && socket.description == "postgres://onward@/run/postgresql/.s.PGSQL.5432/onward")
        let wrong: [(String, String)] = [
            ("mysql://ana:pw@db/x", "must start with postgres://"),
            ("postgres://ana:pw@db/x?sslmode=maybe", "sslmode \"maybe\""),
            ("postgres://ana:pw@db/x?pool_max=0", "pool_max \"0\""),
            ("postgres://ana:pw@db/x?search_path=a;drop", "search_path"),
            ("postgres://ana:pw@db/x?host=db2", "Unix socket folder"),
            ("postgres://ana:pw@db/x?password=pw", "unknown parameter \"password\""),
        ]
        for (url, saying) in wrong {
            #expect {
                _ = try PostgresLocation(url: url)
            } throws: { error in
                let message = (error as? StorageError)?.message ?? ""
                return message.contains(saying) && !message.contains(":pw@")
            }
        }
    }
}
