import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Server
import Services
import Testing

/// Behind a load balancer: who the client is (only a trusted proxy may say), and rate limits by that
/// client or by signed-in session, so one proxy's address does not throttle everyone behind it.
@Suite("client address behind proxies")
struct ClientOriginTests {
    @Test("the client is the peer, unless the peer is a trusted proxy; then the nearest untrusted address in the chain")
    func whoIsTheClient() throws {
        let proxies = try TrustedProxies(["127.0.0.1", "10.0.0.0/8", "fd00::/8"])
        func client(_ peer: String, _ fields: [(String, String)]) -> String {
            var headers = HTTPFields()
            for (name, value) in fields { headers.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
            return proxies.client(peer: peer, headers: headers)
        }
        // Not a proxy: its headers say nothing.
        #expect(client("203.0.113.9", [("X-Forwarded-For", "198.51.100.1")]) == "203.0.113.9")
        // Through nginx (10.0.0.2): the client it saw.
        #expect(client("10.0.0.2", [("X-Forwarded-For", "198.51.100.1")]) == "198.51.100.1")
        // A client's own made-up address on the left is skipped: the address nginx appended is read from the right.
        #expect(client("10.0.0.2", [("X-Forwarded-For", "1.2.3.4, 198.51.100.1")]) == "198.51.100.1")
        // Two trusted hops.
        #expect(client("127.0.0.1", [("X-Forwarded-For", "198.51.100.1, 10.1.1.1")]) == "198.51.100.1")
        // RFC 7239, with a port and IPv6 in brackets; IPv4-mapped IPv6 peers are IPv4.
        #expect(client("::ffff:10.0.0.2", [("Forwarded", #"for="[2001:db8:cafe::17]:4711";proto=https, for=10.0.0.7"#)]) == "2001:db8:cafe::17")
        #expect(client("fd00::1", [("Forwarded", "for=192.0.2.60:80;proto=http")]) == "192.0.2.60")
        // An address the proxy could not give: the proxy is the client.
        #expect(client("10.0.0.2", [("Forwarded", "for=unknown")]) == "10.0.0.2")
        // No header: the proxy itself.
        #expect(client("10.0.0.2", []) == "10.0.0.2")
        #expect(throws: TrustedProxies.ParseError.self) { _ = try TrustedProxies(["10.0.0.0/33"]) }
        #expect(throws: TrustedProxies.ParseError.self) { _ = try TrustedProxies(["nginx"]) }
    }

    static func app(trusting proxies: [String]) throws -> some ApplicationProtocol {
        let trusted = try TrustedProxies(proxies)
        return TestServer.app(try PeopleAPITests.deps().replacing(settings: {
            $0.rateLimit = .init(ratePerSecond: 0.01, burst: 2)
            $0.trustedProxies = trusted
        }))
    }

    static func get(_ client: some TestClientProtocol, forwardedFor: String?, token: String? = nil) async throws -> HTTPResponse.Status {
        var headers = HTTPFields()
        if let forwardedFor { headers[HTTPField.Name("X-Forwarded-For")!] = forwardedFor }
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.execute(uri: "/api/v1/stops?q=blok", method: .get, headers: headers).status
    }

    @Test("behind a trusted proxy each client has its own limit; from an untrusted peer a made-up X-Forwarded-For changes nothing")
    func limitsPerClient() async throws {
        try await Self.app(trusting: ["127.0.0.1", "::1"]).test(.live) { client async throws in
            for _ in 0..<2 { #expect(try await Self.get(client, forwardedFor: "198.51.100.1") == .ok) }
            #expect(try await Self.get(client, forwardedFor: "198.51.100.1") == .tooManyRequests)
            // Another client behind the same proxy is not throttled by the first.
            #expect(try await Self.get(client, forwardedFor: "198.51.100.2") == .ok)
        }
        try await Self.app(trusting: []).test(.live) { client async throws in
            for _ in 0..<2 { #expect(try await Self.get(client, forwardedFor: "198.51.100.1") == .ok) }
            #expect(try await Self.get(client, forwardedFor: "198.51.100.2") == .tooManyRequests)
        }
    }

    @Test("a signed-in session has its own limit; made-up tokens are charged to their address")
    func limitsPerSession() async throws {
        try await Self.app(trusting: []).test(.live) { client async throws in
            // Signing up spends one of the address's two.
            let ana = try await PeopleAPITests.signUp(client, "ana")
            for _ in 0..<2 { #expect(try await Self.get(client, forwardedFor: nil, token: ana) == .ok) }
            #expect(try await Self.get(client, forwardedFor: nil, token: ana) == .tooManyRequests)
            // The address still has one: a made-up token is answered 401 and spends it (and its own bucket's).
            let made = try await client.execute(uri: "/api/v1/me", method: .get, headers: [.authorization: "Bearer made-up-1"])
            #expect(made.status == .unauthorized)
            #expect(try await Self.get(client, forwardedFor: nil) == .tooManyRequests)
            #expect(try await client.execute(uri: "/api/v1/me", method: .get, headers: [.authorization: "Bearer made-up-2"]).status == .unauthorized)
            #expect(try await client.execute(uri: "/api/v1/me", method: .get, headers: [.authorization: "Bearer made-up-3"]).status == .unauthorized)
        }
    }

    @Test("the session cookie is Secure when a trusted proxy says the client came over HTTPS, not when anyone else says so")
    func secureCookieOnlyFromTrustedProxy() async throws {
        let form = "username=ana&password=correct+horse+battery&displayName=Ana"
        for (trusted, expectSecure) in [(["127.0.0.1", "::1"], true), ([], false)] {
            try await Self.app(trusting: trusted).test(.live) { client async throws in
                let r = try await client.execute(uri: "/signup", method: .post,
                                                 headers: [.contentType: "application/x-www-form-urlencoded", HTTPField.Name("X-Forwarded-Proto")!: "https"],
                                                 body: ByteBuffer(string: form))
                let cookie = try #require(r.headers[.setCookie])
                #expect(cookie.contains("onward_session="))
                #expect(cookie.contains("Secure") == expectSecure)
            }
        }
    }
}
