import HummingbirdBcrypt
import NIOPosix

/// Passwords as bcrypt hashes (hummingbird-auth's), computed off the server's own threads:
/// a hash takes a quarter of a second at cost 12, on purpose.
public struct PasswordHasher: Sendable {
    /// bcrypt's work factor: 2^cost rounds. 12 by default; tests use the minimum, 4.
    public var cost: UInt8
    /// bcrypt reads at most 72 bytes; a longer password would be cut silently, so it is refused.
    public static let maxBytes = 72
    public static let minLength = 10

    public init(cost: UInt8 = 12) { self.cost = cost }

    public func hash(_ password: String) async throws -> String {
        let cost = cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    public func verify(_ password: String, hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }

    /// What is wrong with a new password, or nil.
    public static func problem(_ password: String) -> String? {
        if password.count < minLength { return "password must be at least \(minLength) characters" }
        if password.utf8.count > maxBytes { return "password must be at most \(maxBytes) bytes" }
        return nil
    }
}
