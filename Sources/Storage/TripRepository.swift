import OnwardCore
import Trips

/// Keeps group trips: the trips with their members, shared positions, events, chat and friendships.
/// Drivers throw `StorageError`, never their library's errors; a write returns once it is durable.
public protocol TripRepository: Sendable {
    /// Stores a trip, new or changed (by its ID); throws `.conflict` when its invitation code belongs to another trip.
    func saveTrip(_ trip: Trip) async throws
    /// Changes a trip in one step (no other change falls between the read and the write: two people
    /// joining at once are both kept) and returns `change`'s answer; nil when there is no such trip.
    func updateTrip<T: Sendable>(id: String, _ change: @escaping @Sendable (inout Trip) -> T) async throws -> T?
    func trip(id: String) async throws -> Trip?
    func trip(inviteCode: String) async throws -> Trip?
    /// The trips `person` is a member of, by ID.
    func trips(of person: String) async throws -> [Trip]

    /// Stores a person's shared position on a trip, replacing their earlier one there.
    func savePosition(_ position: SharedPosition, trip: String) async throws
    /// Every position kept for a trip (shown or not: `MapVisibility` decides), by person.
    func positions(trip: String) async throws -> [SharedPosition]

    func saveEvent(_ event: TripEvent) async throws
    /// Changes an event in one step (two answers at once are both kept) and returns `change`'s answer; nil when there is no such event.
    func updateEvent<T: Sendable>(id: String, _ change: @escaping @Sendable (inout TripEvent) -> T) async throws -> T?
    func event(id: String) async throws -> TripEvent?
    /// A trip's events, soonest first.
    func events(trip: String) async throws -> [TripEvent]

    /// Appends a message to a conversation, numbered after the last one, and returns it as stored.
    func post(_ text: String, by author: String, at: Instant, in conversation: Conversation) async throws -> ChatMessage
    /// Up to `limit` messages before `sequence` (the newest when nil), oldest first.
    func messages(in conversation: Conversation, before sequence: Int?, limit: Int) async throws -> [ChatMessage]

    /// Marks a conversation read by `person` up to `sequence` (never backwards, never past its last message).
    func markRead(in conversation: Conversation, by person: String, upTo sequence: Int) async throws
    /// How many messages of others `person` has not read in a conversation.
    func unread(in conversation: Conversation, by person: String) async throws -> Int

    /// The friendships and requests that involve any of `people` (a city's are never read whole).
    func friendships(of people: Set<String>) async throws -> Friendships
    /// Changes the friendships of `people` in one step: `change` sees those that involve any of them, no other
    /// change to theirs falls between the read and the write (changes for other people run alongside), and
    /// what it adds or removes is stored. Returns `change`'s answer. It may touch only pairs that involve them.
    func updateFriendships<T: Sendable>(of people: Set<String>, _ change: @escaping @Sendable (inout Friendships) -> T) async throws -> T

    /// A person's profile (bio, photo, push address), nil when they never wrote one.
    func profile(person: String) async throws -> Profile?
    func saveProfile(_ profile: Profile) async throws

    /// Forgets what a person left on trips when their account is deleted: their profile, their shared
    /// positions, their read marks, and their friendships and requests. (Their trip memberships are
    /// changed through `updateTrip`; messages they wrote stay in the others' conversations.)
    func forget(person: String) async throws

    func saveBroadcast(_ broadcast: Broadcast) async throws
    /// A trip's broadcasts, newest first, at most `limit`.
    func broadcasts(trip: String, limit: Int) async throws -> [Broadcast]
}
