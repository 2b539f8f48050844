import Foundation
import GRDB
import OnwardCore
import Storage

/// The last good realtime feed of each source, in the `realtime_feed` table.
public struct SQLiteRealtimeFeedRepository: RealtimeFeedRepository {
    let db: SQLiteAccess

    public func save(_ record: RealtimeFeedRecord) async throws {
        try await db.write("save the realtime feed of \(record.source)") { db in
            try db.execute(sql: """
                INSERT INTO realtime_feed (source, payload, fetched_at, feed_timestamp) VALUES (?, ?, ?, ?)
                ON CONFLICT (source) DO UPDATE SET
                    payload = excluded.payload, fetched_at = excluded.fetched_at, feed_timestamp = excluded.feed_timestamp
                """, arguments: [record.source, record.payload, record.fetchedAt.epochSeconds, record.feedTimestamp?.epochSeconds])
        }
    }

    public func record(source: String) async throws -> RealtimeFeedRecord? {
        try await db.read("read the realtime feed of \(source)") { db in
            try Row.fetchOne(db, sql: "SELECT * FROM realtime_feed WHERE source = ?", arguments: [source]).map(Self.record)
        }
    }

    public func all() async throws -> [RealtimeFeedRecord] {
        try await db.read("read the saved realtime feeds") { db in
            try Row.fetchAll(db, sql: "SELECT * FROM realtime_feed ORDER BY source").map(Self.record)
        }
    }

    public func remove(source: String) async throws {
        try await db.write("remove the realtime feed of \(source)") { db in
            try db.execute(sql: "DELETE FROM realtime_feed WHERE source = ?", arguments: [source])
        }
    }

    private static func record(_ row: Row) -> RealtimeFeedRecord {
        let feedTimestamp: Int64? = row["feed_timestamp"]
        return RealtimeFeedRecord(source: row["source"], payload: row["payload"], fetchedAt: Instant(epochSeconds: row["fetched_at"]),
                                  feedTimestamp: feedTimestamp.map(Instant.init(epochSeconds:)))
    }
}
