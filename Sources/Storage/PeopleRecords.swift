import Foundation
import OnwardCore

/// A person who can sign in: with a username and password, with Telegram, or both.
public struct Account: Sendable, Hashable, Codable {
    /// Onward's own ID for the person (random, never shown as a secret).
    public var id: String
    /// As the person typed it; unique regardless of letter case.
    public var username: String?
    /// The password's bcrypt hash; never leaves the server.
    public var passwordHash: String?
    /// The Telegram user ID, when the person signed in with Telegram.
    public var telegramId: Int64?
    public var displayName: String
    public var createdAt: Instant

    public init(id: String, username: String? = nil, passwordHash: String? = nil, telegramId: Int64? = nil, displayName: String,
                createdAt: Instant) {
        self.id = id; self.username = username; self.passwordHash = passwordHash; self.telegramId = telegramId
        self.displayName = displayName; self.createdAt = createdAt
    }

    /// The key that makes usernames unique: "Ana" and "ana" are one person.
    public static func usernameKey(_ username: String) -> String { username.lowercased() }
}

/// A signed-in device: a browser's cookie or an API client's bearer token. Only the token's
/// SHA-256 is kept, so a copy of the database signs nobody in.
public struct SessionRecord: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, Codable {
        case browser, token
    }

    /// Hex SHA-256 of the token.
    public var tokenHash: String
    public var accountId: String
    public var kind: Kind
    /// A browser session's anti-forgery token, sent back by its pages with every change.
    public var csrfToken: String
    public var createdAt: Instant
    public var expiresAt: Instant

    public init(tokenHash: String, accountId: String, kind: Kind, csrfToken: String, createdAt: Instant, expiresAt: Instant) {
        self.tokenHash = tokenHash; self.accountId = accountId; self.kind = kind; self.csrfToken = csrfToken
        self.createdAt = createdAt; self.expiresAt = expiresAt
    }
}
