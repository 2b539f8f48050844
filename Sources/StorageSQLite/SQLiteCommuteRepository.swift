import Foundation
import GRDB
import OnwardCore
import Storage

/// The commutes in progress, in the `commute` table.
public struct SQLiteCommuteRepository: CommuteRepository {
    let db: SQLiteAccess

    // The ID is a secret: operations are named without it, so it never reaches an error message or a log.
    public func save(_ record: CommuteRecord, over previous: Int?) async throws -> Bool {
        try await db.write("save a commute") { db in
            if let previous {
                try db.execute(sql: """
                    UPDATE commute SET state = ?, revision = ?, updated_at = ?, expires_at = ? WHERE id = ? AND revision = ?
                    """, arguments: [record.state, record.revision, record.updatedAt.epochSeconds, record.expiresAt.epochSeconds, record.id, previous])
            } else {
                try db.execute(sql: """
                    INSERT INTO commute (id, state, revision, updated_at, expires_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING
                    """, arguments: [record.id, record.state, record.revision, record.updatedAt.epochSeconds, record.expiresAt.epochSeconds])
            }
            return db.changesCount == 1
        }
    }

    public func record(id: String) async throws -> CommuteRecord? {
        try await db.read("read a commute") { db in
            try Row.fetchOne(db, sql: "SELECT * FROM commute WHERE id = ?", arguments: [id]).map(Self.record)
        }
    }

    public func active(at now: Instant) async throws -> [CommuteRecord] {
        try await db.read("read the commutes in progress") { db in
            try Row.fetchAll(db, sql: "SELECT * FROM commute WHERE expires_at >= ? ORDER BY id", arguments: [now.epochSeconds]).map(Self.record)
        }
    }

    public func remove(id: String) async throws {
        try await db.write("remove a commute") { db in
            try db.execute(sql: "DELETE FROM commute WHERE id = ?", arguments: [id])
        }
    }

    public func removeExpired(before now: Instant) async throws -> Int {
        try await db.write("remove the commutes that ended") { db in
            try db.execute(sql: "DELETE FROM commute WHERE expires_at < ?", arguments: [now.epochSeconds])
            return db.changesCount
        }
    }

    public func pushKey(orStore candidate: String) async throws -> String {
        try await db.write("read the push key") { db in
            try db.execute(sql: "INSERT INTO push_key (id, private_key) VALUES (1, ?) ON CONFLICT (id) DO NOTHING", arguments: [candidate])
            return try String.fetchOne(db, sql: "SELECT private_key FROM push_key WHERE id = 1") ?? candidate
        }
    }

    private static func record(_ row: Row) -> CommuteRecord {
        CommuteRecord(id: row["id"], state: row["state"], revision: row["revision"], updatedAt: Instant(epochSeconds: row["updated_at"]),
                      expiresAt: Instant(epochSeconds: row["expires_at"]))
    }
}
