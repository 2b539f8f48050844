import Crypto
import Foundation
import Testing
import WebPush

private func b64(_ s: String) -> Data {
    var t = s.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    t += String(repeating: "=", count: (4 - t.count % 4) % 4)
    return Data(base64Encoded: t)!
}

private func b64url(_ d: Data) -> String {
    d.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
}

/// Runs a Python script (the independent implementation: `http_ece`, `cryptography`) with input on stdin.
private func python(_ script: String, input: String) throws -> (status: Int32, out: String, err: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["python3", "-c", script]
    let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
    p.standardInput = stdin; p.standardOutput = stdout; p.standardError = stderr
    try p.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let out = stdout.fileHandleForReading.readDataToEndOfFile(), err = stderr.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
}

/// Whether python3 has the independent implementation. Without it the test that uses it is skipped with
/// a message, unless ONWARD_REQUIRE_PYTHON=1 (as in CI), when it runs and fails.
private let independentImplementation = (try? python("import http_ece, cryptography", input: ""))?.status == 0
    || ProcessInfo.processInfo.environment["ONWARD_REQUIRE_PYTHON"] == "1"

@Suite("Web Push: aes128gcm encryption and VAPID")
struct WebPushTests {
    @Test("RFC 8291 §5: the example message encrypts to the example's bytes")
    func rfcExample() throws {
        let asKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: b64("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"))
        let body = try PushEncryption.encrypt(Data("When I grow up, I want to be a watermelon".utf8),
                                              p256dh: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
                                              auth: "BTBZMqHH6r4Tts7J_aSIgg", salt: b64("DGv6ra1nlYgDCS1FRnbzlw"), localKey: asKey)
        #expect(b64url(body) == "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN")
    }

    @Test("a push decrypted by an independent implementation (Python http_ece), its VAPID token verified by another (cryptography)",
          .enabled(if: independentImplementation, "needs Python's http-ece and cryptography (pip install http-ece py-vapid; Scripts/test.sh installs them)"))
    func independentDecryption() throws {
        // The browser's side: its key pair and auth secret.
        let ua = P256.KeyAgreement.PrivateKey()
        let auth = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        let subscription = PushSubscription(endpoint: "https://push.example.net/send/abc123", p256dh: b64url(ua.publicKey.x963Representation), auth: b64url(auth))
        let key = VAPIDKey()
        let message = #"{"kind":"arrivingAtDestination","message":"Next stop Bundaran HI: your stop."}"#
        let request = try PushRequest(Data(message.utf8), to: subscription, key: key, subject: "mailto:ops@example.org",
                                      now: Date(timeIntervalSince1970: 1_795_395_600))
        #expect(request.headers["Content-Encoding"] == "aes128gcm")
        #expect(request.headers["TTL"] == "300")
        let script = """
            import base64, json, sys, http_ece
            from cryptography.hazmat.primitives.asymmetric import ec
            from cryptography.hazmat.primitives import hashes
            from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
            def b64(s): return base64.urlsafe_b64decode(s + '=' * (-len(s) % 4))
            d = json.load(sys.stdin)
            ua = ec.derive_private_key(int.from_bytes(b64(d['ua']), 'big'), ec.SECP256R1())
            print(http_ece.decrypt(b64(d['body']), private_key=ua, auth_secret=b64(d['auth']), version='aes128gcm').decode())
            t, k = d['authorization'][len('vapid t='):].split(', k=')
            head, claims, sig = t.split('.')
            pub = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64(k))
            raw = b64(sig)
            pub.verify(encode_dss_signature(int.from_bytes(raw[:32], 'big'), int.from_bytes(raw[32:], 'big')),
                       (head + '.' + claims).encode(), ec.ECDSA(hashes.SHA256()))
            print(json.dumps(json.loads(b64(claims)), sort_keys=True))
            """
        let input = try JSONSerialization.data(withJSONObject: ["ua": b64url(ua.rawRepresentation), "auth": b64url(auth),
                                                                "body": b64url(request.body), "authorization": request.headers["Authorization"]!])
        let result = try python(script, input: String(decoding: input, as: UTF8.self))
        #expect(result.status == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.first == message)
        // The audience is the push service's origin; the token lasts 12 hours.
        #expect(lines.last == #"{"aud": "https://push.example.net", "exp": 1795438800, "sub": "mailto:ops@example.org"}"#)
    }

    @Test("the VAPID key survives being stored; bad subscription keys are refused with a reason")
    func keysAndErrors() throws {
        let key = VAPIDKey()
        let again = try #require(VAPIDKey(stored: key.stored))
        #expect(again.publicKey == key.publicKey)
        #expect(VAPIDKey(stored: "not a key") == nil)
        #expect(throws: PushEncryption.Failure.self) { try PushEncryption.encrypt(Data("x".utf8), p256dh: "AAAA", auth: "BTBZMqHH6r4Tts7J_aSIgg") }
        #expect(throws: PushEncryption.Failure.self) {
            try PushEncryption.encrypt(Data("x".utf8), p256dh: b64url(P256.KeyAgreement.PrivateKey().publicKey.x963Representation), auth: "short")
        }
    }

    @Test("a VAPID token is signed once per push service and subject, and again when it would expire over an hour early")
    func tokensKept() throws {
        let key = VAPIDKey()
        let service = URL(string: "https://push.example.net/send/a")!, other = URL(string: "https://updates.push.example.com/b")!
        let noon = Date(timeIntervalSince1970: 1_795_395_600)
        let first = try key.authorization(endpoint: service, subject: "mailto:ops@example.org", expires: noon)
        // Another subscription on the same push service, half an hour later: the same token.
        #expect(try key.authorization(endpoint: URL(string: "https://push.example.net/send/b")!, subject: "mailto:ops@example.org",
                                      expires: noon.addingTimeInterval(1_800)) == first)
        #expect(try key.authorization(endpoint: other, subject: "mailto:ops@example.org", expires: noon) != first)
        #expect(try key.authorization(endpoint: service, subject: "mailto:other@example.org", expires: noon) != first)
        let later = try key.authorization(endpoint: service, subject: "mailto:ops@example.org", expires: noon.addingTimeInterval(3_601))
        #expect(later != first && later.contains("k=\(key.publicKey)"))
    }
}
