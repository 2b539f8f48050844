import Crypto
import Foundation

/// Web Push message encryption (RFC 8291) in the `aes128gcm` content coding (RFC 8188):
/// an ephemeral ECDH key with the subscription's P-256 key, HKDF keyed by its auth
/// secret, one AES-128-GCM record. Written on swift-crypto: there is no Web Push package.
public enum PushEncryption {
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
    }

    /// The record size written in the header; one record holds any payload Web Push allows (4 KiB less overhead).
    static let recordSize: UInt32 = 4096

    /// Encrypts `payload` for a subscription's keys (`p256dh`: its 65-byte public key, `auth`: its
    /// 16-byte secret, both base64url). `salt` and `localKey` are random unless a test fixes them.
    public static func encrypt(_ payload: Data, p256dh: String, auth: String, salt: Data? = nil,
                               localKey: P256.KeyAgreement.PrivateKey? = nil) throws(Failure) -> Data {
        guard let uaPublicBytes = Base64URL.decode(p256dh), uaPublicBytes.count == 65,
              let uaPublic = try? P256.KeyAgreement.PublicKey(x963Representation: uaPublicBytes) else {
            throw Failure(description: "the subscription's p256dh is not a P-256 public key")
        }
        guard let authSecret = Base64URL.decode(auth), authSecret.count == 16 else {
            throw Failure(description: "the subscription's auth secret is not 16 bytes")
        }
        guard payload.count <= Int(recordSize) - 16 - 1 - 86 else { throw Failure(description: "the payload is larger than one Web Push message") }
        let asKey = localKey ?? P256.KeyAgreement.PrivateKey()
        let asPublic = asKey.publicKey.x963Representation
        let salt = salt ?? Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        guard let shared = try? asKey.sharedSecretFromKeyAgreement(with: uaPublic) else { throw Failure(description: "key agreement failed") }
        // RFC 8291 §3.4: IKM from the ECDH secret, keyed by the auth secret, bound to both public keys.
        let keyInfo = Data("WebPush: info".utf8) + [0] + uaPublicBytes + asPublic
        let ikm = shared.withUnsafeBytes { secret in
            HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: Data(secret)), salt: authSecret, info: keyInfo, outputByteCount: 32)
        }
        // RFC 8188 §2.2: the content key and nonce from the salt.
        let prk = HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: salt)
        let cek = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: Data("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonceBytes = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: Data("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        // One record, the last: the payload then the delimiter 0x02, no padding.
        let plaintext = payload + [2]
        let sealed: AES.GCM.SealedBox
        do {
            sealed = try AES.GCM.seal(plaintext, using: cek, nonce: try AES.GCM.Nonce(data: nonceBytes.withUnsafeBytes { Data($0) }))
        } catch {
            throw Failure(description: "encryption failed")
        }
        var header = salt
        withUnsafeBytes(of: recordSize.bigEndian) { header.append(contentsOf: $0) }
        header.append(UInt8(asPublic.count))
        header.append(asPublic)
        return header + sealed.ciphertext + sealed.tag
    }
}
