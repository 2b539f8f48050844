import OnwardCore
import Trips

/// Keeps group trips: the trips with their members, shared positions, events, chat and friendships.
/// Drivers throw `StorageError`, never their library's errors; a write returns once it is durable.
public protocol TripRepository: Sendable {
    /// Stores a trip, new or changed (by its ID); throws `.conflict` when its invitation code belongs to another trip.
    func saveTrip(_ trip: Trip) async throws
    func trip(id: String) async throws -> Trip?
    func trip(inviteCode: String) async throws -> Trip?
    /// The trips `person` is a member of, by ID.
    func trips(of person: String) async throws -> [Trip]

    /// Stores a person's shared position on a trip, replacing their earlier one there.
    func savePosition(_ position: SharedPosition, trip: String) async throws
    /// Every position kept for a trip (shown or not: `MapVisibility` decides), by person.
    func positions(trip: String) async throws -> [SharedPosition]

    func saveEvent(_ event: TripEvent) async throws
    func event(id: String) async throws -> TripEvent?
    /// A trip's events, soonest first.
    func events(trip: String) async throws -> [TripEvent]

    /// Appends a message to a conversation, numbered after the last one, and returns it as stored.
    func post(_ text: String, by author: String, at: Instant, in conversation: Conversation) async throws -> ChatMessage
    /// Up to `limit` messages before `sequence` (the newest when nil), oldest first.
    func messages(in conversation: Conversation, before sequence: Int?, limit: Int) async throws -> [ChatMessage]

    func friendships() async throws -> Friendships
    func saveFriendships(_ friendships: Friendships) async throws
}
