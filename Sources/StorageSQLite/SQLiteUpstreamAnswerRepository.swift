import Foundation
import GRDB
import OnwardCore
import Storage

/// On-demand upstreams' answers and fetch claims, in the `upstream_answer` and `upstream_claim` tables.
public struct SQLiteUpstreamAnswerRepository: UpstreamAnswerRepository {
    let db: SQLiteAccess

    public func answer(source: String, key: String) async throws -> UpstreamAnswerRecord? {
        try await db.read("read an answer of \(source)") { db in
            try Row.fetchOne(db, sql: "SELECT * FROM upstream_answer WHERE source = ? AND key = ?", arguments: [source, key]).map { row in
                UpstreamAnswerRecord(source: row["source"], key: row["key"], status: row["status"],
                                     headers: UpstreamAnswerHeaders.decode(row["headers"]), body: row["body"],
                                     fetchedAt: Instant(epochSeconds: row["fetched_at"]))
            }
        }
    }

    public func save(_ record: UpstreamAnswerRecord) async throws {
        try await db.write("save an answer of \(record.source)") { db in
            try db.execute(sql: """
                INSERT INTO upstream_answer (source, key, status, headers, body, fetched_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (source, key) DO UPDATE SET status = excluded.status, headers = excluded.headers, body = excluded.body,
                    fetched_at = excluded.fetched_at
                WHERE excluded.fetched_at >= upstream_answer.fetched_at
                """, arguments: [record.source, record.key, record.status, UpstreamAnswerHeaders.encode(record.headers), record.body,
                                 record.fetchedAt.epochSeconds])
            try db.execute(sql: "DELETE FROM upstream_claim WHERE source = ? AND key = ?", arguments: [record.source, record.key])
        }
    }

    public func claim(source: String, key: String, until: Instant, now: Instant) async throws -> Bool {
        try await db.write("claim a fetch of \(source)") { db in
            try db.execute(sql: """
                INSERT INTO upstream_claim (source, key, until) VALUES (?, ?, ?)
                ON CONFLICT (source, key) DO UPDATE SET until = excluded.until WHERE upstream_claim.until < ?
                """, arguments: [source, key, until.epochSeconds, now.epochSeconds])
            return db.changesCount == 1
        }
    }

    public func release(source: String, key: String) async throws {
        try await db.write("end a claim of \(source)") { db in
            try db.execute(sql: "DELETE FROM upstream_claim WHERE source = ? AND key = ?", arguments: [source, key])
        }
    }

    public func removeOlder(than before: Instant) async throws -> Int {
        try await db.write("forget old upstream answers") { db in
            try db.execute(sql: "DELETE FROM upstream_claim WHERE until < ?", arguments: [before.epochSeconds])
            try db.execute(sql: "DELETE FROM upstream_answer WHERE fetched_at < ?", arguments: [before.epochSeconds])
            return db.changesCount
        }
    }
}
