import Crypto
import Foundation
import OnwardCore

/// Sign-in with Telegram: the login widget's data, checked as Telegram documents it
/// (core.telegram.org/widgets/login#checking-authorization). The secret is the SHA-256 of the
/// bot token; the hash is the HMAC-SHA-256 of every other field as sorted `key=value` lines;
/// `auth_date` must be at most a day old.
public struct TelegramLogin: Sendable {
    /// Who Telegram says signed in.
    public struct User: Sendable, Hashable {
        public var id: Int64
        public var displayName: String
    }

    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        case missing(String)
        case badSignature
        case expired
        public var description: String {
            switch self {
            case .missing(let field): "the Telegram data has no \(field)"
            case .badSignature: "the Telegram data is not signed by this server's bot"
            case .expired: "the Telegram sign-in is more than a day old; sign in again"
            }
        }
    }

    static let maxAgeSeconds: Int64 = 86_400
    /// SHA-256 of the bot token (as bytes: `SymmetricKey` is not `Sendable`).
    private let secret: Data

    /// The bot's numeric ID: the token's part before its colon ("123456:ABC…"), when that is a number.
    public let botID: String?

    public init(botToken: String) {
        secret = Data(SHA256.hash(data: Data(botToken.utf8)))
        let prefix = botToken.prefix { $0 != ":" }
        botID = !prefix.isEmpty && prefix.count < botToken.count && prefix.allSatisfy(\.isNumber) ? String(prefix) : nil
    }

    /// The user the widget's fields (as strings, exactly as Telegram sent them) name, if they are genuine and fresh.
    public func verify(_ fields: [String: String], now: Instant) throws(Failure) -> User {
        guard let hash = fields["hash"], let expected = Self.bytes(hex: hash) else { throw .missing("hash") }
        let lines = fields.filter { $0.key != "hash" }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n")
        // HMAC's own check compares in constant time.
        guard HMAC<SHA256>.isValidAuthenticationCode(expected, authenticating: Data(lines.utf8), using: SymmetricKey(data: secret)) else { throw .badSignature }
        guard let date = fields["auth_date"].flatMap({ Int64($0) }) else { throw .missing("auth_date") }
        // A date in the future beyond clock drift is as suspect as an old one.
        guard now.epochSeconds - date <= Self.maxAgeSeconds, date - now.epochSeconds <= 300 else { throw .expired }
        guard let id = fields["id"].flatMap({ Int64($0) }) else { throw .missing("id") }
        let name = [fields["first_name"], fields["last_name"]].compactMap { $0 }.joined(separator: " ")
        return User(id: id, displayName: name.isEmpty ? (fields["username"] ?? "Telegram user") : name)
    }

    static func bytes(hex: String) -> Data? {
        guard hex.count == 64 else { return nil }
        var data = Data(capacity: 32)
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            data.append(byte)
            index = next
        }
        return data
    }
}
