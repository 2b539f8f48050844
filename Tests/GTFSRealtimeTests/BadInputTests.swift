import DataSources
import Foundation
import GTFS
import GTFSRealtime
import OnwardCore
import OnwardTesting
import SwiftProtobuf
import Testing
import Timetable
import App
import GTFSSource

// Truncated, garbage and empty inputs give a clear error and keep the previous state.

/// One trip T1: A 08:00, B 08:10, in UTC, every day of 2025.
private func smallTimetable() throws -> Timetable {
    try InlineFeed.load(timeZone: "UTC", [
        "stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon
            A,Alpha,40.0,-74.0
            B,Bravo,40.01,-74.0
            """,
        "routes.txt": """
            route_id,agency_id,route_short_name,route_long_name,route_type
            R,A,1,Line One,3
            """,
        "trips.txt": """
            route_id,service_id,trip_id
            R,DAILY,T1
            """,
        "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,08:00:00,08:00:00,A,1
            T1,08:10:00,08:10:00,B,2
            """,
        "calendar.txt": """
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            DAILY,1,1,1,1,1,1,1,20250101,20251231
            """,
    ]).timetable
}

/// 2025-06-02 07:30 UTC.
private let applied = Instant(epochSeconds: Int64(ServiceDate(iso: "2025-06-02")!.dayNumber) * 86_400 + 7 * 3600 + 30 * 60)

/// A valid FULL_DATASET message: T1 two minutes late from A. Several entities, so cutting it lands inside one.
private func goodMessage() -> TransitRealtime_FeedMessage {
    var m = TransitRealtime_FeedMessage()
    m.header.gtfsRealtimeVersion = "2.0"
    m.header.timestamp = UInt64(applied.epochSeconds)
    for i in 0..<3 {
        var u = TransitRealtime_TripUpdate()
        u.trip.tripID = i == 0 ? "T1" : "OTHER\(i)"
        u.trip.startDate = "20250602"
        var s = TransitRealtime_TripUpdate.StopTimeUpdate()
        s.stopSequence = 1
        s.departure.delay = 120
        u.stopTimeUpdate = [s]
        var e = TransitRealtime_FeedEntity()
        e.id = "e\(i)"
        e.tripUpdate = u
        m.entity.append(e)
    }
    return m
}

private func goodBytes() throws -> Data { try goodMessage().serializedData() }

/// Decoding that must fail: returns the error, or records an issue.
private func decodeError(_ bytes: Data, source: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> SourceError? {
    do {
        _ = try RealtimeFeed.decode(bytes, source: source)
        Issue.record("\(source) decoded without an error", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// Never called: these tests read files only.
private struct NoNetwork: HTTPFetching {
    func fetch(_ request: HTTPRequest) async throws(SourceError) -> HTTPResponse {
        throw SourceError(.network, "no network in tests")
    }
}

@Suite("GTFS-Realtime bad inputs")
struct BadInputTests {
    @Test("the good message decodes (so the failures below are about the bytes)")
    func goodDecodes() throws {
        let m = try RealtimeFeed.decode(try goodBytes(), source: "good.pb")
        #expect(m.entityCount == 3)
        #expect(m.version == "2.0")
    }

    @Test("empty input: undecodable, saying it is empty")
    func empty() throws {
        let e = try #require(decodeError(Data(), source: "empty.pb"))
        #expect(e.code == .undecodable)
        #expect(e.message.contains("empty.pb"))
        #expect(e.message.contains("empty"))
    }

    @Test("garbage input: undecodable, naming the source and its size", arguments: [
        Data("<html><body>502 Bad Gateway</body></html>".utf8),
        Data([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
        Data("{\"header\": {\"gtfs_realtime_version\": \"2.0\"}}".utf8),
    ])
    func garbage(_ bytes: Data) throws {
        let e = try #require(decodeError(bytes, source: "garbage.pb"))
        #expect(e.code == .undecodable)
        #expect(e.message.contains("garbage.pb"))
        #expect(e.message.contains("\(bytes.count) bytes"))
    }

    @Test("truncated input: undecodable", arguments: [0.25, 0.5, 0.9])
    func truncated(_ fraction: Double) throws {
        let whole = try goodBytes()
        let cut = whole.prefix(Int(Double(whole.count) * fraction))
        let e = try #require(decodeError(Data(cut), source: "truncated.pb"))
        #expect(e.code == .undecodable)
        #expect(e.message.contains("truncated.pb"))
    }

    @Test("a real capture cut in half: undecodable", .enabled(if: Fixtures.hasSharedData, "needs ../shared/data"))
    func truncatedCapture() throws {
        let url = Fixtures.sharedData.appendingPathComponent("gtfs-rt/caltrain/ct-trip-updates-2023-11-08T0105Z.pb")
        let whole = try Data(contentsOf: url)
        #expect(whole.count == 7813)
        let e = try #require(decodeError(Data(whole.prefix(whole.count / 2)), source: "ct-half.pb"))
        #expect(e.code == .undecodable)
    }

    @Test("a message without a header is not a GTFS-Realtime feed")
    func noHeader() throws {
        var m = goodMessage()
        m.clearHeader()
        let e = try #require(decodeError(try m.serializedData(partial: true), source: "headless.pb"))
        #expect(e.code == .undecodable)
        // header is a proto2 required field: SwiftProtobuf rejects the bytes (missingRequiredFields) before
        // RealtimeFeed's own "has no feed header" check is reached.
        #expect(e.message.contains("headless.pb"))
    }

    @Test("read once through the network's one apply path: bad files are recorded per feed, never thrown, and the overlay stays as the good file left it")
    func readOnceKeepsState() async throws {
        let tt = try smallTimetable()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("onward-badinput-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = try goodBytes()
        let files: [(String, Data)] = [
            ("good.pb", whole), ("empty.pb", Data()), ("garbage.pb", Data("not protobuf at all".utf8)),
            ("truncated.pb", Data(whole.prefix(whole.count / 2))),
        ]
        for (name, data) in files { try data.write(to: dir.appendingPathComponent(name)) }
        let path = { (name: String) in dir.appendingPathComponent(name).path }
        let missing = path("missing.pb")
        func read(_ inputs: [String]) async throws -> (state: NetworkState, failed: [String: SourceError]) {
            let network = try GTFSNetwork.open(Network.Loaded(timetable: tt, origin: "test"), options: .init(realtime: inputs),
                                               fetcher: NoNetwork(), now: { applied })
            let failed = await network.readOnce(now: applied)
            return (network.store.current, Dictionary(uniqueKeysWithValues: failed.map { ($0.name, $0.error) }))
        }

        let goodOnly = try await read([path("good.pb")]).state
        let (state, failed) = try await read([path("good.pb"), path("empty.pb"), path("garbage.pb"), path("truncated.pb"), missing])
        #expect(state.sources.keys.sorted() == ["empty.pb", "garbage.pb", "good.pb", "missing.pb", "truncated.pb"])
        #expect(failed.mapValues(\.code) == ["empty.pb": .undecodable, "garbage.pb": .undecodable, "truncated.pb": .undecodable,
                                              "missing.pb": .notFound])
        #expect(failed["missing.pb"]?.message.contains("missing.pb") == true)
        let report = try #require(state.realtime.reports["good.pb"])
        #expect(report.matchedTrips == 1 && report.unknownTrips == 2)
        #expect(state.sources["good.pb"]?.lastSuccess == applied)
        // Only the good file was applied, and the overlay is exactly what it alone gives.
        #expect(state.realtime.reports.count == 1)
        #expect(state.realtime.overlay.trips == goodOnly.realtime.overlay.trips)
        #expect(state.realtime.overlay.tripUpdatesTimestamp == applied)
        let t1 = try #require(state.realtime.overlay.trips.values.first)
        #expect(t1.departure[0] == applied.epochSeconds + 30 * 60 + 120)

        // Bad files only: nothing live, nothing thrown.
        let (onlyBad, badFailures) = try await read([path("empty.pb"), missing])
        #expect(onlyBad.sources.values.allSatisfy { $0.lastSuccess == nil && $0.consecutiveFailures == 1 })
        #expect(onlyBad.realtime.overlay.trips.isEmpty)
        #expect(badFailures.mapValues(\.code) == ["empty.pb": .undecodable, "missing.pb": .notFound])
    }

    @Test("the polling loop the server runs, driven by a test clock: a good feed is applied, a failure keeps it and backs off, a recovery is recorded")
    func pollingLoopOnTheTestClock() async throws {
        let tt = try smallTimetable()
        let url = URL(string: "https://feeds.example/trip-updates.pb?key=SECRET")!
        let fetcher = FakeHTTPFetcher()
        await fetcher.stub(url, body: try goodBytes())
        let clock = TestClock()
        let network = try GTFSNetwork.open(Network.Loaded(timetable: tt, origin: "test"), options: .init(realtime: [url.absoluteString], pollInterval: 30),
                                           fetcher: fetcher, now: { applied }, clock: clock)
        let feed = try #require(network.feeds.first)
        #expect(feed.name == "feeds.example/trip-updates.pb")
        let loop = Task { await feed.run() }
        var sleeps = clock.sleeps.makeAsyncIterator()
        // The first poll is immediate; then the loop sleeps for the interval.
        #expect(await sleeps.next() == .seconds(30))
        var health = try #require(network.store.current.sources[feed.name])
        #expect(health.successes == 1 && health.lastSuccess == applied && network.store.current.realtime.reports[feed.name]?.matchedTrips == 1)
        let kept = network.store.current.realtime.overlay.trips

        // Upstream down: each retry waits a random time in a window that doubles from the base (5 s) up to the cap (300 s).
        await fetcher.stub(url, error: SourceError(.timeout, "feeds.example did not answer in time"))
        var wait = Duration.seconds(30)
        for (failures, ceiling) in [(1, 5), (2, 10), (3, 20), (4, 40)] {
            clock.advance(by: wait)
            wait = try #require(await sleeps.next())
            #expect(wait <= .seconds(ceiling), "retry \(failures) waits at most \(ceiling) s, not \(wait)")
            health = try #require(network.store.current.sources[feed.name])
            #expect(health.consecutiveFailures == failures && health.lastError?.code == .timeout)
            #expect(network.store.current.realtime.overlay.trips == kept, "the last good data stays")
        }

        // Back up: one success, and the loop waits the interval again.
        await fetcher.stub(url, body: try goodBytes())
        clock.advance(by: wait)
        #expect(await sleeps.next() == .seconds(30))
        health = try #require(network.store.current.sources[feed.name])
        #expect(health.consecutiveFailures == 0 && health.failures == 4)
        loop.cancel()
        await loop.value
        #expect(clock.pendingSleeps == 0, "cancelled, the loop waits for nothing more")
        #expect(await fetcher.requests.count == 6)
    }

    @Test("a bad fetch after a good one leaves the previous overlay as it was")
    func previousStateKept() throws {
        let tt = try smallTimetable()
        let applier = TripUpdateApplier(timetable: tt)
        let (before, _) = applier.apply(goodMessage(), now: applied)
        var overlay = before
        for bad in [Data(), Data("garbage".utf8), Data(try goodBytes().prefix(20))] {
            do {
                let m = try RealtimeFeed.decode(bad, source: "poll")
                (overlay, _) = applier.apply(m, to: overlay, now: applied)
                Issue.record("\(bad.count) bad bytes decoded")
            } catch {
                #expect(error.code == .undecodable)
            }
        }
        #expect(overlay.trips == before.trips)
        #expect(overlay.tripUpdatesTimestamp == before.tripUpdatesTimestamp)
    }
}
