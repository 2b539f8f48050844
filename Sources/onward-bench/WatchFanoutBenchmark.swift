import API
import App
import Foundation
import GTFSRealtime
import OnwardCore
import OnwardTesting
import Services
import Storage
import SwiftProtobuf
import Transit
import DataSources
import Logging
import Trips
import TransitSources
import WebPush

/// `onward-bench watch`: one cancellation told to `count` people who watch the same train (the 07:45 from Lebak
/// Bulus to Bundaran HI on a Monday). The line's live data is a GTFS-Realtime file read as the server reads it;
/// every watcher's push subscription is a real P-256 key, so each push is encrypted (RFC 8291) and signed (VAPID)
/// as in production, and posted over HTTP to a push endpoint on this machine. Measured: the check (finding the
/// cancellation, the alternative, storing what each watcher was told) and the time until the last push was
/// handed to the endpoint.
enum WatchFanoutBenchmark {
    static func run(count: Int, report: Report) async throws {
        // One lane (each push after the last, as before) and the server's eight, side by side.
        for lanes in [1, 8] { try await run(count: count, lanes: lanes, report: report) }
    }

    static func run(count: Int, lanes: Int, report: Report) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let feedPath = URL(fileURLWithPath: folder.path).appendingPathComponent("trip-updates.pb").path
        let start = Instant(epochSeconds: 1_795_393_200 + 20 * 60)  // Monday 2026-11-23 07:40 in Jakarta
        let clock = TestNow(start)
        try feed(trip: nil, at: start).write(to: URL(fileURLWithPath: feedPath))
        let network = try GTFSNetwork.open(try Network.load([]), options: .init(realtime: [feedPath], maxAge: 86_400), fetcher: Fetchers.live(),
                                           now: clock.closure)
        _ = await network.readOnce(now: start)
        let sources = SourceRegistry([network.source])

        try await RecordedResponseServer.run { endpoint in
            endpoint.route(.post, "/push", reply: .status(201))
            let trips = InMemoryTripRepository()
            let sender = PushSender(key: VAPIDKey(), subject: "mailto:bench@example.org", fetcher: Fetchers.live(), allowHTTP: true,
                                    logger: .init(label: "bench"))
            let notifier = TripNotifier(repository: trips, people: InMemoryPeopleRepository(), push: sender, lanes: lanes)
            let delivering = Task { try await notifier.run() }
            defer { delivering.cancel() }
            let watches = InMemoryWatchRepository()
            let service = WatchService(repository: watches, sources: sources, notifier: notifier, now: clock.closure)

            // The first watch through the service (it finds the option); the others are its copies, one per person.
            var q = Queries.JourneyQuery(from: "mrt-jakarta:SLBB", to: "mrt-jakarta:SBHI", at: start.adding(seconds: 5 * 60))
            q.timetableOnly = true
            guard let option = try await Queries(sources, now: start).journeys(q).journeys.journeys.first, let ride = option.rides.first else {
                throw BenchError("no journey from Lebak Bulus")
            }
            let zone = TimeZone(identifier: "Asia/Jakarta")!
            let first = try await service.create(owner: "p0", WatchRequestDTO(from: "mrt-jakarta:SLBB", to: "mrt-jakarta:SBHI",
                                                                              departure: LocalTime(option.departure, in: zone).iso8601, days: ["mon"]))
            guard let template = try await watches.watches(owner: "p0").first else { throw BenchError("the watch was not stored") }
            let browserKey = VAPIDKey().publicKey
            for i in 0..<count {
                if i > 0 { _ = try await watches.save(WatchRecord(id: "w\(i)", owner: "p\(i)", state: template.state)) }
                let subscription = PushSubscription(endpoint: endpoint.url("/push").absoluteString, p256dh: browserKey,
                                                    auth: Base64URL.encode(Data((0..<16).map { UInt8(truncatingIfNeeded: $0 &+ i) })))
                try await trips.saveProfile(Profile(person: "p\(i)", push: try JSONEncoder().encode(subscription)))
            }
            log("\(count) watchers of the \(first.time)")

            // Nothing changed: a check sends nothing.
            let quiet = Stopwatch.nanos()
            let none = await service.check()
            let quietSeconds = Double(Stopwatch.nanos() - quiet) / 1e9
            guard none.isEmpty else { throw BenchError("a check with nothing new sent \(none.count) notices") }

            // The train is cancelled.
            try feed(trip: String(ride.tripID.drop { $0 != ":" }.dropFirst()), at: start.adding(seconds: 30)).write(to: URL(fileURLWithPath: feedPath))
            clock.set(start.adding(seconds: 30))
            _ = await network.readOnce(now: clock.now)
            let t0 = Stopwatch.nanos()
            let sent = await service.check()
            let checked = Double(Stopwatch.nanos() - t0) / 1e9
            guard sent.count == count else { throw BenchError("\(sent.count) notices for \(count) watchers") }
            while endpoint.requestCount("/push") < count { try await Task.sleep(for: .milliseconds(5)) }
            let last = Double(Stopwatch.nanos() - t0) / 1e9
            report.add("watch: a check with nothing new (\(count) watchers)", Format.seconds(quietSeconds))
            report.add("watch: a cancellation checked and stored for \(count) watchers", Format.seconds(checked))
            report.add("watch: the cancellation's last push handed to the endpoint (\(count) watchers, \(lanes) lane\(lanes == 1 ? "" : "s"))",
                       Format.seconds(last))
            report.note("watch: '\(sent.first?.notice.message ?? "")'")
        }
    }

    /// A trip-updates feed cancelling `trip` (nil: no entity).
    static func feed(trip: String?, at: Instant) throws -> Data {
        var m = TransitRealtime_FeedMessage()
        m.header.gtfsRealtimeVersion = "2.0"
        m.header.timestamp = UInt64(at.epochSeconds)
        if let trip {
            var e = TransitRealtime_FeedEntity()
            e.id = "cancel"
            e.tripUpdate.trip.tripID = trip
            e.tripUpdate.trip.startDate = "20261123"
            e.tripUpdate.trip.scheduleRelationship = .canceled
            m.entity = [e]
        }
        return try m.serializedData()
    }
}
