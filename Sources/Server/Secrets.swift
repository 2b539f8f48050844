import Crypto
import Foundation
import WebPush

/// Random secrets and what is kept of them: one place for the server's session tokens, anti-forgery
/// tokens, commute IDs and record IDs.
enum Secrets {
    /// 256 random bits, base64url: a capability nobody can guess (a session, a commute).
    static func token() -> String { Base64URL.encode(randomBytes(32)) }

    /// 128 random bits in hex: an ID that need not be secret, only unique (an account, a trip, an event).
    static func id() -> String { hex(randomBytes(16)) }

    /// Hex SHA-256: what storage keeps of a token.
    static func sha256(_ text: String) -> String { hex(Data(SHA256.hash(data: Data(text.utf8)))) }

    static func hex(_ data: some Sequence<UInt8>) -> String { data.map { String(format: "%02x", $0) }.joined() }

    private static func randomBytes(_ count: Int) -> Data {
        var g = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &g) })
    }
}
