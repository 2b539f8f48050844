import OnwardCore
import Synchronization
import Trips

/// Trips kept in memory for the life of the process: for tests and the contract suite's twin of the drivers.
public final class InMemoryTripRepository: TripRepository {
    private struct Tables {
        var trips: [String: Trip] = [:]
        var positions: [String: [String: SharedPosition]] = [:]
        var events: [String: TripEvent] = [:]
        var chats: [Conversation: ChatLog] = [:]
        var friendships = Friendships()
        var profiles: [String: Profile] = [:]
        var broadcasts: [Broadcast] = []
    }

    private let tables = Mutex(Tables())

    public init() {}

    public func saveTrip(_ trip: Trip) async throws {
        try tables.withLock { t throws(StorageError) in
            if t.trips.values.contains(where: { $0.inviteCode == trip.inviteCode && $0.id != trip.id }) {
                throw StorageError(.conflict, "the invitation code belongs to another trip")
            }
            t.trips[trip.id] = trip
        }
    }

    public func updateTrip<T: Sendable>(id: String, _ change: @escaping @Sendable (inout Trip) -> T) async throws -> T? {
        update(\.trips, id, change)
    }

    /// One record changed under the lock: nothing falls between its read and its write.
    private func update<Value, T: Sendable>(_ table: WritableKeyPath<Tables, [String: Value]>, _ id: String, _ change: (inout Value) -> T) -> T? {
        tables.withLock { t in
            guard var value = t[keyPath: table][id] else { return nil }
            let answer = change(&value)
            t[keyPath: table][id] = value
            return answer
        }
    }

    public func trip(id: String) async throws -> Trip? { tables.withLock { $0.trips[id] } }
    public func trip(inviteCode: String) async throws -> Trip? { tables.withLock { $0.trips.values.first { $0.inviteCode == inviteCode } } }
    public func trips(of person: String) async throws -> [Trip] {
        tables.withLock { $0.trips.values.filter { $0.isMember(person) }.sorted { $0.id < $1.id } }
    }

    public func savePosition(_ position: SharedPosition, trip: String) async throws {
        tables.withLock { $0.positions[trip, default: [:]][position.person] = position }
    }

    public func positions(trip: String) async throws -> [SharedPosition] {
        tables.withLock { ($0.positions[trip] ?? [:]).values.sorted { $0.person < $1.person } }
    }

    public func saveEvent(_ event: TripEvent) async throws { tables.withLock { $0.events[event.id] = event } }
    public func event(id: String) async throws -> TripEvent? { tables.withLock { $0.events[id] } }
    public func updateEvent<T: Sendable>(id: String, _ change: @escaping @Sendable (inout TripEvent) -> T) async throws -> T? {
        update(\.events, id, change)
    }
    public func events(trip: String) async throws -> [TripEvent] {
        tables.withLock { $0.events.values.filter { $0.tripId == trip }.sorted { ($0.at, $0.id) < ($1.at, $1.id) } }
    }

    public func post(_ text: String, by author: String, at: Instant, in conversation: Conversation) async throws -> ChatMessage {
        tables.withLock { $0.chats[conversation, default: ChatLog()].post(text, by: author, at: at) }
    }

    public func messages(in conversation: Conversation, before sequence: Int?, limit: Int) async throws -> [ChatMessage] {
        tables.withLock { ($0.chats[conversation] ?? ChatLog()).page(before: sequence, limit: limit) }
    }

    public func markRead(in conversation: Conversation, by person: String, upTo sequence: Int) async throws {
        tables.withLock { $0.chats[conversation, default: ChatLog()].markRead(by: person, upTo: sequence) }
    }

    public func unread(in conversation: Conversation, by person: String) async throws -> Int {
        tables.withLock { ($0.chats[conversation] ?? ChatLog()).unread(by: person) }
    }

    public func friendships(of people: Set<String>) async throws -> Friendships { tables.withLock { $0.friendships.involving(people) } }
    public func updateFriendships<T: Sendable>(of people: Set<String>, _ change: @escaping @Sendable (inout Friendships) -> T) async throws -> T {
        tables.withLock { t in
            // As the drivers do: the change sees only these people's, and what it changes replaces them.
            let before = t.friendships.involving(people)
            var theirs = before
            let answer = change(&theirs)
            t.friendships.accepted.subtract(before.accepted.subtracting(theirs.accepted))
            t.friendships.accepted.formUnion(theirs.accepted)
            t.friendships.requests.subtract(before.requests.subtracting(theirs.requests))
            t.friendships.requests.formUnion(theirs.requests)
            return answer
        }
    }

    public func profile(person: String) async throws -> Profile? { tables.withLock { $0.profiles[person] } }
    public func saveProfile(_ profile: Profile) async throws { tables.withLock { $0.profiles[profile.person] = profile } }

    public func forget(person: String) async throws {
        tables.withLock { t in
            t.profiles[person] = nil
            for trip in t.positions.keys { t.positions[trip]?[person] = nil }
            for c in t.chats.keys { t.chats[c]?.forgetReader(person) }
            t.friendships.forget(person)
        }
    }

    public func saveBroadcast(_ broadcast: Broadcast) async throws { tables.withLock { $0.broadcasts.append(broadcast) } }
    public func broadcasts(trip: String, limit: Int) async throws -> [Broadcast] {
        tables.withLock { Array($0.broadcasts.filter { $0.tripId == trip }.sorted { ($0.at, $0.id) > ($1.at, $1.id) }.prefix(max(0, limit))) }
    }
}
