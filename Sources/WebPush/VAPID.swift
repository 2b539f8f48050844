import Crypto
import Foundation
import Synchronization

/// Voluntary Application Server Identification (RFC 8292): the server's P-256 key signs a
/// short-lived JWT (ES256) for each push service, sent as `Authorization: vapid t=…, k=…`.
public struct VAPIDKey: Sendable {
    /// The private key's 32-byte scalar (swift-crypto's key type is not `Sendable`; its bytes are).
    private let raw: Data
    /// The public key as pages pass it to `pushManager.subscribe` (`applicationServerKey`): 65 bytes, base64url.
    public let publicKey: String
    /// Tokens signed, by push service and subject: one cancellation pushed to thousands of watchers goes to a
    /// handful of push services, and signing (with the key read back from its bytes) was most of each push's cost.
    private let tokens = SignedTokens()

    private static func key(_ raw: Data) -> P256.Signing.PrivateKey {
        // The bytes were checked on the way in (`init?(stored:)`) or made by swift-crypto (`init()`).
        try! P256.Signing.PrivateKey(rawRepresentation: raw)
    }

    /// A new random key.
    public init() { self.init(raw: P256.Signing.PrivateKey().rawRepresentation) }

    private init(raw: Data) {
        self.raw = raw
        publicKey = Base64URL.encode(Self.key(raw).publicKey.x963Representation)
    }

    /// The key as stored in the data folder: its 32-byte scalar, base64url.
    public init?(stored text: String) {
        guard let raw = Base64URL.decode(text.trimmingCharacters(in: .whitespacesAndNewlines)),
              (try? P256.Signing.PrivateKey(rawRepresentation: raw)) != nil else { return nil }
        self.init(raw: raw)
    }

    public var stored: String { Base64URL.encode(raw) }

    /// The `Authorization` header for a push to `endpoint`, valid until `expires` (at most 24 h ahead). A token
    /// signed for the same push service and subject is used again while it expires at most an hour before `expires`.
    public func authorization(endpoint: URL, subject: String, expires: Date) throws -> String {
        guard let scheme = endpoint.scheme, let host = endpoint.host else { throw PushEncryption.Failure(description: "the endpoint has no origin") }
        let origin = "\(scheme)://\(host)" + (endpoint.port.map { ":\($0)" } ?? "")
        let name = origin + " " + subject
        if let kept = tokens.token(for: name, validUntil: expires.addingTimeInterval(-3600)) { return kept }
        let header = Base64URL.encode(Data(#"{"typ":"JWT","alg":"ES256"}"#.utf8))
        let claims = try JSONSerialization.data(withJSONObject: ["aud": origin, "exp": Int(expires.timeIntervalSince1970), "sub": subject],
                                                options: [.sortedKeys, .withoutEscapingSlashes])
        let signingInput = header + "." + Base64URL.encode(claims)
        let signature = try Self.key(raw).signature(for: Data(signingInput.utf8))
        let value = "vapid t=\(signingInput).\(Base64URL.encode(signature.rawRepresentation)), k=\(publicKey)"
        tokens.keep(value, for: name, expires: expires)
        return value
    }
}

/// The VAPID tokens a key has signed, by push service and subject, with when each expires.
private final class SignedTokens: Sendable {
    private let kept = Mutex<[String: (value: String, expires: Date)]>([:])

    func token(for name: String, validUntil: Date) -> String? {
        kept.withLock { tokens in tokens[name].flatMap { $0.expires >= validUntil ? $0.value : nil } }
    }

    func keep(_ value: String, for name: String, expires: Date) {
        kept.withLock { tokens in
            // Push services are few; a key that met many (a test) starts again rather than grow.
            if tokens.count >= 1_000 { tokens.removeAll() }
            tokens[name] = (value, expires)
        }
    }
}

/// A push subscription as the browser gives it (`PushSubscription.toJSON()`).
public struct PushSubscription: Sendable, Hashable, Codable {
    public var endpoint: String
    public var p256dh: String
    public var auth: String

    public init(endpoint: String, p256dh: String, auth: String) { self.endpoint = endpoint; self.p256dh = p256dh; self.auth = auth }
}

/// One push, ready to POST: the encrypted body and the headers RFC 8030 and 8292 ask for.
public struct PushRequest: Sendable, Hashable {
    public var url: URL
    public var headers: [String: String]
    public var body: Data

    /// `ttl`: how long the push service may keep it, in seconds. `urgency`: "high" for an alert that must wake a phone.
    public init(_ payload: Data, to subscription: PushSubscription, key: VAPIDKey, subject: String, now: Date = Date(),
                ttl: Int = 300, urgency: String = "high") throws {
        guard let url = URL(string: subscription.endpoint), url.scheme == "https" || url.scheme == "http" else {
            throw PushEncryption.Failure(description: "the subscription's endpoint is not an http(s) URL")
        }
        self.url = url
        body = try PushEncryption.encrypt(payload, p256dh: subscription.p256dh, auth: subscription.auth)
        headers = [
            "Content-Type": "application/octet-stream",
            "Content-Encoding": "aes128gcm",
            "TTL": String(ttl),
            "Urgency": urgency,
            "Authorization": try key.authorization(endpoint: url, subject: subject, expires: now.addingTimeInterval(12 * 3600)),
        ]
    }
}
