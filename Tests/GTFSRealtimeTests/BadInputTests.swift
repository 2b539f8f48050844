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

    @Test("through LiveData.load: bad files are recorded per source, never thrown, and the overlay stays as the good file left it")
    func liveDataKeepsState() async throws {
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

        let goodOnly = await LiveData.load([path("good.pb")], timetable: tt, fetcher: NoNetwork(), now: applied)
        let live = await LiveData.load([path("good.pb"), path("empty.pb"), path("garbage.pb"), path("truncated.pb"), missing],
                                       timetable: tt, fetcher: NoNetwork(), now: applied)
        #expect(live.sources.map(\.source) == [path("good.pb"), path("empty.pb"), path("garbage.pb"), path("truncated.pb"), missing])
        #expect(live.sources.map(\.error?.code) == [nil, .undecodable, .undecodable, .undecodable, .notFound])
        #expect(live.sources[4].error?.message.contains("missing.pb") == true)
        #expect(live.sources[0].report?.matchedTrips == 1)
        #expect(live.sources[0].report?.unknownTrips == 2)
        #expect(live.isLive)
        // Only the good file's message was kept, and the overlay is exactly what it alone gives.
        #expect(live.messages.count == 1)
        #expect(live.overlay.trips == goodOnly.overlay.trips)
        #expect(live.overlay.tripUpdatesTimestamp == applied)
        let t1 = try #require(live.overlay.trips.values.first)
        #expect(t1.departure[0] == applied.epochSeconds + 30 * 60 + 120)

        // Bad files first: still nothing live, nothing thrown.
        let onlyBad = await LiveData.load([path("empty.pb"), missing], timetable: tt, fetcher: NoNetwork(), now: applied)
        #expect(!onlyBad.isLive)
        #expect(onlyBad.overlay.trips.isEmpty)
        #expect(onlyBad.sources.map(\.error?.code) == [.undecodable, .notFound])
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
