import API
import Foundation
import OnwardCore
import Storage
import Trips

/// Chat: one conversation per trip for its members and direct conversations between friends.
/// A conversation is named `trip:<tripId>` or, from each side, `person:<the other's ID>`; one that
/// is not open to the caller answers 404, as one that does not exist.
extension TripService {
    public static let chatPageLimit = 100

    /// The conversation `key` names, if it is open to `person`.
    func conversation(_ key: String, for person: String) async throws -> Conversation {
        if key.hasPrefix("trip:") {
            let id = String(key.dropFirst(5))
            guard let trip = try await repository.trip(id: id), trip.isMember(person) else { throw Self.conversationNotFound }
            return .trip(trip.id)
        }
        if key.hasPrefix("person:") {
            let other = String(key.dropFirst(7))
            let conversation = Conversation.between(person, other)
            guard other != person, try await isOpen(conversation, to: person) else { throw Self.conversationNotFound }
            return conversation
        }
        throw Self.conversationNotFound
    }

    func isOpen(_ conversation: Conversation, to person: String) async throws -> Bool {
        let trips: [Trip]
        switch conversation {
        case .trip(let id): trips = try await repository.trip(id: id).map { [$0] } ?? []
        case .direct: trips = try await repository.trips(of: person)
        }
        return conversation.isOpen(to: person, trips: trips, friendships: try await repository.friendships(of: [person]))
    }

    /// How `viewer` names a conversation.
    public static func key(_ conversation: Conversation, for viewer: String) -> String {
        switch conversation {
        case .trip(let id): "trip:\(id)"
        case .direct(let a, let b): "person:\(a == viewer ? b : a)"
        }
    }

    public func chat(_ key: String, for person: String, before: Int?, limit: Int) async throws -> ChatPageDTO {
        let conversation = try await conversation(key, for: person)
        let bounded = min(max(limit, 1), Self.chatPageLimit)
        // One more than asked shows whether an older page exists.
        let page = try await repository.messages(in: conversation, before: before, limit: bounded + 1)
        let shown = Array(page.suffix(bounded))
        return ChatPageDTO(conversation: key, messages: try await dtos(shown), more: page.count > bounded,
                           unread: try await repository.unread(in: conversation, by: person))
    }

    public func post(_ key: String, by person: String, text: String) async throws -> ChatMessageDTO {
        let conversation = try await conversation(key, for: person)
        if let problem = ChatMessage.problem(text) { throw PeopleService.invalid(problem, "text") }
        let message = try await repository.post(text, by: person, at: now(), in: conversation)
        hub.publish(.chat(conversation, message))
        return try await dtos([message])[0]
    }

    public func markRead(_ key: String, by person: String, upTo sequence: Int) async throws -> Int {
        let conversation = try await conversation(key, for: person)
        try await repository.markRead(in: conversation, by: person, upTo: sequence)
        return try await repository.unread(in: conversation, by: person)
    }

    /// Every conversation open to `person`: each of their trips', then each friend's (by a shared trip or an accepted request).
    public func conversations(for person: String) async throws -> ConversationsDTO {
        var list: [ConversationsDTO.Conversation] = []
        for trip in try await repository.trips(of: person) {
            list.append(.init(conversation: "trip:\(trip.id)", title: trip.name, unread: try await repository.unread(in: .trip(trip.id), by: person)))
        }
        for friend in try await friends(of: person) {
            list.append(.init(conversation: "person:\(friend.id)", title: friend.displayName,
                              unread: try await repository.unread(in: .between(person, friend.id), by: person)))
        }
        return ConversationsDTO(conversations: list)
    }

    func dtos(_ messages: [ChatMessage]) async throws -> [ChatMessageDTO] {
        var names: [String: String] = [:]
        var out: [ChatMessageDTO] = []
        for m in messages {
            if names[m.author] == nil { names[m.author] = try await displayName(m.author) }
            out.append(ChatMessageDTO(sequence: m.sequence, author: m.author, authorName: names[m.author]!, text: m.text, at: m.at.description))
        }
        return out
    }

    /// A person's display name, or "—" for an account that is gone.
    public func displayName(_ person: String) async throws -> String { try await people.repository.account(id: person)?.displayName ?? "—" }

    static let conversationNotFound = ServiceError(.conversationNotFound, "No conversation has this name.")
}
