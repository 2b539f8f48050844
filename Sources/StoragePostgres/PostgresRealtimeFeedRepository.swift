import Foundation
import OnwardCore
import PostgresNIO
import Storage

/// The last good realtime feed of each source, in the `realtime_feed` table.
public struct PostgresRealtimeFeedRepository: RealtimeFeedRepository {
    let db: PostgresAccess

    public func save(_ record: RealtimeFeedRecord) async throws {
        try await db.run("save the realtime feed of \(record.source)", """
            INSERT INTO realtime_feed (source, payload, fetched_at, feed_timestamp)
            VALUES (\(record.source), \(record.payload), \(record.fetchedAt.epochSeconds), \(record.feedTimestamp?.epochSeconds))
            ON CONFLICT (source) DO UPDATE SET
                payload = excluded.payload, fetched_at = excluded.fetched_at, feed_timestamp = excluded.feed_timestamp
            """)
    }

    public func record(source: String) async throws -> RealtimeFeedRecord? {
        try await records("read the realtime feed of \(source)", "SELECT source, payload, fetched_at, feed_timestamp FROM realtime_feed WHERE source = \(source)").first
    }

    public func all() async throws -> [RealtimeFeedRecord] {
        try await records("read the saved realtime feeds", "SELECT source, payload, fetched_at, feed_timestamp FROM realtime_feed ORDER BY source")
    }

    public func remove(source: String) async throws {
        try await db.run("remove the realtime feed of \(source)", "DELETE FROM realtime_feed WHERE source = \(source)")
    }

    private func records(_ what: String, _ query: PostgresQuery) async throws -> [RealtimeFeedRecord] {
        try await db.rows(what, query) { row in
            let (source, payload, fetchedAt, feedTimestamp) = try row.decode((String, Data, Int64, Int64?).self)
            return RealtimeFeedRecord(source: source, payload: payload, fetchedAt: Instant(epochSeconds: fetchedAt),
                                      feedTimestamp: feedTimestamp.map(Instant.init(epochSeconds:)))
        }
    }
}
