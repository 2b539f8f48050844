import Crypto
import Foundation
import WebPush

/// Random secrets and what is kept of them: one place for the server's session tokens, anti-forgery
/// tokens, commute IDs and record IDs.
public enum Secrets {
    /// 256 random bits, base64url: a capability nobody can guess (a session, a commute).
    public static func token() -> String { Base64URL.encode(randomBytes(32)) }

    /// 128 random bits in hex: an ID that need not be secret, only unique (an account, a trip, an event).
    public static func id() -> String { hex(randomBytes(16)) }

    /// Hex SHA-256: what storage keeps of a token.
    public static func sha256(_ text: String) -> String { hex(Data(SHA256.hash(data: Data(text.utf8)))) }

    public static func hex(_ data: some Sequence<UInt8>) -> String { data.map { String(format: "%02x", $0) }.joined() }

    /// Whether two strings are equal, compared without stopping at the first difference.
    public static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private static func randomBytes(_ count: Int) -> Data {
        var g = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &g) })
    }
}
