import Foundation
import OnwardCore
import PostgresNIO
import Storage

/// On-demand upstreams' answers and fetch claims, in the `upstream_answer` and `upstream_claim` tables.
public struct PostgresUpstreamAnswerRepository: UpstreamAnswerRepository {
    let db: PostgresAccess

    public func answer(source: String, key: String) async throws -> UpstreamAnswerRecord? {
        try await db.rows("read an answer of \(source)", """
            SELECT status, headers, body, fetched_at FROM upstream_answer WHERE source = \(source) AND key = \(key)
            """) { row in
            let (status, headers, body, fetchedAt) = try row.decode((Int, String, Data, Int64).self)
            return UpstreamAnswerRecord(source: source, key: key, status: status, headers: UpstreamAnswerHeaders.decode(headers),
                                        body: body, fetchedAt: Instant(epochSeconds: fetchedAt))
        }.first
    }

    public func save(_ record: UpstreamAnswerRecord) async throws {
        try await db.run("save an answer of \(record.source)", """
            INSERT INTO upstream_answer (source, key, status, headers, body, fetched_at)
            VALUES (\(record.source), \(record.key), \(record.status), \(UpstreamAnswerHeaders.encode(record.headers)), \(record.body),
                    \(record.fetchedAt.epochSeconds))
            ON CONFLICT (source, key) DO UPDATE SET status = excluded.status, headers = excluded.headers, body = excluded.body,
                fetched_at = excluded.fetched_at
            WHERE excluded.fetched_at >= upstream_answer.fetched_at
            """)
        try await db.run("end a claim of \(record.source)", "DELETE FROM upstream_claim WHERE source = \(record.source) AND key = \(record.key)")
    }

    public func claim(source: String, key: String, until: Instant, now: Instant) async throws -> Bool {
        // One statement: an insert that meets a row takes it over only when that claim has run out, and
        // a racing insert waits for the first one's commit and then checks its row again.
        try await !db.rows("claim a fetch of \(source)", """
            INSERT INTO upstream_claim (source, key, until) VALUES (\(source), \(key), \(until.epochSeconds))
            ON CONFLICT (source, key) DO UPDATE SET until = excluded.until WHERE upstream_claim.until < \(now.epochSeconds)
            RETURNING 1
            """).isEmpty
    }

    public func release(source: String, key: String) async throws {
        try await db.run("end a claim of \(source)", "DELETE FROM upstream_claim WHERE source = \(source) AND key = \(key)")
    }

    public func removeOlder(than before: Instant) async throws -> Int {
        try await db.run("forget old fetch claims", "DELETE FROM upstream_claim WHERE until < \(before.epochSeconds)")
        return try await db.rows("forget old upstream answers", "DELETE FROM upstream_answer WHERE fetched_at < \(before.epochSeconds) RETURNING 1").count
    }
}
