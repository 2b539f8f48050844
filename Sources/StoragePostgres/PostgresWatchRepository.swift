import Foundation
import PostgresNIO
import Storage

/// Watched journeys, in the `watch` table.
public struct PostgresWatchRepository: WatchRepository {
    let db: PostgresAccess

    public func save(_ record: WatchRecord) async throws -> Bool {
        try await !db.rows("save a watched journey", """
            INSERT INTO watch (id, owner, state) VALUES (\(record.id), \(record.owner), \(record.state))
            ON CONFLICT (id) DO UPDATE SET state = excluded.state WHERE watch.owner = excluded.owner RETURNING 1
            """).isEmpty
    }

    public func update(_ records: [WatchRecord]) async throws {
        guard !records.isEmpty else { return }
        // One statement for all: the states, IDs and owners as arrays, unnested side by side. A state is JSON, so
        // it travels as text (PostgresNIO has no array of bytea) and is stored as its UTF-8 bytes.
        let states = records.map { String(decoding: $0.state, as: UTF8.self) }
        try await db.run("save what watchers were told", """
            UPDATE watch SET state = convert_to(u.state, 'UTF8')
            FROM unnest(\(states), \(records.map(\.id)), \(records.map(\.owner))) AS u(state, id, owner)
            WHERE watch.id = u.id AND watch.owner = u.owner
            """)
    }

    public func watches(owner: String) async throws -> [WatchRecord] {
        try await records("read a person's watched journeys", "SELECT id, owner, state FROM watch WHERE owner = \(owner) ORDER BY id")
    }

    public func all() async throws -> [WatchRecord] {
        try await records("read the watched journeys", "SELECT id, owner, state FROM watch ORDER BY id")
    }

    public func remove(id: String, owner: String) async throws -> Bool {
        try await !db.rows("remove a watched journey", "DELETE FROM watch WHERE id = \(id) AND owner = \(owner) RETURNING 1").isEmpty
    }

    private func records(_ what: String, _ query: PostgresQuery) async throws -> [WatchRecord] {
        try await db.rows(what, query) { row in
            let (id, owner, state) = try row.decode((String, String, Data).self)
            return WatchRecord(id: id, owner: owner, state: state)
        }
    }
}
