import Foundation
import GRDB
import OnwardCore
import Storage

/// The accepted version of each static feed, in the `feed_version` table (one server on SQLite
/// keeps its feeds in its data folder; the table is here so every driver keeps one contract).
public struct SQLiteFeedVersionRepository: FeedVersionRepository {
    let db: SQLiteAccess

    public func save(_ record: FeedVersionRecord) async throws {
        try await db.write("save the version of the feed \(record.feed)") { db in
            try db.execute(sql: """
                INSERT INTO feed_version (feed, hash, fetched_at, etag, last_modified, payload) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (feed) DO UPDATE SET hash = excluded.hash, fetched_at = excluded.fetched_at, etag = excluded.etag,
                    last_modified = excluded.last_modified, payload = excluded.payload
                """, arguments: [record.feed, record.hash, record.fetchedAt.epochSeconds, record.etag, record.lastModified, record.payload])
        }
    }

    public func heads() async throws -> [FeedVersionHead] {
        try await db.read("read the feed versions") { db in
            try Row.fetchAll(db, sql: "SELECT feed, hash, fetched_at, etag, last_modified FROM feed_version ORDER BY feed").map { row in
                FeedVersionHead(feed: row["feed"], hash: row["hash"], fetchedAt: Instant(epochSeconds: row["fetched_at"]), etag: row["etag"],
                                lastModified: row["last_modified"])
            }
        }
    }

    public func record(feed: String) async throws -> FeedVersionRecord? {
        try await db.read("read the version of the feed \(feed)") { db in
            try Row.fetchOne(db, sql: "SELECT * FROM feed_version WHERE feed = ?", arguments: [feed]).map { row in
                FeedVersionRecord(feed: row["feed"], hash: row["hash"], fetchedAt: Instant(epochSeconds: row["fetched_at"]), etag: row["etag"],
                                  lastModified: row["last_modified"], payload: row["payload"])
            }
        }
    }
}
