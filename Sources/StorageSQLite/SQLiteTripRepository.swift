import Foundation
import GRDB
import OnwardCore
import Storage
import Trips

/// Group trips in the `trip`, `trip_member`, `trip_position`, `trip_event`, `chat_message` and `friendships` tables.
public struct SQLiteTripRepository: TripRepository {
    let db: SQLiteAccess

    public func saveTrip(_ trip: Trip) async throws {
        let state = try Self.encode(trip)
        do {
            try await db.write("save a trip") { db in
                try db.execute(sql: """
                    INSERT INTO trip (id, invite_code, state) VALUES (?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET invite_code = excluded.invite_code, state = excluded.state
                    """, arguments: [trip.id, trip.inviteCode, state])
                // Who is on it, for "my trips": replaced with the trip, in the same transaction.
                try db.execute(sql: "DELETE FROM trip_member WHERE trip_id = ?", arguments: [trip.id])
                for person in trip.members.keys.sorted() {
                    try db.execute(sql: "INSERT INTO trip_member (trip_id, person) VALUES (?, ?)", arguments: [trip.id, person])
                }
            }
        } catch where error.code == .conflict {
            throw StorageError(.conflict, "the invitation code belongs to another trip")
        }
    }

    public func trip(id: String) async throws -> Trip? {
        try await decodeOne(Trip.self, "read a trip", "SELECT state FROM trip WHERE id = ?", [id])
    }

    public func trip(inviteCode: String) async throws -> Trip? {
        try await decodeOne(Trip.self, "read a trip", "SELECT state FROM trip WHERE invite_code = ?", [inviteCode])
    }

    public func trips(of person: String) async throws -> [Trip] {
        try await decodeAll(Trip.self, "read a person's trips", """
            SELECT trip.state FROM trip JOIN trip_member ON trip_member.trip_id = trip.id WHERE trip_member.person = ? ORDER BY trip.id
            """, [person])
    }

    public func savePosition(_ position: SharedPosition, trip: String) async throws {
        let state = try Self.encode(position)
        try await db.write("save a position") { db in
            try db.execute(sql: """
                INSERT INTO trip_position (trip_id, person, state) VALUES (?, ?, ?)
                ON CONFLICT (trip_id, person) DO UPDATE SET state = excluded.state
                """, arguments: [trip, position.person, state])
        }
    }

    public func positions(trip: String) async throws -> [SharedPosition] {
        try await decodeAll(SharedPosition.self, "read a trip's positions", "SELECT state FROM trip_position WHERE trip_id = ? ORDER BY person", [trip])
    }

    public func saveEvent(_ event: TripEvent) async throws {
        let state = try Self.encode(event)
        try await db.write("save an event") { db in
            try db.execute(sql: """
                INSERT INTO trip_event (id, trip_id, at, state) VALUES (?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET at = excluded.at, state = excluded.state
                """, arguments: [event.id, event.tripId, event.at.epochSeconds, state])
        }
    }

    public func event(id: String) async throws -> TripEvent? {
        try await decodeOne(TripEvent.self, "read an event", "SELECT state FROM trip_event WHERE id = ?", [id])
    }

    public func events(trip: String) async throws -> [TripEvent] {
        try await decodeAll(TripEvent.self, "read a trip's events", "SELECT state FROM trip_event WHERE trip_id = ? ORDER BY at, id", [trip])
    }

    public func post(_ text: String, by author: String, at: Instant, in conversation: Conversation) async throws -> ChatMessage {
        let key = try Self.key(conversation), trimmed = ChatMessage.cleaned(text)
        return try await db.write("post a message") { db in
            // Numbered in the same transaction as it is written: two posts at once get two numbers.
            let last = try Int.fetchOne(db, sql: "SELECT MAX(sequence) FROM chat_message WHERE conversation = ?", arguments: [key]) ?? 0
            let message = ChatMessage(sequence: last + 1, author: author, text: trimmed, at: at)
            try db.execute(sql: "INSERT INTO chat_message (conversation, sequence, author, text, at) VALUES (?, ?, ?, ?, ?)",
                           arguments: [key, message.sequence, author, trimmed, at.epochSeconds])
            return message
        }
    }

    public func messages(in conversation: Conversation, before sequence: Int?, limit: Int) async throws -> [ChatMessage] {
        let key = try Self.key(conversation)
        return try await db.read("read messages") { db in
            try Row.fetchAll(db, sql: """
                SELECT * FROM chat_message WHERE conversation = ? AND sequence < ? ORDER BY sequence DESC LIMIT ?
                """, arguments: [key, sequence ?? Int.max, max(0, limit)]).reversed().map { row in
                ChatMessage(sequence: row["sequence"], author: row["author"], text: row["text"], at: Instant(epochSeconds: row["at"]))
            }
        }
    }

    public func friendships() async throws -> Friendships {
        try await decodeOne(Friendships.self, "read friendships", "SELECT state FROM friendships WHERE id = 1", []) ?? Friendships()
    }

    public func saveFriendships(_ friendships: Friendships) async throws {
        let state = try Self.encode(friendships)
        try await db.write("save friendships") { db in
            try db.execute(sql: "INSERT INTO friendships (id, state) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET state = excluded.state", arguments: [state])
        }
    }

    // MARK: - JSON states

    private static func encode(_ value: some Encodable) throws -> Data {
        do { return try encoder.encode(value) } catch { throw StorageError(.failed, "cannot encode \(type(of: value)) (\(error))") }
    }

    /// A conversation as its key: the same conversation, the same text.
    private static func key(_ c: Conversation) throws -> String { String(decoding: try encode(c), as: UTF8.self) }

    private static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return e
    }()

    private func decodeOne<T: Decodable & Sendable>(_ type: T.Type, _ what: String, _ sql: String, _ arguments: [any DatabaseValueConvertible & Sendable]) async throws -> T? {
        try await decodeAll(type, what, sql, arguments).first
    }

    private func decodeAll<T: Decodable & Sendable>(_ type: T.Type, _ what: String, _ sql: String, _ arguments: [any DatabaseValueConvertible & Sendable]) async throws -> [T] {
        let rows = try await db.read(what) { db in try Data.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)) }
        do { return try rows.map { try JSONDecoder().decode(type, from: $0) } } catch {
            throw StorageError(.unreadable, "\(db.path): cannot \(what): a stored \(type) cannot be read (\(error))")
        }
    }
}
