import API
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Server
import Testing

/// Query values as browsers and hostile clients send them.
@Suite("Query values")
struct RequestParsingTests {
    func text(_ r: TestResponse) -> String { String(decoding: r.body.readableBytesView, as: UTF8.self) }

    @Test("an impossible instant in at= is refused like an impossible date, not rolled over", arguments: [
        "2025-02-30T08:00:00%2B07:00", "2026-11-31T08:00:00Z", "2026-11-23T24:00:00%2B07:00", "2026-11-23T08:60:00%2B07:00",
        "2026-11-23T08:00:61Z", "2026-13-01T08:00:00Z",
    ])
    func impossibleAt(at: String) async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.router) { client in
            try await client.execute(uri: "/api/v1/stops/SLBB/departures?at=\(at)", method: .get) { r in
                #expect(r.status == .badRequest)
                let p = try JSONDecoder().decode(Problem.self, from: Data(r.body.readableBytesView))
                #expect(p.code == "invalid-parameter")
                #expect(p.parameter == "at")
            }
            // A real instant still works.
            try await client.execute(uri: "/api/v1/stops/SLBB/departures?at=2026-11-23T18:00:00%2B07:00&limit=1", method: .get) { r in
                #expect(r.status == .ok)
            }
        }
    }

    @Test("the service page refuses an impossible date with an error page instead of showing today's run")
    func servicePageDate() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.router) { client in
            let tripID = try await client.execute(uri: "/api/v1/stops/SLBB/departures?limit=1", method: .get) { r in
                try #require(try JSONDecoder().decode(BoardDTO.self, from: Data(r.body.readableBytesView)).departures?.first).tripId
            }
            try await client.execute(uri: "/services/\(tripID)?date=2025-02-30", method: .get) { r in
                #expect(r.status == .badRequest)
                #expect(r.headers[.contentType] == "text/html; charset=utf-8")
                #expect(!text(r).contains(tripID + "</"))
            }
            try await client.execute(uri: "/services/\(tripID)?date=2026-11-23", method: .get) { r in
                #expect(r.status == .ok)
            }
        }
    }

    @Test("a live service subscription refuses an impossible date with a 400 problem")
    func liveServiceDate() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.router) { client in
            try await client.execute(uri: "/live?service=NS-WD-LBB-BHI-028&date=2025-02-30", method: .get) { r in
                #expect(r.status == .badRequest)
                #expect(r.headers[.contentType] == "application/problem+json")
                let p = try JSONDecoder().decode(Problem.self, from: Data(r.body.readableBytesView))
                #expect(p.parameter == "date")
            }
        }
    }

    @Test("+ in a query string is a space (a form's search), %2B a plus sign")
    func plusIsSpace() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.router) { client in
            try await client.execute(uri: "/search?q=blok+m", method: .get) { r in
                let html = text(r)
                #expect(!html.contains("blok+m"))
                #expect(html.contains("<title>Results for “blok m”"))
                #expect(html.contains("<h1>Results for “blok m”</h1>"))
                #expect(html.contains(#"value="blok m""#))
                #expect(html.contains("/stops/mrt-jakarta%3ASBKM"))
            }
            try await client.execute(uri: "/api/v1/stops?q=blok+m", method: .get) { r in
                let stops = try JSONDecoder().decode(StopsDTO.self, from: Data(r.body.readableBytesView)).stops
                #expect(stops.first?.name.lowercased().contains("blok m") == true)
            }
            try await client.execute(uri: "/search?q=a%2Bb", method: .get) { r in
                #expect(text(r).contains("a+b"))
            }
        }
    }
}
