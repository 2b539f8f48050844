import Foundation
import OnwardCore
import PostgresNIO
import Storage

/// The accepted version of each static feed, in the `feed_version` table.
public struct PostgresFeedVersionRepository: FeedVersionRepository {
    let db: PostgresAccess

    public func save(_ record: FeedVersionRecord) async throws {
        try await db.run("save the version of the feed \(record.feed)", """
            INSERT INTO feed_version (feed, hash, fetched_at, etag, last_modified, payload)
            VALUES (\(record.feed), \(record.hash), \(record.fetchedAt.epochSeconds), \(record.etag), \(record.lastModified), \(record.payload))
            ON CONFLICT (feed) DO UPDATE SET hash = excluded.hash, fetched_at = excluded.fetched_at, etag = excluded.etag,
                last_modified = excluded.last_modified, payload = excluded.payload
            """)
    }

    public func heads() async throws -> [FeedVersionHead] {
        try await db.rows("read the feed versions", "SELECT feed, hash, fetched_at, etag, last_modified FROM feed_version ORDER BY feed") { row in
            let (feed, hash, fetchedAt, etag, lastModified) = try row.decode((String, String, Int64, String?, String?).self)
            return FeedVersionHead(feed: feed, hash: hash, fetchedAt: Instant(epochSeconds: fetchedAt), etag: etag, lastModified: lastModified)
        }
    }

    public func record(feed: String) async throws -> FeedVersionRecord? {
        try await db.rows("read the version of the feed \(feed)",
                          "SELECT feed, hash, fetched_at, etag, last_modified, payload FROM feed_version WHERE feed = \(feed)") { row in
            let (feed, hash, fetchedAt, etag, lastModified, payload) = try row.decode((String, String, Int64, String?, String?, Data).self)
            return FeedVersionRecord(feed: feed, hash: hash, fetchedAt: Instant(epochSeconds: fetchedAt), etag: etag, lastModified: lastModified,
                                     payload: payload)
        }.first
    }
}
