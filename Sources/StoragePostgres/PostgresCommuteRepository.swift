import Foundation
import OnwardCore
import PostgresNIO
import Storage

/// The commutes in progress, in the `commute` table.
public struct PostgresCommuteRepository: CommuteRepository {
    let db: PostgresAccess

    // The ID is a secret: operations are named without it, so it never reaches an error message or a log.
    public func save(_ record: CommuteRecord, over previous: Int?) async throws -> Bool {
        // An update that waits on a racing server's commit checks the revision again on the row it committed,
        // and an insert that meets a committed row does nothing: either way one writer of a revision wins.
        guard let previous else {
            return try await !db.rows("save a commute", """
                INSERT INTO commute (id, state, revision, updated_at, expires_at)
                VALUES (\(record.id), \(record.state), \(record.revision), \(record.updatedAt.epochSeconds), \(record.expiresAt.epochSeconds))
                ON CONFLICT (id) DO NOTHING RETURNING 1
                """).isEmpty
        }
        return try await !db.rows("save a commute", """
            UPDATE commute SET state = \(record.state), revision = \(record.revision), updated_at = \(record.updatedAt.epochSeconds),
                expires_at = \(record.expiresAt.epochSeconds)
            WHERE id = \(record.id) AND revision = \(previous) RETURNING 1
            """).isEmpty
    }

    public func record(id: String) async throws -> CommuteRecord? {
        try await records("read a commute", "SELECT id, state, revision, updated_at, expires_at FROM commute WHERE id = \(id)").first
    }

    public func active(at now: Instant) async throws -> [CommuteRecord] {
        try await records("read the commutes in progress", """
            SELECT id, state, revision, updated_at, expires_at FROM commute WHERE expires_at >= \(now.epochSeconds) ORDER BY id
            """)
    }

    public func remove(id: String) async throws {
        try await db.run("remove a commute", "DELETE FROM commute WHERE id = \(id)")
    }

    public func removeExpired(before now: Instant) async throws -> Int {
        try await db.rows("remove the commutes that ended", "DELETE FROM commute WHERE expires_at < \(now.epochSeconds) RETURNING 1").count
    }

    public func pushKey(orStore candidate: String) async throws -> String {
        // Two statements, not one: an insert that waits for a racing server's commit does nothing, and
        // only a statement begun after it sees the winner's row.
        try await db.run("store the push key", "INSERT INTO push_key (id, private_key) VALUES (1, \(candidate)) ON CONFLICT (id) DO NOTHING")
        let keys = try await db.rows("read the push key", "SELECT private_key FROM push_key WHERE id = 1") { row in try row.decode(String.self) }
        guard let key = keys.first else { throw StorageError(.failed, "\(db.place): the push key was stored and then not found") }
        return key
    }

    private func records(_ what: String, _ query: PostgresQuery) async throws -> [CommuteRecord] {
        try await db.rows(what, query) { row in
            let (id, state, revision, updatedAt, expiresAt) = try row.decode((String, Data, Int, Int64, Int64).self)
            return CommuteRecord(id: id, state: state, revision: revision, updatedAt: Instant(epochSeconds: updatedAt),
                                 expiresAt: Instant(epochSeconds: expiresAt))
        }
    }
}
