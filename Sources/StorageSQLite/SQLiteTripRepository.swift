import Foundation
import GRDB
import OnwardCore
import Storage
import Trips

/// Group trips in the `trip`, `trip_member`, `trip_position`, `trip_event`, `chat_message`, `chat_read`, `friendship`, `profile` and `broadcast` tables.
public struct SQLiteTripRepository: TripRepository {
    let db: SQLiteAccess

    public func saveTrip(_ trip: Trip) async throws {
        let state = try Self.encode(trip)
        do {
            try await db.write("save a trip") { db in try Self.write(trip, state: state, db) }
        } catch where error.code == .conflict {
            throw StorageError(.conflict, "the invitation code belongs to another trip")
        }
    }

    public func updateTrip<T: Sendable>(id: String, _ change: @escaping @Sendable (inout Trip) -> T) async throws -> T? {
        let path = db.path
        return try await db.write("change a trip") { db in
            // Read and written in one write transaction: SQLite runs one at a time.
            guard var trip = try Self.stored(Trip.self, db, "SELECT state FROM trip WHERE id = ?", [id], path: path) else { return nil }
            let answer = change(&trip)
            try Self.write(trip, state: try Self.encode(trip), db)
            return answer
        }
    }

    /// The trip's row and, in the same transaction, who is on it (for "my trips").
    private static func write(_ trip: Trip, state: Data, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO trip (id, invite_code, state) VALUES (?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET invite_code = excluded.invite_code, state = excluded.state
            """, arguments: [trip.id, trip.inviteCode, state])
        try db.execute(sql: "DELETE FROM trip_member WHERE trip_id = ?", arguments: [trip.id])
        for person in trip.members.keys.sorted() {
            try db.execute(sql: "INSERT INTO trip_member (trip_id, person) VALUES (?, ?)", arguments: [trip.id, person])
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

    public func updateEvent<T: Sendable>(id: String, _ change: @escaping @Sendable (inout TripEvent) -> T) async throws -> T? {
        let path = db.path
        return try await db.write("change an event") { db in
            guard var event = try Self.stored(TripEvent.self, db, "SELECT state FROM trip_event WHERE id = ?", [id], path: path) else { return nil }
            let answer = change(&event)
            try db.execute(sql: "UPDATE trip_event SET at = ?, state = ? WHERE id = ?", arguments: [event.at.epochSeconds, try Self.encode(event), id])
            return answer
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
            // Its author has read the conversation up to it.
            try db.execute(sql: """
                INSERT INTO chat_read (conversation, person, sequence) VALUES (?, ?, ?)
                ON CONFLICT (conversation, person) DO UPDATE SET sequence = MAX(sequence, excluded.sequence)
                """, arguments: [key, author, message.sequence])
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

    public func friendships(of people: Set<String>) async throws -> Friendships {
        try await db.read("read friendships") { db in try Self.friendships(db, of: people) }
    }

    public func updateFriendships<T: Sendable>(of people: Set<String>, _ change: @escaping @Sendable (inout Friendships) -> T) async throws -> T {
        try await db.write("change friendships") { db in
            // Read and written in one write transaction: SQLite runs one at a time, so no other change falls between.
            let before = try Self.friendships(db, of: people)
            var after = before
            let answer = change(&after)
            let (removed, added) = Friendships.rowChanges(from: before, to: after)
            for r in removed {
                try db.execute(sql: "DELETE FROM friendship WHERE a = ? AND b = ? AND kind = ?", arguments: [r.a, r.b, r.kind])
            }
            for r in added {
                try db.execute(sql: "INSERT INTO friendship (a, b, kind) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", arguments: [r.a, r.b, r.kind])
            }
            return answer
        }
    }

    /// The rows that involve any of `people`.
    private static func friendships(_ db: Database, of people: Set<String>) throws -> Friendships {
        guard !people.isEmpty else { return Friendships() }
        let list = Array(people), marks = Array(repeating: "?", count: people.count).joined(separator: ", ")
        return Friendships(rows: try Row.fetchAll(db, sql: "SELECT a, b, kind FROM friendship WHERE a IN (\(marks)) OR b IN (\(marks))",
                                                  arguments: StatementArguments(list + list)).map {
            FriendshipRow(a: $0["a"], b: $0["b"], kind: $0["kind"])
        })
    }

    public func markRead(in conversation: Conversation, by person: String, upTo sequence: Int) async throws {
        let key = try Self.key(conversation)
        try await db.write("mark messages read") { db in
            let last = try Int.fetchOne(db, sql: "SELECT MAX(sequence) FROM chat_message WHERE conversation = ?", arguments: [key]) ?? 0
            try db.execute(sql: """
                INSERT INTO chat_read (conversation, person, sequence) VALUES (?, ?, ?)
                ON CONFLICT (conversation, person) DO UPDATE SET sequence = MAX(sequence, excluded.sequence)
                """, arguments: [key, person, min(sequence, last)])
        }
    }

    public func unread(in conversation: Conversation, by person: String) async throws -> Int {
        let key = try Self.key(conversation)
        return try await db.read("count unread messages") { db in
            try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM chat_message WHERE conversation = ? AND author != ?
                AND sequence > COALESCE((SELECT sequence FROM chat_read WHERE conversation = ? AND person = ?), 0)
                """, arguments: [key, person, key, person]) ?? 0
        }
    }

    public func profile(person: String) async throws -> Profile? {
        try await decodeOne(Profile.self, "read a profile", "SELECT state FROM profile WHERE person = ?", [person])
    }

    public func saveProfile(_ profile: Profile) async throws {
        let state = try Self.encode(profile)
        try await db.write("save a profile") { db in
            try db.execute(sql: "INSERT INTO profile (person, state) VALUES (?, ?) ON CONFLICT (person) DO UPDATE SET state = excluded.state",
                           arguments: [profile.person, state])
        }
    }

    public func forget(person: String) async throws {
        try await db.write("forget a person's trip data") { db in
            try db.execute(sql: "DELETE FROM profile WHERE person = ?", arguments: [person])
            try db.execute(sql: "DELETE FROM trip_position WHERE person = ?", arguments: [person])
            try db.execute(sql: "DELETE FROM chat_read WHERE person = ?", arguments: [person])
            try db.execute(sql: "DELETE FROM friendship WHERE a = ? OR b = ?", arguments: [person, person])
        }
    }

    public func saveBroadcast(_ broadcast: Broadcast) async throws {
        let state = try Self.encode(broadcast)
        try await db.write("save a broadcast") { db in
            try db.execute(sql: "INSERT INTO broadcast (id, trip_id, at, state) VALUES (?, ?, ?, ?)",
                           arguments: [broadcast.id, broadcast.tripId, broadcast.at.epochSeconds, state])
        }
    }

    public func broadcasts(trip: String, limit: Int) async throws -> [Broadcast] {
        try await decodeAll(Broadcast.self, "read a trip's broadcasts", "SELECT state FROM broadcast WHERE trip_id = ? ORDER BY at DESC, id DESC LIMIT ?",
                            [trip, max(0, limit)])
    }

    // MARK: - JSON states

    /// A JSON state read inside a write transaction (for a change made in one step), or nil when there is none.
    private static func stored<T: Decodable>(_ type: T.Type, _ db: Database, _ sql: String, _ arguments: StatementArguments, path: String) throws -> T? {
        guard let data = try Data.fetchOne(db, sql: sql, arguments: arguments) else { return nil }
        return try StoredState.decode(type, from: data, place: path)
    }

    private static func encode(_ value: some Encodable) throws -> Data { try StoredState.encode(value) }
    private static func key(_ c: Conversation) throws -> String { try StoredState.key(c) }

    private func decodeOne<T: Decodable & Sendable>(_ type: T.Type, _ what: String, _ sql: String, _ arguments: [any DatabaseValueConvertible & Sendable]) async throws -> T? {
        try await decodeAll(type, what, sql, arguments).first
    }

    private func decodeAll<T: Decodable & Sendable>(_ type: T.Type, _ what: String, _ sql: String, _ arguments: [any DatabaseValueConvertible & Sendable]) async throws -> [T] {
        let rows = try await db.read(what) { db in try Data.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)) }
        let place = db.path
        return try rows.map { data throws(StorageError) in try StoredState.decode(type, from: data, place: place) }
    }
}
