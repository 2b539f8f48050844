import API
import App
import Foundation
import GTFSSource
import GTFSRealtime
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InMemoryLogging
import Logging
import OnwardCore
import OnwardTesting
import Server
import Services
import Storage
import StorageSQLite
import SwiftProtobuf
import Testing
import Timetable
import Transit

/// The data folder keeps each realtime source's last good feed: a restarted
/// server shows it, stale by its real age, before (or without) a new fetch.
@Suite("saved realtime feeds", .enabled(if: Fixtures.hasSharedData, "needs ../shared/data"), .timeLimit(.minutes(5)))
struct SavedFeedTests {
    typealias H = HalifaxServer

    @Test("a fetched feed is kept; a restarted server whose source fails starts with it, stale by its real age")
    func restartWithFailingSource() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let capture = try H.capture.get()
        let fetchedAt = H.captured.adding(seconds: 30)
        let (logger, log) = H.logger()

        let first = try await ServerApplication.build(try H.configuration(dataDir: folder.path), logger: logger,
                                                      fetcher: await H.serving(capture), now: { fetchedAt })
        try await H.run(first, until: { $0.sources[H.source]?.successes == 1 })
        let expected = RealtimeFeedRecord(source: H.source, payload: capture, fetchedAt: fetchedAt, feedTimestamp: H.captured)
        #expect(try await SQLiteStore(directory: folder.path).realtimeFeeds.all() == [expected])

        // Five minutes after the capture was made, upstream is down.
        let later = H.captured.adding(seconds: 300)
        let failing = await H.failing()
        let second = try await ServerApplication.build(try H.configuration(dataDir: folder.path), logger: logger, fetcher: failing,
                                                       now: { later })
        // Restored while building, so before the server listens or polls.
        #expect(await failing.requests.isEmpty)
        let health = try #require(second.store.current.sources[H.source])
        #expect(health.lastSuccess == fetchedAt && health.feedTimestamp == H.captured && health.age(at: later) == 300)
        try expectLateBus(await Queries(second.sources, now: later).board(.init(stopID: "8184", windowMinutes: 30)))
        var settings = ServerDependencies.Settings()
        settings.rateLimit = .init(ratePerSecond: 1000, burst: 1000)
        let deps = TestServer.deps(sources: second.sources, settings: settings, now: { later })
        try await TestServer.app(deps).test(.router) { client in
            let source = try await readiness(client)
            #expect(source["status"] as? String == "stale")
            #expect(source["lastSuccess"] as? String == "2025-11-06T21:04:44+00:00")
            #expect(source["ageSeconds"] as? Int == 300)
        }

        // The failed fetch is reported, and the restored data stays, with its original times.
        try await H.run(second, until: { $0.sources[H.source]?.failures == 1 }) { client in
            let source = try await readiness(client)
            #expect(source["status"] as? String == "failing")
            #expect(source["lastSuccess"] as? String == "2025-11-06T21:04:44+00:00")
            #expect(source["ageSeconds"] as? Int == 300)
            #expect(source["lastError"] as? String == "connection refused")
            // The source's URL carries a key: no page, metric or log may show it.
            for path in ["/health/ready", "/metrics", "/api/v1/sources", "/api/v1/stops/8184/departures?window=30", "/stops/8184"] {
                try await client.execute(uri: path, method: .get) { r in
                    #expect(!String(buffer: r.body).contains("SECRET-KEY"), "\(path)")
                    #expect(!String(buffer: r.body).contains("rt.example.org/halifax"), "\(path)")
                }
            }
            try await client.execute(uri: "/api/v1/stops/8184/departures?window=30", method: .get) { r in
                #expect(r.status == .ok)
                let board = try JSONDecoder().decode(BoardDTO.self, from: Data(r.body.readableBytesView))
                try expectLateBus(board)
                #expect(board.live?.unavailable == ["\(H.source): connection refused"])
            }
        }
        #expect(try await SQLiteStore(directory: folder.path).realtimeFeeds.all() == [expected])
        #expect(!log.entries.contains { "\($0.message) \($0.metadata)".contains("SECRET-KEY") })
    }

    /// Trip 3790518 (route 4) runs 287 s late at stop 8184 in the capture, which is stale five minutes on.
    func expectLateBus(_ board: BoardDTO) throws {
        let live = try #require(board.live)
        #expect(live.stale && !live.simulated)
        #expect(live.updatedAt == "2025-11-06T21:04:14+00:00")
        let late = try #require(board.departures?.first { $0.tripId == "halifax:3790518" })
        #expect(late.scheduledDeparture == "2025-11-06T17:14:00-04:00")
        #expect(late.expectedDeparture == "2025-11-06T17:18:47-04:00")
        #expect(late.delaySeconds == 287)
    }

    func readiness(_ client: any TestClientProtocol) async throws -> [String: Any] {
        try await client.execute(uri: "/health/ready", method: .get) { r in
            let body = try #require(try JSONSerialization.jsonObject(with: Data(r.body.readableBytesView)) as? [String: Any])
            let sources = try #require(body["sources"] as? [[String: Any]])
            return try #require(sources.first { $0["name"] as? String == H.source })
        }
    }

    @Test("a feed without a timestamp of its own is restored as old as its fetch, not as new as the start")
    func restoredWithoutHeaderTime() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var message = try TransitRealtime_FeedMessage(serializedBytes: try H.capture.get())
        message.header.clearTimestamp()
        let fetchedAt = H.captured.adding(seconds: 30)
        let payload: Data = try message.serializedBytes()
        try await SQLiteStore(directory: folder.path).realtimeFeeds.save(RealtimeFeedRecord(source: H.source, payload: payload, fetchedAt: fetchedAt))
        let later = fetchedAt.adding(seconds: 600)
        let built = try await ServerApplication.build(try H.configuration(dataDir: folder.path), logger: H.logger().0,
                                                      fetcher: await H.failing(), now: { later })
        let state = built.store.current
        #expect(state.sources[H.source]?.age(at: later) == 600)
        #expect(state.realtime.overlay.tripUpdatesTimestamp == fetchedAt)
        let board = try await Queries(built.sources, now: later).board(.init(stopID: "8184", windowMinutes: 30))
        #expect(board.live?.stale == true)
        #expect(board.departures?.first { $0.tripId == "halifax:3790518" }?.expectedDeparture == "2025-11-06T17:18:47-04:00")
    }

    @Test("a saved feed that no longer decodes is ignored with a warning; other sources' records are left alone")
    func undecodableAndUnconfigured() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let repository = try SQLiteStore(directory: folder.path).realtimeFeeds
        let other = RealtimeFeedRecord(source: "https://rt.example.org/no-longer-configured.pb", payload: try H.capture.get(),
                                       fetchedAt: H.captured)
        try await repository.save(other)
        try await repository.save(RealtimeFeedRecord(source: H.source, payload: Data("<html>maintenance</html>".utf8), fetchedAt: H.captured))
        let (logger, log) = H.logger()
        let fetchedAt = H.captured.adding(seconds: 60)
        let built = try await ServerApplication.build(try H.configuration(dataDir: folder.path), logger: logger,
                                                      fetcher: await H.serving(try H.capture.get()), now: { fetchedAt })
        let restored = built.store.current
        #expect(restored.sources[H.source]?.lastSuccess == nil)
        #expect(restored.realtime.overlay.tripUpdatesTimestamp == nil)
        #expect(restored.sources[other.source] == nil)
        let warning = try #require(log.entries.first { $0.message.description.contains("no longer decodes") })
        #expect(warning.level == .warning && warning.metadata["source"] == .string(H.source))

        // The next good fetch replaces it; the other source's record is untouched.
        try await H.run(built, until: { $0.sources[H.source]?.successes == 1 })
        #expect(try await repository.all() == [
            RealtimeFeedRecord(source: H.source, payload: try H.capture.get(), fetchedAt: fetchedAt, feedTimestamp: H.captured), other,
        ].sorted { $0.source < $1.source })
    }

    @Test("simulated live data is never saved")
    func simulationNotSaved() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let built = try await ServerApplication.build(try H.configuration(dataDir: folder.path, simulate: true), logger: H.logger().0,
                                                      fetcher: FakeHTTPFetcher())
        // Only the simulation's sources are configured: wait until each has delivered.
        try await H.run(built, until: { state in !state.sources.isEmpty && state.sources.values.allSatisfy { $0.successes > 0 } })
        #expect(try await SQLiteStore(directory: folder.path).realtimeFeeds.all().isEmpty)
    }

    @Test("a data folder whose onward.sqlite is not a database stops the start, naming the file, and keeps it")
    func unreadableDatabase() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("onward.sqlite")
        let garbage = Data(repeating: 0x42, count: 8192)
        try garbage.write(to: file)
        let error = try await #require(throws: StorageError.self) {
            try await ServerApplication.build(try HalifaxServer.configuration(dataDir: folder.path, simulate: true), logger: HalifaxServer.logger().0,
                                              fetcher: FakeHTTPFetcher())
        }
        #expect(error.code == .unreadable)
        #expect(error.description.contains(file.path), "\(error)")
        #expect(try Data(contentsOf: file) == garbage)
    }
}
