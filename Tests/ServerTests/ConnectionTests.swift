import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Server
import Synchronization
import Testing

/// What a hostile or careless client sends, over a real socket to a live server.
@Suite("Connections and methods")
struct ConnectionTests {
    func upgrade(_ path: String, port: Int, origin: String?) -> [UInt8] {
        RawSocket.request("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            + (origin.map { "Origin: \($0)\r\n" } ?? "") + "\r\n")
    }

    static func complete(_ text: String) -> Bool {
        guard let end = text.range(of: "\r\n\r\n") else { return false }
        let head = text[..<end.lowerBound].lowercased()
        guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
              let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) else { return head.contains(" 101 ") }
        return text[end.upperBound...].utf8.count >= length
    }

    @Test("a WebSocket from a page of another origin, null or a file is refused with 403 and a problem", arguments: [
        "null", "file://", "http://evil.example", "https://127.0.0.1.evil.example",
    ])
    func foreignOrigin(origin: String) async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let answer = try await RawSocket.exchange(port: port, send: upgrade("/live?board=SLBB", port: port, origin: origin),
                                                      until: Self.complete)
            #expect(answer.text.hasPrefix("HTTP/1.1 403"), "\(answer.text.prefix(200))")
            #expect(answer.text.lowercased().contains("content-type: application/problem+json"))
            #expect(answer.text.contains(#""code":"origin-not-allowed""#))
            #expect(!answer.text.contains("departures"))
        }
    }

    @Test("the server's own pages may subscribe; so may a client that sends no Origin")
    func ownOrigin() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            for origin in ["http://127.0.0.1:\(port)", nil] {
                let answer = try await RawSocket.exchange(port: port, send: upgrade("/live?board=SLBB&limit=1", port: port, origin: origin),
                                                          until: { $0.contains("departures") })
                #expect(answer.text.hasPrefix("HTTP/1.1 101"), "\(origin ?? "no origin"): \(answer.text.prefix(200))")
                #expect(answer.text.contains("departures"))
            }
        }
    }

    @Test("a WebSocket with an impossible date is refused with 400 and a problem naming it")
    func liveBadDate() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let answer = try await RawSocket.exchange(port: port, send: upgrade("/live?service=NS-WD-LBB-BHI-028&date=2025-02-30", port: port,
                                                                                origin: "http://127.0.0.1:\(port)"), until: Self.complete)
            #expect(answer.text.hasPrefix("HTTP/1.1 400"), "\(answer.text.prefix(200))")
            #expect(answer.text.contains(#""parameter":"date""#))
        }
    }

    @Test("a request target with raw non-ASCII bytes, or a 100 KB request line, gets 400 and the connection is closed", arguments: [
        [UInt8]("GET /stops/".utf8) + [0xC3, 0xA9] + [UInt8](" HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
        [UInt8]("GET /stops/\(String(repeating: "a", count: 100_000)) HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
        [UInt8]("GET /\u{1}x HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
    ])
    func unreadableRequest(bytes: [UInt8]) async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.live) { client in
            let answer = try await RawSocket.exchange(port: try #require(client.port), send: bytes)
            #expect(answer.text.hasPrefix("HTTP/1.1 400"), "\(answer.text.prefix(200))")
            #expect(answer.closed)
        }
    }

    @Test("a connection that sends nothing, or nothing more after a request, is closed")
    func idleConnections() async throws {
        let limits = ConnectionLimits(firstRequestTimeout: .milliseconds(300), idleTimeout: .milliseconds(300))
        let app = TestServer.app(TestServer.deps(try TestServer.store()), limits: limits)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let silent = try await RawSocket.exchange(port: port, send: [])
            #expect(silent.closed)
            #expect(silent.text.isEmpty)
            let partial = try await RawSocket.exchange(port: port, send: RawSocket.request("GET /health/live HTTP/1.1\r\nHo"))
            #expect(partial.closed)
            let oneRequest = try await RawSocket.exchange(port: port, send: RawSocket.request("GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n"))
            #expect(oneRequest.text.hasPrefix("HTTP/1.1 200"))
            #expect(oneRequest.closed)
        }
    }

    @Test("a path asked with a method it does not have gets 405 with Allow and a problem", arguments: [
        ("/api/v1/stops", HTTPRequest.Method.delete, "GET"), ("/stops/SLBB", .post, "GET"), ("/api/v1/stops/SLBB/departures", .put, "GET"),
        ("/live", .post, "GET"),
    ])
    func methodNotAllowed(path: String, method: HTTPRequest.Method, allow: String) async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.router) { client in
            try await client.execute(uri: path, method: method) { r in
                #expect(r.status == .methodNotAllowed)
                #expect(r.headers[.allow] == allow)
                #expect(r.headers[.contentType] == "application/problem+json")
                let p = try JSONDecoder().decode(Problem.self, from: Data(r.body.readableBytesView))
                #expect(p.code == "method-not-allowed")
                #expect(p.requestId == r.headers[HTTPField.Name("X-Request-Id")!])
            }
            // A path that does not exist is still 404, whatever the method.
            try await client.execute(uri: "/api/v1/nothing", method: method) { r in
                #expect(r.status == .notFound)
            }
        }
    }

    @Test("each request is logged at info: method, path without the query, status, duration and request ID")
    func accessLog() async throws {
        let lines = LogLines()
        var logger = Logger(label: "test") { _ in CapturingLogHandler(lines: lines) }
        logger.logLevel = .info
        let app = TestServer.app(TestServer.deps(try TestServer.store()), logger: logger)
        try await app.test(.router) { client in
            try await client.execute(uri: "/api/v1/stops?q=secret", method: .get, headers: [HTTPField.Name("X-Request-Id")!: "abc-123"]) { r in
                #expect(r.status == .ok)
            }
            try await client.execute(uri: "/stops/NOPE", method: .get) { r in #expect(r.status == .notFound) }
        }
        let logged = lines.all
        let first = try #require(logged.first { $0.contains("GET /api/v1/stops ") })
        #expect(first.hasPrefix("info GET /api/v1/stops 200 "))
        // Milliseconds to a tenth: "200 0.4 ms".
        #expect(first.firstMatch(of: /\ 200 [0-9]+\.[0-9] ms/) != nil)
        #expect(first.contains("request.id=abc-123"))
        #expect(!first.contains("secret"))
        #expect(logged.contains { $0.hasPrefix("info GET /stops/NOPE 404 ") && $0.contains("request.id=") })
    }
}

final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    func append(_ line: String) { lines.withLock { $0.append(line) } }
}

/// Keeps each log line as "level message key=value…".
struct CapturingLogHandler: LogHandler {
    let lines: LogLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = self.metadata.merging(event.metadata ?? [:]) { $1 }
        let text = "\(event.level) \(event.message) " + all.keys.sorted().map { "\($0)=\(all[$0]!)" }.joined(separator: " ")
        lines.append(text)
    }
}
