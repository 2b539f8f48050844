import Foundation
import OnwardCore
import PostgresNIO
import Storage
import Trips

/// Group trips in the `trip`, `trip_member`, `trip_position`, `trip_event`, `chat_message`, `chat_read`, `friendship`, `profile`
/// and `broadcast` tables. A change made in one step reads its row `FOR UPDATE` in the transaction that writes it, so two
/// servers changing one trip at once wait for each other instead of losing a change.
public struct PostgresTripRepository: TripRepository {
    let db: PostgresAccess

    public func saveTrip(_ trip: Trip) async throws {
        let state = try StoredState.encode(trip)
        do {
            try await db.transaction("save a trip") { tx in try await Self.write(trip, state: state, tx) }
        } catch {
            // (Not `catch where`: Swift 6.3's SIL crashes on that pattern over a typed throw here.)
            guard error.code == .conflict else { throw error }
            throw StorageError(.conflict, "the invitation code belongs to another trip")
        }
    }

    public func updateTrip<T: Sendable>(id: String, _ change: @escaping @Sendable (inout Trip) -> T) async throws -> T? {
        try await db.transaction("change a trip") { tx in
            guard var trip = try await stored(Trip.self, tx, "SELECT state FROM trip WHERE id = \(id) FOR UPDATE") else { return nil }
            let answer = change(&trip)
            try await Self.write(trip, state: try StoredState.encode(trip), tx)
            return answer
        }
    }

    /// The trip's row and, in the same transaction, who is on it (for "my trips").
    private static func write(_ trip: Trip, state: Data, _ tx: PostgresAccess.Transaction) async throws {
        try await tx.run("""
            INSERT INTO trip (id, invite_code, state) VALUES (\(trip.id), \(trip.inviteCode), \(state))
            ON CONFLICT (id) DO UPDATE SET invite_code = excluded.invite_code, state = excluded.state
            """)
        try await tx.run("DELETE FROM trip_member WHERE trip_id = \(trip.id)")
        try await tx.run("INSERT INTO trip_member (trip_id, person) SELECT \(trip.id), unnest(\(trip.members.keys.sorted())::text[])")
    }

    public func trip(id: String) async throws -> Trip? {
        try await decodeAll(Trip.self, "read a trip", "SELECT state FROM trip WHERE id = \(id)").first
    }

    public func trip(inviteCode: String) async throws -> Trip? {
        try await decodeAll(Trip.self, "read a trip", "SELECT state FROM trip WHERE invite_code = \(inviteCode)").first
    }

    public func trips(of person: String) async throws -> [Trip] {
        try await decodeAll(Trip.self, "read a person's trips", """
            SELECT trip.state FROM trip JOIN trip_member ON trip_member.trip_id = trip.id WHERE trip_member.person = \(person) ORDER BY trip.id
            """)
    }

    public func savePosition(_ position: SharedPosition, trip: String) async throws {
        let state = try StoredState.encode(position)
        try await db.run("save a position", """
            INSERT INTO trip_position (trip_id, person, state) VALUES (\(trip), \(position.person), \(state))
            ON CONFLICT (trip_id, person) DO UPDATE SET state = excluded.state
            """)
    }

    public func positions(trip: String) async throws -> [SharedPosition] {
        try await decodeAll(SharedPosition.self, "read a trip's positions", "SELECT state FROM trip_position WHERE trip_id = \(trip) ORDER BY person")
    }

    public func saveEvent(_ event: TripEvent) async throws {
        let state = try StoredState.encode(event)
        try await db.run("save an event", """
            INSERT INTO trip_event (id, trip_id, at, state) VALUES (\(event.id), \(event.tripId), \(event.at.epochSeconds), \(state))
            ON CONFLICT (id) DO UPDATE SET at = excluded.at, state = excluded.state
            """)
    }

    public func updateEvent<T: Sendable>(id: String, _ change: @escaping @Sendable (inout TripEvent) -> T) async throws -> T? {
        try await db.transaction("change an event") { tx in
            guard var event = try await stored(TripEvent.self, tx, "SELECT state FROM trip_event WHERE id = \(id) FOR UPDATE") else { return nil }
            let answer = change(&event)
            try await tx.run("UPDATE trip_event SET at = \(event.at.epochSeconds), state = \(try StoredState.encode(event)) WHERE id = \(id)")
            return answer
        }
    }

    public func event(id: String) async throws -> TripEvent? {
        try await decodeAll(TripEvent.self, "read an event", "SELECT state FROM trip_event WHERE id = \(id)").first
    }

    public func events(trip: String) async throws -> [TripEvent] {
        try await decodeAll(TripEvent.self, "read a trip's events", "SELECT state FROM trip_event WHERE trip_id = \(trip) ORDER BY at, id")
    }

    public func post(_ text: String, by author: String, at: Instant, in conversation: Conversation) async throws -> ChatMessage {
        let key = try StoredState.key(conversation), trimmed = ChatMessage.cleaned(text)
        return try await db.transaction("post a message") { tx in
            // One post at a time per conversation (a lock held to the commit), so two at once get two numbers.
            try await tx.run("SELECT pg_advisory_xact_lock(\(AdvisoryLock.chat), hashtext(\(key)))")
            let last = try await tx.rows("SELECT COALESCE(MAX(sequence), 0) FROM chat_message WHERE conversation = \(key)")
                .first.map { try $0.decode(Int.self) } ?? 0
            let message = ChatMessage(sequence: last + 1, author: author, text: trimmed, at: at)
            try await tx.run("""
                INSERT INTO chat_message (conversation, sequence, author, text, at)
                VALUES (\(key), \(message.sequence), \(author), \(trimmed), \(at.epochSeconds))
                """)
            // Its author has read the conversation up to it.
            try await tx.run("""
                INSERT INTO chat_read (conversation, person, sequence) VALUES (\(key), \(author), \(message.sequence))
                ON CONFLICT (conversation, person) DO UPDATE SET sequence = GREATEST(chat_read.sequence, excluded.sequence)
                """)
            return message
        }
    }

    public func messages(in conversation: Conversation, before sequence: Int?, limit: Int) async throws -> [ChatMessage] {
        let key = try StoredState.key(conversation)
        return try await db.rows("read messages", """
            SELECT sequence, author, text, at FROM chat_message WHERE conversation = \(key) AND sequence < \(sequence ?? Int.max)
            ORDER BY sequence DESC LIMIT \(max(0, limit))
            """) { row in
            let (sequence, author, text, at) = try row.decode((Int, String, String, Int64).self)
            return ChatMessage(sequence: sequence, author: author, text: text, at: Instant(epochSeconds: at))
        }.reversed()
    }

    public func markRead(in conversation: Conversation, by person: String, upTo sequence: Int) async throws {
        let key = try StoredState.key(conversation)
        // Never past the last message, never backwards.
        try await db.run("mark messages read", """
            INSERT INTO chat_read (conversation, person, sequence)
            SELECT \(key), \(person), LEAST(\(sequence), COALESCE(MAX(sequence), 0)) FROM chat_message WHERE conversation = \(key)
            ON CONFLICT (conversation, person) DO UPDATE SET sequence = GREATEST(chat_read.sequence, excluded.sequence)
            """)
    }

    public func unread(in conversation: Conversation, by person: String) async throws -> Int {
        let key = try StoredState.key(conversation)
        return try await db.rows("count unread messages", """
            SELECT COUNT(*) FROM chat_message WHERE conversation = \(key) AND author != \(person)
            AND sequence > COALESCE((SELECT sequence FROM chat_read WHERE conversation = \(key) AND person = \(person)), 0)
            """) { try $0.decode(Int.self) }.first ?? 0
    }

    public func friendships(of people: Set<String>) async throws -> Friendships {
        try Self.friendships(try await db.rows("read friendships", Self.friendshipsQuery(people)))
    }

    public func updateFriendships<T: Sendable>(of people: Set<String>, _ change: @escaping @Sendable (inout Friendships) -> T) async throws -> T {
        try await db.transaction("change friendships") { tx in
            // One change per person at a time, each person's lock taken in one order so two changes cannot wait on each other.
            for person in people.sorted() { try await tx.run("SELECT pg_advisory_xact_lock(\(AdvisoryLock.friendships), hashtext(\(person)))") }
            let before = try Self.friendships(try await tx.rows(Self.friendshipsQuery(people)))
            var after = before
            let answer = change(&after)
            let (removed, added) = Friendships.rowChanges(from: before, to: after)
            for r in removed { try await tx.run("DELETE FROM friendship WHERE a = \(r.a) AND b = \(r.b) AND kind = \(r.kind)") }
            for r in added { try await tx.run("INSERT INTO friendship (a, b, kind) VALUES (\(r.a), \(r.b), \(r.kind)) ON CONFLICT DO NOTHING") }
            return answer
        }
    }

    private static func friendshipsQuery(_ people: Set<String>) -> PostgresQuery {
        let list = Array(people)
        return "SELECT a, b, kind FROM friendship WHERE a = ANY(\(list)) OR b = ANY(\(list))"
    }

    private static func friendships(_ rows: [PostgresRow]) throws -> Friendships {
        Friendships(rows: try rows.map { row in
            let (a, b, kind) = try row.decode((String, String, String).self)
            return FriendshipRow(a: a, b: b, kind: kind)
        })
    }

    public func profile(person: String) async throws -> Profile? {
        try await decodeAll(Profile.self, "read a profile", "SELECT state FROM profile WHERE person = \(person)").first
    }

    public func saveProfile(_ profile: Profile) async throws {
        let state = try StoredState.encode(profile)
        try await db.run("save a profile", """
            INSERT INTO profile (person, state) VALUES (\(profile.person), \(state)) ON CONFLICT (person) DO UPDATE SET state = excluded.state
            """)
    }

    public func forget(person: String) async throws {
        try await db.transaction("forget a person's trip data") { tx in
            try await tx.run("DELETE FROM profile WHERE person = \(person)")
            try await tx.run("DELETE FROM trip_position WHERE person = \(person)")
            try await tx.run("DELETE FROM chat_read WHERE person = \(person)")
            try await tx.run("SELECT pg_advisory_xact_lock(\(AdvisoryLock.friendships), hashtext(\(person)))")
            try await tx.run("DELETE FROM friendship WHERE a = \(person) OR b = \(person)")
        }
    }

    public func saveBroadcast(_ broadcast: Broadcast) async throws {
        let state = try StoredState.encode(broadcast)
        try await db.run("save a broadcast", """
            INSERT INTO broadcast (id, trip_id, at, state) VALUES (\(broadcast.id), \(broadcast.tripId), \(broadcast.at.epochSeconds), \(state))
            """)
    }

    public func broadcasts(trip: String, limit: Int) async throws -> [Broadcast] {
        try await decodeAll(Broadcast.self, "read a trip's broadcasts", """
            SELECT state FROM broadcast WHERE trip_id = \(trip) ORDER BY at DESC, id DESC LIMIT \(max(0, limit))
            """)
    }

    // MARK: - JSON states

    /// A JSON state read inside a transaction (for a change made in one step), or nil when there is none.
    private func stored<T: Decodable>(_ type: T.Type, _ tx: PostgresAccess.Transaction, _ query: PostgresQuery) async throws -> T? {
        guard let row = try await tx.rows(query).first else { return nil }
        return try db.decode(type, try row.decode(Data.self))
    }

    private func decodeAll<T: Decodable>(_ type: T.Type, _ what: String, _ query: PostgresQuery) async throws -> [T] {
        let states = try await db.rows(what, query) { try $0.decode(Data.self) }
        return try states.map { data throws(StorageError) in try db.decode(type, data) }
    }
}
