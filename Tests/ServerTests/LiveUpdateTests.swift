import Foundation
import GTFSSource
import HTTPTypes
import Hummingbird
import NIOCore
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import HummingbirdWebSocket
import OnwardCore
import Testing
import Transit

@Suite("Live updates over WebSocket")
struct LiveUpdateTests {
    @Test("a board subscriber gets the current state at once, then the new state when realtime data is applied")
    func boardUpdates() async throws {
        let store = try TestServer.store()
        let app = TestServer.app(TestServer.deps(store))
        _ = try await app.test(.live) { client in
            try await client.ws("/live?board=SLBB&limit=5") { inbound, _, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                let first = try #require(try await messages.next())
                guard case .text(let text) = first else { Issue.record("not text"); return }
                let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
                #expect(json["type"] as? String == "board")
                #expect((json["board"] as? [String: Any])?["departures"] != nil)
                // New realtime data: the simulation ten minutes later changes delays.
                store.update { $0.applySimulation(at: TestServer.now.adding(seconds: 600)) }
                let second = try #require(try await messages.next())
                guard case .text(let text2) = second else { Issue.record("not text"); return }
                #expect(text2 != text)
                let json2 = try #require(try JSONSerialization.jsonObject(with: Data(text2.utf8)) as? [String: Any])
                #expect(json2["type"] as? String == "board")
            }
        }
    }

    @Test("a board page for a later time subscribes for that time, and the subscription answers for it")
    func fixedMomentBoard() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        let at = "at=2026-11-23T18%3A00%3A00%2B07%3A00"
        try await app.test(.router) { client in
            try await client.execute(uri: "/stops/SLBB?date=2026-11-23&time=18:00", method: .get) { r in
                #expect(String(buffer: r.body).contains("data-live=\"board=mrt-jakarta%3ASLBB&amp;kind=departures&amp;\(at)&amp;"))
            }
        }
        _ = try await app.test(.live) { client in
            try await client.ws("/live?board=SLBB&limit=3&\(at)") { inbound, _, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                guard case .text(let text) = try #require(try await messages.next()) else { Issue.record("not text"); return }
                let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
                let departures = try #require((json["board"] as? [String: Any])?["departures"] as? [[String: Any]])
                #expect(departures.count == 3)
                // Not the 08:00 "now" of the test clock: the first departures from 18:00 Jakarta time.
                #expect(departures.allSatisfy { ($0["scheduledDeparture"] as? String ?? "") >= "2026-11-23T18:00:00+07:00" })
                #expect(departures.allSatisfy { ($0["scheduledDeparture"] as? String ?? "") < "2026-11-23T18:30:00+07:00" })
            }
        }
    }

    @Test("an unknown stop gets an error message, not a dropped connection")
    func unknownStop() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        _ = try await app.test(.live) { client in
            try await client.ws("/live?service=NOPE") { inbound, _, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                guard case .text(let text) = try #require(try await messages.next()) else { Issue.record("not text"); return }
                #expect(text.contains(#""code":"trip-not-found""#))
            }
        }
    }

    @Test("a page from another origin may not subscribe")
    func originChecked() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.router) { client in
            try await client.execute(uri: "/live?board=SLBB", method: .get,
                                     headers: [.origin: "http://evil.example"]) { r in
                #expect(r.status == .forbidden)
                #expect(String(decoding: r.body.readableBytesView, as: UTF8.self).contains("origin-not-allowed"))
            }
            // A client that is not a browser (no http origin) is not refused.
            try await client.execute(uri: "/live?board=SLBB", method: .get) { r in
                #expect(r.status != .forbidden)
            }
        }
    }
}
