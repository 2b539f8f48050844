import Foundation
import GRDB
import Storage

/// Watched journeys, in the `watch` table.
public struct SQLiteWatchRepository: WatchRepository {
    let db: SQLiteAccess

    public func save(_ record: WatchRecord) async throws -> Bool {
        try await db.write("save a watched journey") { db in
            try db.execute(sql: """
                INSERT INTO watch (id, owner, state) VALUES (?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET state = excluded.state WHERE watch.owner = excluded.owner
                """, arguments: [record.id, record.owner, record.state])
            return db.changesCount == 1
        }
    }

    public func update(_ records: [WatchRecord]) async throws {
        try await db.write("save what watchers were told") { db in
            let statement = try db.makeStatement(sql: "UPDATE watch SET state = ? WHERE id = ? AND owner = ?")
            for record in records { try statement.execute(arguments: [record.state, record.id, record.owner]) }
        }
    }

    public func watches(owner: String) async throws -> [WatchRecord] {
        try await db.read("read a person's watched journeys") { db in
            try Row.fetchAll(db, sql: "SELECT * FROM watch WHERE owner = ? ORDER BY id", arguments: [owner]).map(Self.record)
        }
    }

    public func all() async throws -> [WatchRecord] {
        try await db.read("read the watched journeys") { db in
            try Row.fetchAll(db, sql: "SELECT * FROM watch ORDER BY id").map(Self.record)
        }
    }

    public func remove(id: String, owner: String) async throws -> Bool {
        try await db.write("remove a watched journey") { db in
            try db.execute(sql: "DELETE FROM watch WHERE id = ? AND owner = ?", arguments: [id, owner])
            return db.changesCount == 1
        }
    }

    private static func record(_ row: Row) -> WatchRecord {
        WatchRecord(id: row["id"], owner: row["owner"], state: row["state"])
    }
}
