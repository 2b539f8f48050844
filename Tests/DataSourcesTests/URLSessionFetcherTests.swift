import DataSources
import Foundation
import OnwardCore
import Testing

@Suite(.enabled(if: LocalServer.python3 != nil, "python3 is missing: no local HTTP server to test URLSessionFetcher against"),
       .timeLimit(.minutes(1)))
struct URLSessionFetcherTests {
    @Test func aConditionalRefetchOfAnUnchangedFileIs304() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onward-http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let body = Data((0..<2000).map { UInt8($0 % 251) })
        try body.write(to: folder.appendingPathComponent("feed.pb"))
        let server = try LocalServer.files(in: folder)
        defer { server.stop() }

        let fetcher = URLSessionFetcher()
        var conditional = ConditionalRequest()
        let first = try await fetcher.fetch(conditional.applied(to: HTTPRequest(url: server.url("feed.pb"), timeout: .seconds(5))))
        #expect(first.status == 200)
        #expect(first.body == body)
        #expect(first.headers["last-modified"] != nil)

        conditional.remember(first)
        let request = conditional.applied(to: HTTPRequest(url: server.url("feed.pb"), timeout: .seconds(5)))
        #expect(request.headers["If-Modified-Since"] == first.headers["last-modified"])
        let second = try await fetcher.fetch(request)
        #expect(second.status == 304)
        #expect(second.body.isEmpty)
    }

    @Test func anErrorStatusIsAResponseNotAThrow() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onward-http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try LocalServer.files(in: folder)
        defer { server.stop() }

        let response = try await URLSessionFetcher().fetch(HTTPRequest(url: server.url("missing.pb"), timeout: .seconds(5)))
        #expect(response.status == 404)
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let server = try LocalServer.silent()
        defer { server.stop() }
        let started = ContinuousClock.now
        do {
            let response = try await URLSessionFetcher().fetch(HTTPRequest(url: server.url("feed.pb"), timeout: .seconds(1)))
            Issue.record("expected a timeout, got HTTP \(response.status)")
        } catch {
            #expect(error.code == .timeout)
        }
        // Honoured, not the URLSession default of 60 s: the bound is just below that. The margin is
        // wide because a full parallel test run on two cores can hold up the sleeping task that
        // ends the request (11–13 s here once, 32.8 s in one run).
        #expect(ContinuousClock.now - started < .seconds(55))
    }

    @Test func aRefusedConnectionIsANetworkError() async throws {
        let server = try LocalServer.silent()
        let url = server.url("feed.pb")
        server.stop()  // nothing listens on the port now
        do {
            _ = try await URLSessionFetcher().fetch(HTTPRequest(url: url, timeout: .seconds(5)))
            Issue.record("expected a network error")
        } catch {
            #expect(error.code == .network)
        }
    }

    @Test func aPollerOverTheRealFetcherAppliesOnceThenSeesNotModified() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onward-http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("feed v1".utf8).write(to: folder.appendingPathComponent("alerts.pb"))
        let server = try LocalServer.files(in: folder)
        defer { server.stop() }

        let sink = Sink()
        let poller = Poller(location: .url(server.url("alerts.pb")), fetcher: URLSessionFetcher()) { try await sink.apply($0) }
        #expect(await poller.pollOnce().isSuccess)
        #expect(await poller.pollOnce().isNotModified)
        #expect(await sink.offered == ["feed v1"])
    }
}
