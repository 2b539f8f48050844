import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix

/// Passwords as bcrypt hashes (hummingbird-auth's), computed off the server's own threads:
/// a hash takes a quarter of a second at cost 12, on purpose.
///
/// bcrypt reads only the first 72 bytes of its input, so it is given the password's SHA-256 in
/// base64 (44 bytes): every character of a long password counts, and no limit in bytes (which
/// a person cannot see) is needed.
public struct PasswordHasher: Sendable {
    /// bcrypt's work factor: 2^cost rounds. 12 by default; tests use the minimum, 4.
    public var cost: UInt8
    public static let minLength = 10
    public static let maxLength = 1_000

    public init(cost: UInt8 = 12) { self.cost = cost }

    public func hash(_ password: String) async throws -> String {
        let cost = cost, input = Self.digest(password)
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(input, cost: cost) }
    }

    public func verify(_ password: String, hash: String) async throws -> Bool {
        let input = Self.digest(password)
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(input, hash: hash) }
    }

    /// What is wrong with a new password, or nil.
    public static func problem(_ password: String) -> String? {
        if password.count < minLength { return "password must be at least \(minLength) characters" }
        if password.count > maxLength { return "password must be at most \(maxLength) characters" }
        return nil
    }

    static func digest(_ password: String) -> String { Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString() }
}
