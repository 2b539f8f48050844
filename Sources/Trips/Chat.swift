import Foundation
import OnwardCore

/// Where a message is written: a trip's one conversation, or two friends' direct conversation.
public enum Conversation: Sendable, Hashable, Codable {
    case trip(String)
    /// The two people, the smaller ID first.
    case direct(String, String)

    public static func between(_ x: String, _ y: String) -> Conversation { x < y ? .direct(x, y) : .direct(y, x) }

    /// Whether `person` may read and write here: a member of the trip, or one of two people who are friends.
    public func isOpen(to person: String, trips: [Trip], friendships: Friendships) -> Bool {
        switch self {
        case .trip(let id): trips.first { $0.id == id }?.isMember(person) ?? false
        case .direct(let a, let b): (person == a || person == b) && friendships.areFriends(a, b, trips: trips)
        }
    }
}

/// One message: plain text (the pages escape it), with its place in the conversation.
public struct ChatMessage: Sendable, Hashable, Codable {
    /// Counts up within the conversation from 1: what paging and unread counts go by.
    public var sequence: Int
    public var author: String
    public var text: String
    public var at: Instant

    public static let maxLength = 2_000

    public init(sequence: Int, author: String, text: String, at: Instant) {
        self.sequence = sequence; self.author = author; self.text = text; self.at = at
    }

    /// A message's text as it is kept: without the spaces and blank lines around it.
    public static func cleaned(_ text: String) -> String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// What is wrong with a message's text, or nil.
    public static func problem(_ text: String) -> String? {
        let trimmed = cleaned(text)
        if trimmed.isEmpty { return "a message needs some text" }
        if trimmed.count > maxLength { return "a message is at most \(maxLength) characters" }
        return nil
    }
}

/// A conversation's messages in order, read a page at a time backwards from the newest, and how
/// many each reader has not read.
public struct ChatLog: Sendable, Hashable, Codable {
    public private(set) var messages: [ChatMessage] = []
    /// The last sequence each person has read.
    public private(set) var read: [String: Int] = [:]

    public init() {}

    /// Adds a message by `author` (who has read everything up to it).
    @discardableResult public mutating func post(_ text: String, by author: String, at: Instant) -> ChatMessage {
        let message = ChatMessage(sequence: (messages.last?.sequence ?? 0) + 1, author: author, text: ChatMessage.cleaned(text), at: at)
        messages.append(message)
        read[author] = message.sequence
        return message
    }

    /// Up to `limit` messages before `sequence` (the newest when nil), oldest first: the next page back.
    public func page(before sequence: Int? = nil, limit: Int) -> [ChatMessage] {
        let older = messages.prefix { sequence == nil || $0.sequence < sequence! }
        return Array(older.suffix(max(0, limit)))
    }

    public func unread(by person: String) -> Int {
        let seen = read[person] ?? 0
        return messages.count { $0.sequence > seen && $0.author != person }
    }

    /// Forgets how far `person` has read (their account is gone).
    public mutating func forgetReader(_ person: String) { read[person] = nil }

    /// Marks everything up to `sequence` as read by `person` (never backwards).
    public mutating func markRead(by person: String, upTo sequence: Int) {
        read[person] = max(read[person] ?? 0, min(sequence, messages.last?.sequence ?? 0))
    }
}
