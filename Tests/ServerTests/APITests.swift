import API
import Foundation
import GTFSSource
import HTTPTypes
import Hummingbird
import NIOCore
import HummingbirdTesting
import OnwardCore
import Server
import Services
import Testing
import Transit

@Suite("JSON API")
struct APITests {
    func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(response.body.readableBytesView))
    }

    @Test("stop search, nearby stops and one stop")
    func stops() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.router) { client in
            try await client.execute(uri: "/api/v1/stops?q=lebak", method: .get) { r in
                #expect(r.status == .ok)
                #expect(r.headers[.contentType] == "application/json; charset=utf-8")
                let stops = try decode(StopsDTO.self, r).stops
                #expect(stops.first?.id == "mrt-jakarta:SLBB")
            }
            try await client.execute(uri: "/api/v1/stops/nearby?lat=-6.2892744&lon=106.7749355&radius=300", method: .get) { r in
                let stops = try decode(StopsDTO.self, r).stops
                #expect(!stops.isEmpty)
                #expect(stops.allSatisfy { ($0.distanceMetres ?? .infinity) <= 300 })
            }
            try await client.execute(uri: "/api/v1/stops/SLBB", method: .get) { r in
                let stop = try decode(StopDTO.self, r)
                #expect(stop.kind == "station")
            }
        }
    }

    @Test("a live departures board: simulated, with expected times and statuses, and the calling-at filter")
    func departures() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.router) { client in
            try await client.execute(uri: "/api/v1/stops/SLBB/departures?limit=5", method: .get) { r in
                #expect(r.status == .ok)
                let board = try decode(BoardDTO.self, r)
                #expect(board.live?.simulated == true)
                let rows = try #require(board.departures)
                #expect(rows.count == 5)
                #expect(rows.allSatisfy { $0.status != "scheduled" })
                #expect(rows.contains { $0.expectedDeparture != nil })
                // 08:00 in Jakarta: the first departure is at or after it (by its expected time).
                #expect(rows.allSatisfy { ($0.expectedDeparture ?? $0.scheduledDeparture ?? "") >= "2026-11-23T08:00:00+07:00" })
            }
            try await client.execute(uri: "/api/v1/stops/SLBB/departures?to=SBHI&window=30", method: .get) { r in
                let rows = try #require(try decode(BoardDTO.self, r).departures)
                #expect(!rows.isEmpty)
                #expect(rows.allSatisfy { $0.arrivalAtDestination != nil })
            }
            try await client.execute(uri: "/api/v1/stops/SBHI/arrivals?from=SLBB&date=2026-11-23&time=09:00&limit=3", method: .get) { r in
                let rows = try #require(try decode(BoardDTO.self, r).arrivals)
                #expect(rows.count == 3)
                #expect(rows.allSatisfy { ($0.scheduledArrival ?? "") >= "2026-11-23T08:" })
            }
        }
    }

    @Test("service details, alerts and vehicles")
    func serviceAlertsVehicles() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.router) { client in
            let tripID = try await client.execute(uri: "/api/v1/stops/SLBB/departures?limit=1", method: .get) { r in
                try #require(try decode(BoardDTO.self, r).departures?.first).tripId
            }
            try await client.execute(uri: "/api/v1/services/\(tripID)?date=2026-11-23", method: .get) { r in
                #expect(r.status == .ok)
                let s = try decode(ServiceDTO.self, r)
                #expect(s.tripId == tripID)
                #expect(s.calls.count > 5)
                #expect(s.live?.simulated == true)
            }
            try await client.execute(uri: "/api/v1/alerts", method: .get) { r in
                let a = try decode(AlertsDTO.self, r)
                #expect(!a.alerts.isEmpty)
                #expect(a.alerts.allSatisfy { $0.header?.hasPrefix("[Simulated]") == true })
            }
            try await client.execute(uri: "/api/v1/vehicles", method: .get) { r in
                let vehicles = try decode(VehiclesDTO.self, r).vehicles
                #expect(!vehicles.isEmpty)
            }
        }
    }

    @Test("journeys from A to B: live legs on the simulated network, earliest departure first, with canonical IDs")
    func journeys() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.router) { client in
            try await client.execute(uri: "/api/v1/journeys?from=SLBB&to=SBHI&date=2026-11-23&time=08:00&window=20", method: .get) { r in
                #expect(r.status == .ok)
                let answer = try decode(JourneysDTO.self, r)
                #expect(answer.from.id == "mrt-jakarta:SLBB")
                #expect(answer.to.id == "mrt-jakarta:SBHI")
                #expect(answer.journeys.count >= 3)
                #expect(answer.journeys.map(\.departure) == answer.journeys.map(\.departure).sorted())
                for j in answer.journeys {
                    #expect(j.transfers == 0)
                    let leg = try #require(j.legs.first)
                    #expect(leg.kind == "transit")
                    #expect(leg.tripId?.hasPrefix("mrt-jakarta:") == true)
                    #expect(leg.from.stopId.hasPrefix("mrt-jakarta:G"))
                    #expect(leg.serviceDate == "2026-11-23")
                    // The simulation makes every run live.
                    #expect(leg.status != "scheduled")
                    #expect(j.departure >= "2026-11-23T08:00:00+07:00")
                }
            }
            // The same place twice: no journey, and why.
            try await client.execute(uri: "/api/v1/journeys?from=SLBB&to=mrt-jakarta:SLBB", method: .get) { r in
                #expect(r.status == .ok)
                let answer = try decode(JourneysDTO.self, r)
                #expect(answer.journeys.isEmpty && answer.emptyReason == "The origin and the destination are the same place.")
            }
            // Arriving by 09:00: the last journey arrives by then.
            try await client.execute(uri: "/api/v1/journeys?from=SLBB&to=SBHI&date=2026-11-23&time=09:00&arriveBy=true&limit=1", method: .get) { r in
                let j = try #require(try decode(JourneysDTO.self, r).journeys.first)
                #expect(j.arrival <= "2026-11-23T09:00:00+07:00")
                #expect(j.arrival > "2026-11-23T08:50:00+07:00")
            }
        }
    }

    @Test("errors are problem+json with a stable code, never raw text", arguments: [
        ("/api/v1/stops/NOPE/departures", 404, "stop-not-found"),
        ("/api/v1/services/NOPE", 404, "trip-not-found"),
        ("/api/v1/stops/SLBB/departures?limit=0", 400, "invalid-parameter"),
        ("/api/v1/stops/SLBB/departures?date=23-11-2026", 400, "invalid-parameter"),
        ("/api/v1/stops/SLBB/departures?time=25:00", 400, "invalid-parameter"),
        ("/api/v1/stops?q=", 400, "invalid-parameter"),
        ("/api/v1/stops/nearby?lat=100&lon=0", 400, "invalid-parameter"),
        ("/api/v1/alerts?route=NOPE", 404, "route-not-found"),
        ("/api/v1/stops?q=blok&limit=", 400, "invalid-parameter"),
        ("/api/v1/stops/SLBB/departures?at=", 400, "invalid-parameter"),
        ("/api/v1/services/NS-WD-LBB-BHI-045?date=", 400, "invalid-parameter"),
        ("/api/v1/stops/SLBB/departures?at=2026-11-23T08:00:00Z&date=2026-02-30", 400, "invalid-parameter"),
        ("/api/v1/sources/nope/routes", 404, "source-not-found"),
        ("/api/v1/stops/nearby?lat=1&lon=1&radius=0.5", 400, "invalid-parameter"),
        ("/api/v1/journeys?from=SLBB", 400, "invalid-parameter"),
        ("/api/v1/journeys?from=SLBB&to=NOPE", 404, "stop-not-found"),
        ("/api/v1/journeys?from=SLBB&to=SBHI&maxTransfers=9", 400, "invalid-parameter"),
        ("/api/v1/journeys?from=SLBB&to=SBHI&arriveBy=maybe&time=09:00", 400, "invalid-parameter"),
        ("/api/v1/nothing-here", 404, "not-found"),
    ])
    func problems(uri: String, status: Int, code: String) async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.router) { client in
            try await client.execute(uri: uri, method: .get) { r in
                #expect(r.status.code == status)
                #expect(r.headers[.contentType] == "application/problem+json")
                let p = try decode(Problem.self, r)
                #expect(p.code == code)
                #expect(p.status == status)
                #expect(!p.detail.isEmpty)
                #expect(p.requestId == r.headers[HTTPField.Name("X-Request-Id")!])
            }
        }
    }

    @Test("a long query value is refused, naming the parameter")
    func longValue() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.router) { client in
            try await client.execute(uri: "/api/v1/stops?q=" + String(repeating: "a", count: 300), method: .get) { r in
                #expect(r.status == .badRequest)
                let p = try decode(Problem.self, r)
                #expect(p.parameter == "q")
            }
        }
    }

    @Test("a body over the limit is refused with 413, with or without Content-Length; a small one is ignored")
    func bodyLimit() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        for mode in [TestingSetup.router, .live] {
            try await app.test(mode) { client in
                let big = ByteBuffer(string: String(repeating: "x", count: 17 * 1024))
                try await client.execute(uri: "/api/v1/stops?q=blok", method: .post, body: big) { r in
                    #expect(r.status == .contentTooLarge)
                    #expect(r.headers[.contentType] == "application/problem+json")
                    let problem = try decode(Problem.self, r)
                    #expect(problem.code == "body-too-large")
                }
                // Without a length: chunked, read only up to the limit.
                try await client.execute(uri: "/api/v1/stops?q=blok", method: .post, headers: [.transferEncoding: "chunked"], body: big) { r in
                    #expect(r.status == .contentTooLarge)
                }
                try await client.execute(uri: "/api/v1/stops?q=blok", method: .get, body: ByteBuffer(string: "{}")) { r in
                    #expect(r.status == .ok)
                }
            }
        }
    }

    @Test("security headers on answers and on errors")
    func securityHeaders() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.router) { client in
            for uri in ["/api/v1/stops?q=blok", "/api/v1/stops/NOPE/departures", "/health/live"] {
                try await client.execute(uri: uri, method: .get) { r in
                    let csp = try #require(r.headers[.contentSecurityPolicy], "\(uri)")
                    #expect(csp.contains("default-src 'self'"))
                    #expect(!csp.contains("unsafe-inline"))
                    #expect(r.headers[.xContentTypeOptions] == "nosniff")
                    #expect(r.headers[HTTPField.Name("X-Request-Id")!] != nil)
                }
            }
        }
    }

    @Test("over the rate limit: 429 with Retry-After, per client")
    func rateLimit() async throws {
        // One token per 100 s: the four requests must not depend on landing within a few seconds
        // (in a full parallel run on two cores they did not, and a refill let the fourth through).
        let app = TestServer.app(TestServer.deps(try TestServer.store(), rateLimit: .init(ratePerSecond: 0.01, burst: 3)))
        try await app.test(.router) { client in
            for _ in 0..<3 {
                try await client.execute(uri: "/api/v1/stops?q=blok", method: .get) { r in #expect(r.status == .ok) }
            }
            try await client.execute(uri: "/api/v1/stops?q=blok", method: .get) { r in
                #expect(r.status == .tooManyRequests)
                #expect(Int(r.headers[HTTPField.Name("Retry-After")!] ?? "") ?? 0 >= 1)
                let p = try decode(Problem.self, r)
                #expect(p.code == "rate-limited")
            }
            // Health checks are not rate limited.
            try await client.execute(uri: "/health/live", method: .get) { r in #expect(r.status == .ok) }
        }
    }

    @Test("health: live, and ready with each realtime source's freshness; metrics in Prometheus format")
    func healthAndMetrics() async throws {
        let store = try TestServer.store()
        let app = TestServer.app(TestServer.deps(store))
        try await app.test(.router) { client in
            try await client.execute(uri: "/health/live", method: .get) { r in #expect(r.status == .ok) }
            try await client.execute(uri: "/health/ready", method: .get) { r in
                let body = try #require(try JSONSerialization.jsonObject(with: Data(r.body.readableBytesView)) as? [String: Any])
                #expect(body["status"] as? String == "ready")
                let sources = try #require(body["sources"] as? [[String: Any]])
                #expect(sources.count == 3)
                #expect(sources.allSatisfy { $0["status"] as? String == "fresh" })
            }
            try await client.execute(uri: "/api/v1/stops/SLBB/departures", method: .get) { _ in }
            try await client.execute(uri: "/metrics", method: .get) { r in
                let text = String(decoding: r.body.readableBytesView, as: UTF8.self)
                #expect(text.contains(#"onward_http_requests_total{method="GET",route="/api/v1/stops/{stopId}/departures",status="200"} 1"#))
                #expect(text.contains("onward_http_request_duration_seconds_bucket"))
                #expect(text.contains(#"onward_realtime_matched_trips{source="simulation (trip updates)"}"#))
                #expect(text.contains("onward_realtime_feed_age_seconds"))
            }
        }
        // A failing source makes the server degraded, not unready.
        store.update { $0.sources["http://example.invalid/tu.pb"] = {
            var h = SourceHealth(name: "http://example.invalid/tu.pb")
            h.consecutiveFailures = 3
            return h
        }() }
        try await app.test(.router) { client in
            try await client.execute(uri: "/health/ready", method: .get) { r in
                let body = try #require(try JSONSerialization.jsonObject(with: Data(r.body.readableBytesView)) as? [String: Any])
                #expect(body["status"] as? String == "degraded")
            }
        }
    }
}
