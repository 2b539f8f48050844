import API
import App
import DataSources
import Foundation
import GTFSSource
import HTTPTypes
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import NIOCore
import OnwardCore
import OnwardTesting
import Server
import Testing
import Transit

/// National Rail and the CTA bus tracker through the whole server: configuration,
/// the adapters over real HTTP to recorded answers, the query layer, the API and pages.
@Suite("Upstream sources through the server", .enabled(if: RecordedUpstreams.available, "../shared/data is missing"))
struct UpstreamSourceTests {
    static let token = "TOKEN-SECRET-123"
    static let key = "KEY-SECRET-456"

    func withServer(token: String = token, _ body: @escaping @Sendable (any TestClientProtocol, RecordedResponseServer) async throws -> Void) async throws {
        try await RecordedResponseServer.run { upstream in
            try RecordedUpstreams.routes(on: upstream)
            var config = ServeConfiguration()
            let env = RecordedUpstreams.environment(upstream, token: token, key: Self.key)
            config.nationalRailToken = env["ONWARD_NATIONAL_RAIL_TOKEN"]
            config.nationalRailURL = env["ONWARD_NATIONAL_RAIL_URL"]!
            config.ctaKey = env["ONWARD_CTA_KEY"]
            config.ctaURL = env["ONWARD_CTA_URL"]!
            let deps = TestServer.deps(try TestServer.store(), more: ProtocolSources.registry(config, fetcher: URLSessionFetcher()).sources)
            try await TestServer.app(deps).test(.router) { client in try await body(client, upstream) }
        }
    }

    func decode<T: Decodable>(_ type: T.Type, _ r: TestResponse) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(r.body.readableBytesView))
    }

    @Test("a National Rail board: rows with calling points, station messages, the source named; the ID percent-encoded or not")
    func nationalRailBoard() async throws {
        try await withServer { client, _ in
            var first: BoardDTO?
            for path in ["national-rail:ECR", "national-rail%3AECR", "ECR"] {
                try await client.execute(uri: "/api/v1/stops/\(path)/departures", method: .get) { r in
                    #expect(r.status == .ok, "\(path)")
                    let board = try decode(BoardDTO.self, r)
                    #expect(board.source == "national-rail")
                    #expect(board.stop.id == "national-rail:ECR" && board.stop.name == "East Croydon")
                    let rows = try #require(board.departures)
                    #expect(rows.count == 7)  // every service in the recording
                    #expect(rows.allSatisfy { $0.tripId.hasPrefix("national-rail:") && $0.stopId == "national-rail:ECR" })
                    #expect(rows.contains { ($0.callingAt?.count ?? 0) > 3 })
                    let messages = (board.alerts?.highPriority ?? []) + (board.alerts?.other ?? [])
                    #expect(messages.contains { $0.header?.contains("lifts are out of order") == true })
                    #expect(messages.allSatisfy { !($0.header ?? "").contains("<") })
                    #expect(board.live?.updatedAt == "2020-02-24T17:31:54+00:00")
                    if let first { #expect(board == first, "\(path)") } else { first = board }
                }
            }
            try await client.execute(uri: "/api/v1/stops/national-rail:ECR/departures?limit=3", method: .get) { r in
                let decoded = try decode(BoardDTO.self, r); #expect(decoded.departures?.count == 3)
            }
        }
    }

    @Test("a row links to its service: the service page and API answer it, with calling points")
    func nationalRailService() async throws {
        try await withServer { client, upstream in
            let tripID = try await client.execute(uri: "/api/v1/stops/national-rail:ECR/departures", method: .get) { r in
                try #require(try decode(BoardDTO.self, r).departures?.first?.tripId)
            }
            let encoded = tripID.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            try await client.execute(uri: "/api/v1/services/\(encoded)", method: .get) { r in
                #expect(r.status == .ok)
                let service = try decode(ServiceDTO.self, r)
                #expect(service.source == "national-rail")
                #expect(service.calls.count > 3)
                #expect(service.calls.allSatisfy { $0.stopId.hasPrefix("national-rail:") })
            }
            try await client.execute(uri: "/services/\(encoded)", method: .get) { r in
                #expect(r.status == .ok)
                #expect(String(buffer: r.body).contains("East Croydon"))
            }
            // One board and one service: the page reuses the API call's answer (cached for 15 s).
            #expect(upstream.requestCount("/darwin") == 2)
        }
    }

    @Test("the board page draws a National Rail board like a GTFS board, with the source named")
    func nationalRailPage() async throws {
        try await withServer { client, _ in
            try await client.execute(uri: "/stops/national-rail%3AECR", method: .get) { r in
                #expect(r.status == .ok)
                let html = String(buffer: r.body)
                #expect(html.contains("East Croydon"))
                #expect(html.contains("Calling at"))
                #expect(html.contains("Live from National Rail"))
                #expect(html.contains("lifts are out of order"))
                #expect(html.contains("/services/national-rail"))
            }
        }
    }

    @Test("a CTA stop's predictions with bulletins; no timetable time is claimed")
    func ctaBoard() async throws {
        try await withServer { client, _ in
            try await client.execute(uri: "/api/v1/stops/cta:15895/departures", method: .get) { r in
                #expect(r.status == .ok)
                let board = try decode(BoardDTO.self, r)
                #expect(board.source == "cta" && board.stop.name == "Clark & Harrison")
                let rows = try #require(board.departures)
                #expect(rows.map(\.expectedDeparture) == ["2015-02-14T12:25:00-06:00", "2015-02-14T12:35:00-06:00"])
                #expect(rows.allSatisfy { $0.scheduledDeparture == nil && $0.routeShortName == "22" && $0.headsign == "Howard" })
                #expect((board.alerts?.other.count ?? 0) + (board.alerts?.highPriority.count ?? 0) == 6)
            }
            try await client.execute(uri: "/stops/cta:15895", method: .get) { r in
                #expect(r.status == .ok)
                let html = String(buffer: r.body)
                #expect(html.contains("Clark &amp; Harrison") && html.contains("Howard") && html.contains("12:25"))
                // Made at 12:21: the rows count down from then. The bus tracker has no arrivals or calling-at filter to offer.
                #expect(html.contains(">4 min<") && html.contains(">14 min<"))
                #expect(!html.contains("arrivals=1") && !html.contains("filter-box"))
            }
            // The bus tracker has no timetable: another time is refused with a reason, not an empty board.
            try await client.execute(uri: "/api/v1/stops/cta:15895/departures?at=2015-02-14T18:00:00-06:00", method: .get) { r in
                #expect(r.status == .badRequest)
                #expect(String(buffer: r.body).contains("invalid-parameter"))
            }
        }
    }

    @Test("browse: routes, a route's directions, a direction's stops; and the configured sources")
    func browse() async throws {
        try await withServer { client, _ in
            try await client.execute(uri: "/api/v1/sources/cta/routes", method: .get) { r in
                let decoded = try decode(RoutesDTO.self, r); #expect(decoded.routes.count == 127)
            }
            try await client.execute(uri: "/api/v1/routes/cta:22", method: .get) { r in
                let decoded = try decode(RouteDetailDTO.self, r); #expect(decoded.directions?.map(\.name) == ["Northbound", "Southbound"])
            }
            try await client.execute(uri: "/api/v1/routes/cta:22/directions/Northbound/stops", method: .get) { r in
                let decoded = try decode(RouteDetailDTO.self, r); #expect(decoded.stops?.count == 86)
            }
            // The same in the web app, following each page's own links (prefixed IDs, percent-encoded).
            var next = "/sources/cta/routes"
            for (expected, linkTo) in [("Clark", "/routes/cta%3A22\""), ("Northbound", "/routes/cta%3A22/directions/Northbound\""),
                                       ("Clark &amp; Addison", "/stops/cta%3A1926\"")] {
                let page = try await client.execute(uri: next, method: .get) { r in
                    #expect(r.status == .ok, "\(next)")
                    return String(buffer: r.body)
                }
                #expect(page.contains(expected), "\(next)")
                #expect(page.contains("href=\"" + linkTo), "\(next) links to \(linkTo)")
                next = String(linkTo.dropLast())
            }
            try await client.execute(uri: "/api/v1/sources", method: .get) { r in
                let names = try decode(SourcesDTO.self, r).sources.map(\.name)
                #expect(names.contains("national-rail") && names.contains("cta"))
            }
        }
    }

    @Test("National Rail's and the bus tracker's answers match the OpenAPI document")
    func conformance() async throws {
        try await withServer { client, _ in
            let document = try await client.execute(uri: "/api/v1/openapi.json", method: .get) { r in
                try #require(try JSONSerialization.jsonObject(with: Data(r.body.readableBytesView)) as? [String: Any])
            }
            let validator = SchemaValidator(document: document)
            let tripID = try await client.execute(uri: "/api/v1/stops/national-rail:ECR/departures", method: .get) { r in
                try #require(try decode(BoardDTO.self, r).departures?.first?.tripId)
            }
            let encodedTrip = tripID.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            for (path, uri) in [("/api/v1/stops/{stopId}/departures", "/api/v1/stops/national-rail:ECR/departures"),
                                ("/api/v1/stops/{stopId}/arrivals", "/api/v1/stops/national-rail:ECR/arrivals"),
                                ("/api/v1/stops/{stopId}", "/api/v1/stops/national-rail:ECR"),
                                ("/api/v1/services/{tripId}", "/api/v1/services/\(encodedTrip)"),
                                ("/api/v1/alerts", "/api/v1/alerts?stop=national-rail:ECR"),
                                ("/api/v1/stops", "/api/v1/stops?q=york"),
                                ("/api/v1/stops/nearby", "/api/v1/stops/nearby?lat=53.958&lon=-1.093&radius=1000"),
                                ("/api/v1/stops/{stopId}/departures", "/api/v1/stops/cta:15895/departures"),
                                ("/api/v1/stops/{stopId}/departures", "/api/v1/stops/cta:15895/departures?time=03:00"),
                                ("/api/v1/sources", "/api/v1/sources"),
                                ("/api/v1/sources/{source}/routes", "/api/v1/sources/cta/routes"),
                                ("/api/v1/routes/{routeId}", "/api/v1/routes/cta:22"),
                                ("/api/v1/routes/{routeId}/directions/{direction}/stops", "/api/v1/routes/cta:22/directions/Northbound/stops")] {
                try await client.execute(uri: uri, method: .get) { r in
                    let schema = try #require(validator.responseSchema(path: path, status: Int(r.status.code)),
                                              "\(uri): status \(r.status.code) is not documented for \(path)")
                    let problems = validator.validate(try JSONSerialization.jsonObject(with: Data(r.body.readableBytesView)), against: schema)
                    #expect(problems.isEmpty, "\(uri): \(problems.prefix(5).joined(separator: "; "))")
                }
            }
        }
    }

    @Test("no answer, page, health report or metric shows a token, a key or an upstream URL")
    func secretsStaySecret() async throws {
        try await withServer { client, upstream in
            let host = upstream.url("/").host! + ":" + String(upstream.port)
            for path in ["/api/v1/stops/national-rail:ECR/departures", "/stops/national-rail:ECR", "/api/v1/stops/cta:15895/departures",
                         "/stops/cta:15895", "/api/v1/stops/cta:999999/departures", "/health/ready", "/metrics", "/api/v1/sources",
                         "/api/v1/routes/cta:22"] {
                try await client.execute(uri: path, method: .get) { r in
                    let body = String(buffer: r.body)
                    for secret in [Self.token, Self.key, host] { #expect(!body.contains(secret), "\(path) shows \(secret)") }
                }
            }
            // Each upstream is in the metrics by its name.
            try await client.execute(uri: "/metrics", method: .get) { r in
                let text = String(buffer: r.body)
                #expect(text.contains("onward_source_up{source=\"national-rail\"} 1"), "\(text.prefix(2000))")
                #expect(text.contains("onward_source_budget_remaining{source=\"cta\"}"))
            }
            // The token is sent where it belongs, in the SOAP header.
            #expect(upstream.requests.contains { String(decoding: $0.body, as: UTF8.self).contains("<TokenValue>\(Self.token)</TokenValue>") }
                || upstream.requests.contains { String(decoding: $0.body, as: UTF8.self).contains(Self.token) })
        }
    }

    @Test("a live page of a National Rail board gets the board at once and again when the answer changes")
    func liveBoard() async throws {
        try await RecordedResponseServer.run { upstream in
            try RecordedUpstreams.routes(on: upstream)
            var config = ServeConfiguration()
            config.nationalRailToken = Self.token
            config.nationalRailURL = upstream.url("/darwin").absoluteString
            let deps = TestServer.deps(try TestServer.store(), more: ProtocolSources.registry(config, fetcher: URLSessionFetcher()).sources,
                                       settings: { $0.sourceRefresh = .milliseconds(100) })
            _ = try await TestServer.app(deps).test(.live) { client in
                try await client.ws("/live?board=national-rail%3AECR&format=html", configuration: .init(maxFrameSize: 1 << 22)) { inbound, _, _ in
                    var messages = inbound.messages(maxSize: 1 << 22).makeAsyncIterator()
                    guard case .text(let text) = try #require(try await messages.next()) else { Issue.record("not text"); return }
                    let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
                    #expect(json["type"] as? String == "board")
                    #expect((json["html"] as? String)?.contains("Caterham") == true)
                    // Darwin's next answer differs: the page gets it without asking.
                    let other = Fixtures.sharedData.appendingPathComponent("darwin-ldbws/departure-board-with-details.xml")
                    upstream.route(.post, "/darwin", bodyContains: "GetDepBoardWithDetailsRequest",
                                   reply: try .file(other, contentType: "text/xml; charset=utf-8"))
                    guard case .text(let next) = try #require(try await messages.next()) else { Issue.record("not text"); return }
                    #expect(next != text)
                    #expect(!next.contains(Self.token))
                }
            }
        }
    }

    @Test("an upstream that fails makes the board unavailable (503), never a made-up or empty board")
    func upstreamFailure() async throws {
        try await RecordedResponseServer.run { upstream in
            upstream.route(.post, "/darwin", reply: .status(503))
            upstream.route(.get, "/cta/v2/getpredictions", reply: .malformed())
            upstream.route(.get, "/cta/v2/getservicebulletins", reply: .malformed())
            var config = ServeConfiguration()
            config.nationalRailToken = Self.token
            config.nationalRailURL = upstream.url("/darwin").absoluteString
            config.ctaKey = Self.key
            config.ctaURL = upstream.url("/cta/v2").absoluteString
            let deps = TestServer.deps(try TestServer.store(), more: ProtocolSources.registry(config, fetcher: URLSessionFetcher()).sources)
            try await TestServer.app(deps).test(.router) { client in
                for path in ["/api/v1/stops/national-rail:ECR/departures", "/api/v1/stops/cta:15895/departures"] {
                    try await client.execute(uri: path, method: .get) { r in
                        #expect(r.status == .serviceUnavailable, "\(path)")
                        let body = String(buffer: r.body)
                        #expect(body.contains("source-unavailable"), "\(path): \(body)")
                        #expect(!body.contains(Self.token) && !body.contains(Self.key) && !body.contains("127.0.0.1"))
                    }
                }
                try await client.execute(uri: "/stops/national-rail:ECR", method: .get) { r in
                    #expect(r.status == .serviceUnavailable)
                }
                try await client.execute(uri: "/health/ready", method: .get) { r in
                    let body = String(buffer: r.body)
                    #expect(body.contains("\"national-rail\"") && body.contains("degraded"))
                }
            }
        }
    }
}
