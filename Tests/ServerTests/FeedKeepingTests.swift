import API
import App
import DataSources
import Foundation
import GTFSRealtime
import GTFSSource
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import Logging
import NIOCore
import OnwardCore
import OnwardTesting
import Server
import SwiftProtobuf
import Synchronization
import Testing
import ZIPFoundation

/// A server given the URL of a city's GTFS keeps itself current: Halifax's real feed served over
/// HTTP on this machine as version 1, then a version 2 made here (every trip renamed, the calendars
/// cut short), then a broken version 3, each swapped in (or refused) while the server runs.
@Suite("static feeds kept current", .timeLimit(.minutes(5)), .serialized)
struct FeedKeepingTests {
    /// 2025-11-06 17:04:14 in Halifax, when the realtime capture was made.
    static let now = HalifaxServer.captured
    static let operatorToken = "operator-token-for-the-tests"

    struct Versions {
        var v1: Data, v2: Data, v3: Data
    }

    /// Version 1: Halifax as published. Version 2: every trip renamed `ID-v2` but one, dropped (`droppedTrip`), the
    /// calendars ending on 30 November instead of 16 November, and one stop renamed. Version 3: version 2 with a stop
    /// time naming a trip trips.txt lacks (a broken reference).
    static let versions = Result<Versions, any Error> {
        let v1 = try Data(contentsOf: Fixtures.gtfs("halifax-transit-2025-08"))
        let files = try unzip(v1)
        var two = files
        two["trips.txt"] = renameTrips(dropping(droppedTrip, files["trips.txt"]!, column: 2), column: 2)
        two["stop_times.txt"] = renameTrips(dropping(droppedTrip, files["stop_times.txt"]!, column: 0), column: 0)
        two["stops.txt"] = Data(String(decoding: files["stops.txt"]!, as: UTF8.self)
            .replacingOccurrences(of: "North St Before Brunswick St", with: "North St at the New Stand").utf8)
        for name in ["calendar.txt", "feed_info.txt"] {
            two[name] = Data(String(decoding: files[name]!, as: UTF8.self).replacingOccurrences(of: "20251116", with: "20251130").utf8)
        }
        var three = two
        three["stop_times.txt"]!.append(Data("no-such-trip, 5:49:00, 5:49:00,7351,1,,0,0,,1\r\n".utf8))
        return Versions(v1: v1, v2: try zip(two), v3: try zip(three))
    }

    static func unzip(_ data: Data) throws -> [String: Data] {
        let archive = try Archive(data: data, accessMode: .read)
        var files: [String: Data] = [:]
        for entry in archive {
            var bytes = Data()
            _ = try archive.extract(entry) { bytes.append($0) }
            files[entry.path] = bytes
        }
        return files
    }

    static func zip(_ files: [String: Data]) throws -> Data {
        let archive = try Archive(accessMode: .create)
        for (name, bytes) in files.sorted(by: { $0.key < $1.key }) {
            try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(bytes.count), compressionMethod: .deflate) { position, size in
                bytes.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return try #require(archive.data)
    }

    /// The first trip of route 1 (05:49 from Spring Garden), left out of version 2.
    static let droppedTrip = "3785019"

    /// The rows whose trip ID (in column `column`) is not `trip`.
    static func dropping(_ trip: String, _ csv: Data, column: Int) -> Data {
        // Split on the bytes: Swift's characters take the feed's "\r\n" as one.
        let lines = csv.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let kept = lines.filter { $0.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).dropFirst(column).first.map { Data($0) } != Data(trip.utf8) }
        #expect(kept.count < lines.count)
        return Data(kept.joined(separator: [UInt8(ascii: "\n")]))
    }

    /// Each row's trip ID (in column `column`) with `-v2` after it.
    static func renameTrips(_ csv: Data, column: Int) -> Data {
        var out = Data(capacity: csv.count + csv.count / 10)
        var first = true
        for line in csv.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            defer { first = false }
            if !out.isEmpty || !first { if !first { out.append(UInt8(ascii: "\n")) } }
            guard !first, !line.isEmpty else { out.append(contentsOf: line); continue }
            var field = 0
            for byte in line {
                if byte == UInt8(ascii: ","), field == column { out.append(contentsOf: Array("-v2".utf8)) }
                if byte == UInt8(ascii: ",") { field += 1 }
                out.append(byte)
            }
        }
        return out
    }

    /// The captured trip updates, with version 2's trip IDs.
    static let realtimeForV2 = Result<Data, any Error> {
        var message = try TransitRealtime_FeedMessage(serializedBytes: try HalifaxServer.capture.get())
        for i in message.entity.indices where message.entity[i].hasTripUpdate {
            message.entity[i].tripUpdate.trip.tripID += "-v2"
        }
        return try message.serializedData()
    }

    static func sha256(_ data: Data) -> String { Poller.digest(data) }

    static func reply(_ body: Data, etag: String) -> RecordedResponseServer.Reply {
        RecordedResponseServer.Reply(headers: ["ETag": etag], body: body)
    }

    static func quietLogger() -> Logger {
        var l = Logger(label: "onward-feed-keeping-test")
        l.logLevel = .critical
        return l
    }

    static func configuration(_ upstream: RecordedResponseServer, dataDir: String) -> ServeConfiguration {
        var config = ServeConfiguration()
        config.port = 0
        config.dataDir = dataDir
        config.feeds = ["halifax=" + upstream.url("/halifax/gtfs.zip").absoluteString]
        config.realtime = ["halifax=" + upstream.url("/halifax/trip-updates.pb").absoluteString]
        // One poll at the start: the swap must re-apply what it fetched, not wait for the next.
        config.pollInterval = 3600
        config.maxAge = 86_400
        // Checks only when the operator asks, so the test decides when.
        config.feedRefresh = 0
        config.operatorToken = operatorToken
        return config
    }

    static func timetable(_ client: some TestClientProtocol) async throws -> SourcesDTO.UpstreamDTO {
        let sources = try PeopleAPITests.decode(try await PeopleAPITests.send(client, .get, "/api/v1/sources"), as: SourcesDTO.self)
        return try #require(sources.sources.flatMap(\.upstreams).first { $0.name == "halifax/timetable" })
    }

    static func refresh(_ client: some TestClientProtocol) async throws -> FeedRefreshDTO {
        let r = try await PeopleAPITests.send(client, .post, "/api/v1/feeds/refresh", token: operatorToken)
        #expect(r.status == .ok)
        return try PeopleAPITests.decode(r, as: FeedRefreshDTO.self)
    }

    @Test("version 2 replaces version 1 while the server runs; live data, a board socket and a commute follow it; version 3 is refused")
    func swapsVersions() async throws {
        let versions = try Self.versions.get()
        try await RecordedResponseServer.run { upstream in
            upstream.route(.get, "/halifax/gtfs.zip", replies: [Self.reply(versions.v1, etag: "\"v1\""), .status(304)])
            upstream.route(.get, "/halifax/trip-updates.pb", reply: .init(body: try Self.realtimeForV2.get()))
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let config = Self.configuration(upstream, dataDir: folder.path)
            let built = try await ServerApplication.build(config, logger: Self.quietLogger(), now: { Self.now })
            let realtime = "halifax/127.0.0.1/trip-updates.pb"
            let oldTrip = try await built.application.test(.live) { client in
                #expect(String(buffer: try await PeopleAPITests.send(client, .get, "/maps/transit.geojson").body).contains("North St Before Brunswick St"))
                let first = try await Self.timetable(client)
                #expect(first.version?.hash == Self.sha256(versions.v1))
                #expect(first.state == "fresh")
                #expect(first.version?.lastDate == "2025-11-16" && first.version?.publisherVersion == "2025_08_August_20250814")
                // The realtime feed speaks of version 2's trips: none matches version 1.
                try await ScaleOutTests.wait(built.store) { ($0.sources[realtime]?.successes ?? 0) > 0 }
                #expect(built.store.current.realtime.reports[realtime]?.matchedTrips == 0)
                // What the same capture, with its own IDs, matches on version 1: what version 2 must match.
                var original = RealtimeState()
                original.apply(try RealtimeFeed.decode(try HalifaxServer.capture.get(), source: "capture"), source: "capture",
                               timetable: built.store.current.timetable, idPrefix: "halifax:", now: Self.now)
                let matchable = try #require(original.reports["capture"]?.matchedTrips)
                #expect(matchable > 400)

                // A commute in progress on version 1, and a board watched live.
                let started = try await PeopleAPITests.send(client, .post, "/api/v1/commutes",
                                                            #"{"from": "halifax:7605", "to": "halifax:6780", "date": "2025-11-06", "time": "17:05"}"#)
                #expect(started.status == .created)
                let commute = try PeopleAPITests.decode(started, as: CommuteDTO.self)
                let commuteID = try #require(commute.id)
                let oldTrip = try #require(commute.journey.legs.compactMap(\.tripId).first)
                // A saved route: a board, and on its stack the commute's train.
                let person = try await PeopleAPITests.signUp(client, "operator_of_nothing")
                let saved = try await PeopleAPITests.send(client, .post, "/api/v1/me/routes",
                                                          #"{"version": 0, "route": {"kind": "board", "stopId": "halifax:7605"}}"#, token: person)
                let routeID = try #require(try PeopleAPITests.decode(saved, as: SavedRoutes.self).currentRouteId)
                let pushed = try await PeopleAPITests.send(client, .post, "/api/v1/me/routes/\(routeID)/stack",
                                                           #"{"version": 1, "route": {"kind": "service", "tripId": "\#(oldTrip)", "serviceDate": "2025-11-06"}}"#,
                                                           token: person)
                #expect(pushed.status == .ok)
                let before = try PeopleAPITests.decode(try await PeopleAPITests.send(client, .get, "/api/v1/me/routes", token: person), as: SavedRoutes.self)

                let answered = Mutex<FeedRefreshDTO?>(nil)
                _ = try await client.ws("/live?board=halifax:7605&limit=5") { inbound, _, _ in
                    var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                    guard case .text(let before)? = try await messages.next() else { Issue.record("no first board"); return }
                    #expect(!before.contains("-v2"))
                    // Only the operator may ask for a check.
                    #expect(try await PeopleAPITests.send(client, .post, "/api/v1/feeds/refresh").status == .unauthorized)
                    #expect(try await PeopleAPITests.send(client, .post, "/api/v1/feeds/refresh", token: "a-wrong-token-of-some-length").status == .unauthorized)
                    upstream.route(.get, "/halifax/gtfs.zip", replies: [Self.reply(versions.v2, etag: "\"v2\""), .status(304)])
                    let answer = try await Self.refresh(client)
                    // The board socket hears the new timetable without asking: its departures are version 2's trips.
                    var after = ""
                    while !after.contains("-v2") {
                        guard case .text(let text)? = try await messages.next() else { break }
                        after = text
                    }
                    #expect(after.contains("halifax:") && after.contains("-v2"))
                    answered.withLock { $0 = answer }
                }
                let refreshed = try #require(answered.withLock { $0 })
                #expect(refreshed.accepted)
                #expect(refreshed.timetables.first?.version?.hash == Self.sha256(versions.v2))
                #expect(refreshed.timetables.first?.version?.lastDate == "2025-11-30")
                // Live data was applied to version 2 at once, from the message fetched before: no new poll.
                #expect(upstream.requestCount("/halifax/trip-updates.pb") == 1)
                #expect(built.store.current.realtime.reports[realtime]?.matchedTrips == matchable)

                // The map's transit layer is version 2's.
                let map = String(buffer: try await PeopleAPITests.send(client, .get, "/maps/transit.geojson").body)
                #expect(map.contains("North St at the New Stand") && !map.contains("North St Before Brunswick St"))
                // A dropped trip's ID is a clear state, naming the version that dropped it.
                let gone = try await PeopleAPITests.send(client, .get, "/api/v1/services/halifax:\(Self.droppedTrip)?date=2025-11-06")
                #expect(gone.status == .gone)
                let problem = try PeopleAPITests.problem(gone)
                #expect(problem.code == "no-longer-scheduled")
                #expect(problem.detail.contains(String(Self.sha256(versions.v2).prefix(12))))
                // A renamed trip (it runs as before under a new ID) answers as the new one, with its live times.
                let renamed = try await PeopleAPITests.send(client, .get, "/api/v1/services/\(oldTrip)?date=2025-11-06")
                #expect(renamed.status == .ok)
                let service = try PeopleAPITests.decode(renamed, as: ServiceDTO.self)
                #expect(service.tripId == oldTrip + "-v2")
                #expect(service.calls.contains { $0.expectedDeparture != nil })
                #expect(try await PeopleAPITests.send(client, .get, "/api/v1/services/\(oldTrip)-v2?date=2025-11-06").status == .ok)
                // The saved route is as it was; its board answers from version 2, and the train on its stack is a clear state.
                let after = try PeopleAPITests.decode(try await PeopleAPITests.send(client, .get, "/api/v1/me/routes", token: person), as: SavedRoutes.self)
                #expect(after == before)
                let board = try await PeopleAPITests.send(client, .get, "/api/v1/stops/halifax:7605/departures?date=2025-11-06&time=17:00")
                #expect(board.status == .ok && String(buffer: board.body).contains("-v2"))
                // The commute goes on, and its clock's next step (each second) takes its train's live times under the train's new ID.
                var going: CommuteDTO
                let deadline = ContinuousClock.now + .seconds(10)
                repeat {
                    let still = try await PeopleAPITests.send(client, .get, "/api/v1/commutes/\(commuteID)")
                    #expect(still.status == .ok)
                    going = try PeopleAPITests.decode(still, as: CommuteDTO.self)
                    if going.journey.legs.first(where: { $0.tripId == oldTrip })?.expectedDeparture != nil { break }
                    try await Task.sleep(for: .milliseconds(100))
                } while ContinuousClock.now < deadline
                #expect(going.status == "active")
                #expect(going.journey.legs.first { $0.tripId == oldTrip }?.expectedDeparture != nil)

                // Unchanged: a conditional request answered 304, nothing imported.
                let again = try await Self.refresh(client)
                #expect(!again.accepted)
                let conditional = try #require(upstream.requests.last { $0.path == "/halifax/gtfs.zip" })
                #expect(conditional.headers["if-none-match"] == "\"v2\"")

                // Version 3 is refused with its reason; version 2 keeps serving, and health says so.
                upstream.route(.get, "/halifax/gtfs.zip", replies: [Self.reply(versions.v3, etag: "\"v3\"")])
                let refused = try await Self.refresh(client)
                #expect(!refused.accepted)
                let state = try await Self.timetable(client)
                #expect(state.version?.hash == Self.sha256(versions.v2))
                #expect(state.state == "failing")
                #expect(state.detail?.contains("no-such-trip") == true)
                let health = try JSONSerialization.jsonObject(with: Data(try await PeopleAPITests.send(client, .get, "/health/ready").body.readableBytesView))
                #expect((health as? [String: Any])?["status"] as? String == "degraded")
                let metrics = String(buffer: try await PeopleAPITests.send(client, .get, "/metrics").body)
                #expect(metrics.contains(#"onward_feed_refusals{source="halifax/timetable"} 1"#))
                #expect(try await PeopleAPITests.send(client, .get, "/api/v1/services/\(oldTrip)-v2?date=2025-11-06").status == .ok)
                return oldTrip
            }
            await built.storage.close()

            // A restart serves the kept version 2 at once, though the URL now fails.
            upstream.route(.get, "/halifax/gtfs.zip", reply: .status(503))
            let before = upstream.requestCount("/halifax/gtfs.zip")
            let restarted = try await ServerApplication.build(config, logger: Self.quietLogger(), now: { Self.now })
            #expect(restarted.store.current.served.versions.map(\.hash) == [Self.sha256(versions.v2)])
            #expect(restarted.store.current.served.retired[oldTrip] != nil)
            #expect(upstream.requestCount("/halifax/gtfs.zip") == before)
            await restarted.storage.close()
        }
    }
}

/// Two servers on one PostgreSQL, given the same feed URL: the leader fetches, stores the version and
/// announces it; the other loads it from the database and never asks the agency; when the leader stops
/// in the middle of a fetch, the other takes the lead and brings the new version in.
@Suite("static feeds shared by two servers", .timeLimit(.minutes(5)), .serialized, .enabled(if: TestPostgres.enabled, TestPostgres.skipped))
struct SharedFeedTests {
    /// The real fetcher, counting what it is asked for.
    final class CountingFetcher: HTTPFetching {
        let base = URLSessionFetcher()
        let paths = Mutex<[String]>([])
        func fetch(_ request: DataSources.HTTPRequest) async throws(SourceError) -> DataSources.HTTPResponse {
            paths.withLock { $0.append(request.url.path) }
            return try await base.fetch(request)
        }
        func count(_ path: String) -> Int { paths.withLock { $0.count { $0 == path } } }
    }

    static func served(_ built: ServerApplication.Built) -> String? { built.store.current.served.versions.first?.hash }

    /// Two servers' settings on one database, each with its own data folder, with the realtime feed version 2's trips follow.
    static func configurations(_ upstream: RecordedResponseServer, _ url: String, _ a: TemporaryFolder,
                               _ b: TemporaryFolder) throws -> (ServeConfiguration, ServeConfiguration) {
        upstream.route(.get, "/halifax/trip-updates.pb", reply: .init(body: try FeedKeepingTests.realtimeForV2.get()))
        var configA = FeedKeepingTests.configuration(upstream, dataDir: a.path)
        configA.databaseURL = url
        var configB = configA
        configB.dataDir = b.path
        return (configA, configB)
    }

    @Test("the leader fetches and stores; the other serves the same version without asking the agency, and takes over mid-fetch")
    func leaderAndFollower() async throws {
        let versions = try FeedKeepingTests.versions.get()
        let (v1, v2) = (FeedKeepingTests.sha256(versions.v1), FeedKeepingTests.sha256(versions.v2))
        let gtfs = "/halifax/gtfs.zip"
        try await TestPostgres.withDatabaseURL { url in
            try await RecordedResponseServer.run { upstream in
                upstream.route(.get, gtfs, replies: [FeedKeepingTests.reply(versions.v1, etag: "\"v1\""), .status(304)])
                let folderA = try TemporaryFolder(), folderB = try TemporaryFolder()
                defer { folderA.remove(); folderB.remove() }
                let (configA, configB) = try Self.configurations(upstream, url, folderA, folderB)
                let fetcherA = CountingFetcher(), fetcherB = CountingFetcher()
                let a = try await ServerApplication.build(configA, logger: FeedKeepingTests.quietLogger(), fetcher: fetcherA, now: { FeedKeepingTests.now })
                #expect(Self.served(a) == v1 && fetcherA.count(gtfs) == 1)
                let (stopA, stopANow) = AsyncStream<Void>.makeStream()
                let runningA = Task {
                    try await a.application.test(.router) { _ in for await _ in stopA { break } }
                }
                // B starts on what A stored: the agency is not asked.
                let b = try await ServerApplication.build(configB, logger: FeedKeepingTests.quietLogger(), fetcher: fetcherB, now: { FeedKeepingTests.now })
                #expect(Self.served(b) == v1)
                #expect(fetcherB.count(gtfs) == 0)
                try await b.application.test(.router) { client in
                    // An operator asks B; B passes it to A, which fetches version 2; B loads it from the database.
                    upstream.route(.get, gtfs, replies: [FeedKeepingTests.reply(versions.v2, etag: "\"v2\""), .status(304)])
                    let asked = ContinuousClock.now
                    let answer = try await FeedKeepingTests.refresh(client)
                    #expect(answer.forwarded && !answer.accepted)
                    try await ScaleOutTests.wait(a.store) { _ in Self.served(a) == v2 }
                    try await ScaleOutTests.wait(b.store) { _ in Self.served(b) == v2 }
                    let took = ContinuousClock.now - asked
                    #expect(took < .seconds(20), "both served version 2 after \(took)")
                    #expect(fetcherB.count(gtfs) == 0)
                    // B's live data was re-applied to version 2 at once, as A's was.
                    #expect((b.store.current.realtime.reports.values.first?.matchedTrips ?? 0) > 400)

                    // A stops in the middle of fetching version 3 (a slow answer); B takes the lead and fetches it.
                    var files3 = try FeedKeepingTests.unzip(versions.v2)
                    files3["agency.txt"] = Data(String(decoding: files3["agency.txt"]!, as: UTF8.self)
                        .replacingOccurrences(of: "Halifax Transit", with: "Halifax Transit (v3)").utf8)
                    let v3 = try FeedKeepingTests.zip(files3)
                    upstream.route(.get, gtfs, replies: [FeedKeepingTests.reply(v3, etag: "\"v3\"").delayed(by: .seconds(3)),
                                                         FeedKeepingTests.reply(v3, etag: "\"v3\"")])
                    let before = fetcherA.count(gtfs)
                    // Asked through B, A starts fetching version 3, slowly; then A stops.
                    #expect(try await FeedKeepingTests.refresh(client).forwarded)
                    while fetcherA.count(gtfs) == before { try await Task.sleep(for: .milliseconds(20)) }
                    stopANow.finish()
                    try await runningA.value
                    try await ScaleOutTests.wait(b.store) { _ in Self.served(b) == FeedKeepingTests.sha256(v3) }
                    #expect(fetcherB.count(gtfs) >= 1)
                }
                await a.storage.close()
                await b.storage.close()
            }
        }
    }

    @Test("two servers starting together with nothing kept: the agency is asked once, and both serve what it answered")
    func coldStartTogether() async throws {
        let versions = try FeedKeepingTests.versions.get()
        let gtfs = "/halifax/gtfs.zip"
        try await TestPostgres.withDatabaseURL { url in
            try await RecordedResponseServer.run { upstream in
                upstream.route(.get, gtfs, reply: FeedKeepingTests.reply(versions.v1, etag: "\"v1\""))
                let folderA = try TemporaryFolder(), folderB = try TemporaryFolder()
                defer { folderA.remove(); folderB.remove() }
                let (configA, configB) = try Self.configurations(upstream, url, folderA, folderB)
                let fetcherA = CountingFetcher(), fetcherB = CountingFetcher()
                async let startingA = ServerApplication.build(configA, logger: FeedKeepingTests.quietLogger(), fetcher: fetcherA, now: { FeedKeepingTests.now })
                async let startingB = ServerApplication.build(configB, logger: FeedKeepingTests.quietLogger(), fetcher: fetcherB, now: { FeedKeepingTests.now })
                let (a, b) = try await (startingA, startingB)
                #expect(fetcherA.count(gtfs) + fetcherB.count(gtfs) == 1)
                #expect(Self.served(a) == FeedKeepingTests.sha256(versions.v1) && Self.served(b) == Self.served(a))
                await a.storage.close()
                await b.storage.close()
            }
        }
    }
}
