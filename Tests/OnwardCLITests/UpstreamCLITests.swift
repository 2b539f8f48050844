import API
import App
import DataSources
import Foundation
import OnwardCore
import OnwardTesting
import Testing
import Transit

/// The CLI reads the same configuration as `onward serve` (here, the environment) and answers
/// through the same query layer: for the same question, the same answer as the API.
@Suite("Upstream sources in the CLI", .enabled(if: RecordedUpstreams.available, "../shared/data is missing"))
struct UpstreamCLITests {
    static let token = "TOKEN-SECRET-123"
    static let key = "KEY-SECRET-456"

    func withUpstreams(_ body: (RecordedResponseServer, [String: String]) async throws -> Void) async throws {
        try await RecordedResponseServer.run { upstream in
            try RecordedUpstreams.routes(on: upstream)
            try await body(upstream, RecordedUpstreams.environment(upstream, token: Self.token, key: Self.key))
        }
    }

    @Test("board --json equals the query layer's answer, which the API sends; the text board names the source")
    func sameAnswerAsTheAPI() async throws {
        try await withUpstreams { upstream, env in
            var config = ServeConfiguration()
            config.nationalRailToken = Self.token
            config.nationalRailURL = env["ONWARD_NATIONAL_RAIL_URL"]!
            config.ctaKey = Self.key
            config.ctaURL = env["ONWARD_CTA_URL"]!
            let queries = Queries(ProtocolSources.registry(config, fetcher: URLSessionFetcher()), now: .now())
            for stop in ["national-rail:ECR", "cta:15895"] {
                let cli = try OnwardExecutable.run(["board", stop, "--json"], environment: env)
                #expect(cli.status == 0, "\(cli.stderr)")
                let fromCLI = try JSONDecoder().decode(BoardDTO.self, from: Data(cli.stdout.utf8))
                let fromAPI = try await queries.board(.init(stopID: stop))
                #expect(fromCLI == fromAPI, "\(stop)")
                #expect(!cli.stdout.contains(Self.token) && !cli.stdout.contains(Self.key))
            }
            let text = try OnwardExecutable.run(["board", "national-rail:ECR", "--limit", "3"], environment: env)
            #expect(text.stdout.contains("Departures from East Croydon") && text.stdout.contains("live from national-rail"))
            #expect(text.stdout.contains("calling at South Croydon"))
            #expect(text.stdout.contains("lifts are out of order"))
        }
    }

    @Test("service, alerts, stops, routes and sources for upstream sources")
    func otherCommands() async throws {
        try await withUpstreams { _, env in
            let board = try OnwardExecutable.run(["board", "ECR", "--json"], environment: env)
            let trip = try #require(try JSONDecoder().decode(BoardDTO.self, from: Data(board.stdout.utf8)).departures?.first?.tripId)
            let service = try OnwardExecutable.run(["service", trip], environment: env)
            #expect(service.status == 0 && service.stdout.contains("portion to Tattenham Corner"), "\(service.stderr)")
            let alerts = try OnwardExecutable.run(["alerts", "--stop", "national-rail:ECR"], environment: env)
            #expect(alerts.stdout.contains("Line closed between Lingfield and East Grinstead"))
            let stops = try OnwardExecutable.run(["stops", "--search", "york", "--json"], environment: env)
            #expect(try JSONDecoder().decode(StopsDTO.self, from: Data(stops.stdout.utf8)).stops.first?.id == "national-rail:YRK")
            let routes = try OnwardExecutable.run(["routes", "cta:22", "--direction", "Northbound", "--json"], environment: env)
            #expect(try JSONDecoder().decode(RouteDetailDTO.self, from: Data(routes.stdout.utf8)).stops?.count == 86)
            let sources = try OnwardExecutable.run(["sources"], environment: env)
            #expect(sources.stdout.contains("national-rail") && sources.stdout.contains("cta"))
            #expect(![board, service, alerts, stops, routes, sources].contains { ($0.stdout + $0.stderr).contains(Self.token) })
        }
    }

    @Test("a live-only source refuses another time with a reason; an unconfigured source says what to set; a bad token is the operator's")
    func refusals() async throws {
        try await withUpstreams { _, env in
            let time = try OnwardExecutable.run(["board", "cta:15895", "--time", "10:00"], environment: env)
            #expect(time.status != 0 && time.stderr.contains("predictions for now only"))
            var without = env
            without["ONWARD_CTA_KEY"] = ""
            let missing = try OnwardExecutable.run(["board", "cta:15895"], environment: without)
            #expect(missing.status != 0 && missing.stderr.contains("ONWARD_CTA_KEY"))
            var bad = env
            bad["ONWARD_NATIONAL_RAIL_TOKEN"] = "invalid"
            let refused = try OnwardExecutable.run(["board", "national-rail:ECR"], environment: bad)
            #expect(refused.status != 0 && refused.stderr.contains("refused the access token"), "\(refused.stderr)")
            #expect(!refused.stderr.contains("127.0.0.1"))
        }
    }
}
