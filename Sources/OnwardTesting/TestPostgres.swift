import Foundation
import Logging
import PostgresNIO
import Storage
import StoragePostgres
import Testing

/// The PostgreSQL that tests run against: a throwaway cluster (`Scripts/postgres.sh`, started by
/// `Scripts/test.sh` and CI) named by `ONWARD_TEST_POSTGRES_URL`. Without it the PostgreSQL tests
/// are skipped with a message, unless `ONWARD_REQUIRE_POSTGRES=1` (CI), where they fail instead.
public enum TestPostgres {
    public static let urlVariable = "ONWARD_TEST_POSTGRES_URL"

    public static var url: String? { ProcessInfo.processInfo.environment[urlVariable].flatMap { $0.isEmpty ? nil : $0 } }

    /// Whether the PostgreSQL tests run: a cluster is named, or one is required (and its absence is then a failure).
    public static var enabled: Bool { url != nil || ProcessInfo.processInfo.environment["ONWARD_REQUIRE_POSTGRES"] == "1" }

    /// The test cluster's certificate authority (`Scripts/postgres.sh` makes one when openssl is there).
    public static var caFile: String? { ProcessInfo.processInfo.environment["ONWARD_TEST_POSTGRES_CA"].flatMap { $0.isEmpty ? nil : $0 } }

    /// Whether the TLS tests run: the cluster has a certificate authority, or PostgreSQL is required (CI).
    public static var tlsEnabled: Bool { caFile != nil || ProcessInfo.processInfo.environment["ONWARD_REQUIRE_POSTGRES"] == "1" }

    public static let skipped: Comment = "PostgreSQL tests skipped: set ONWARD_TEST_POSTGRES_URL (Scripts/postgres.sh start FOLDER prints one)"

    /// The cluster's location, with a new schema of its own: every check starts on an empty database.
    public static func freshLocation() throws -> PostgresLocation {
        guard let url else { throw StorageError(.cannotOpen, "\(urlVariable) is not set, and ONWARD_REQUIRE_POSTGRES=1 requires PostgreSQL") }
        return try PostgresLocation(url: url).inSchema("t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())
    }

    public static let logger: Logger = {
        var l = Logger(label: "onward.test.postgres")
        l.logLevel = .warning
        return l
    }()

    /// Runs `body` on a store over a new, empty schema, then drops the schema and closes the store.
    public static func withStore<T: Sendable>(_ body: (PostgresStore) async throws -> T) async throws -> T {
        let location = try freshLocation()
        let store = try await PostgresStore.open(location, logger: logger)
        do {
            let answer = try await body(store)
            await drop(location, store)
            return answer
        } catch {
            await drop(location, store)
            throw error
        }
    }

    /// A database URL (for `database_url`) with a new schema of its own, dropped after `body`: for servers built as `onward serve` builds them.
    public static func withDatabaseURL<T: Sendable>(_ body: (String) async throws -> T) async throws -> T {
        let location = try freshLocation()
        guard let url else { throw StorageError(.cannotOpen, "\(urlVariable) is not set") }
        let withSchema = url + (url.contains("?") ? "&" : "?") + "search_path=" + (location.searchPath ?? "")
        let answer: Result<T, any Error>
        do { answer = .success(try await body(withSchema)) } catch { answer = .failure(error) }
        if let store = try? await PostgresStore.open(location, logger: logger) { await drop(location, store) }
        return try answer.get()
    }

    /// Drops a test schema with everything in it, and closes the store.
    public static func drop(_ location: PostgresLocation, _ store: PostgresStore) async {
        if let schema = location.searchPath {
            _ = try? await store.client.query(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \"\(schema)\" CASCADE"))
        }
        await store.close()
    }
}
