import API
import App
import Commute
import Foundation
import GTFSRealtime
import OnwardCore
import OnwardTesting
import Services
import Storage
import SwiftProtobuf
import Testing
import Transit
import TransitSources

/// A watched journey on the bundled network, with the line's live data written in code as GTFS-Realtime and read
/// as the server reads it: a cancellation, a delay that grows, a train back on time, and the window the watch
/// is kept in. Each notice's text is asserted whole, and a second check with nothing new sends nothing.
@Suite("watched journeys on the bundled network")
struct WatchServiceTests {
    /// Monday 2026-11-23, 07:20 in Jakarta.
    static let monday0720 = Instant(epochSeconds: 1_795_393_200)
    static let zone = TimeZone(identifier: "Asia/Jakarta")!

    /// The line's live data: each trip (the feed's own ID) with its departure delay from its first stop, or cancelled.
    static func feed(_ trips: [(id: String, firstStop: String, delay: Int32?)], at moment: Instant) throws -> Data {
        var m = TransitRealtime_FeedMessage()
        m.header.gtfsRealtimeVersion = "2.0"
        m.header.incrementality = .fullDataset
        m.header.timestamp = UInt64(moment.epochSeconds)
        m.entity = trips.enumerated().map { n, t in
            var trip = TransitRealtime_TripDescriptor()
            trip.tripID = t.id
            trip.startDate = "20261123"
            var update = TransitRealtime_TripUpdate()
            if let delay = t.delay {
                var departure = TransitRealtime_TripUpdate.StopTimeEvent()
                departure.delay = delay
                var call = TransitRealtime_TripUpdate.StopTimeUpdate()
                call.stopID = t.firstStop
                call.departure = departure
                update.stopTimeUpdate = [call]
            } else {
                trip.scheduleRelationship = .canceled
            }
            update.trip = trip
            var entity = TransitRealtime_FeedEntity()
            entity.id = "e\(n)"
            entity.tripUpdate = update
            return entity
        }
        return try m.serializedData()
    }

    struct World {
        let network: GTFSNetwork
        let feedPath: String
        let clock: TestNow
        let service: WatchService
        let folder: TemporaryFolder

        /// Writes the live data and has the network read it, as of the clock.
        func live(_ trips: [(id: String, firstStop: String, delay: Int32?)]) async throws {
            try WatchServiceTests.feed(trips, at: clock.now).write(to: URL(fileURLWithPath: feedPath))
            #expect(await network.readOnce(now: clock.now).isEmpty)
        }
    }

    static func world() async throws -> World {
        let folder = try TemporaryFolder()
        let path = URL(fileURLWithPath: folder.path).appendingPathComponent("trip-updates.pb").path
        let clock = TestNow(monday0720)
        try feed([], at: monday0720).write(to: URL(fileURLWithPath: path))
        let network = try GTFSNetwork.open(try Network.load([]), options: .init(realtime: [path], maxAge: 86_400), fetcher: FakeHTTPFetcher(),
                                           now: clock.closure)
        #expect(await network.readOnce(now: monday0720).isEmpty)
        let service = WatchService(repository: InMemoryWatchRepository(), sources: SourceRegistry([network.source]), notifier: nil, now: clock.closure)
        return World(network: network, feedPath: path, clock: clock, service: service, folder: folder)
    }

    /// The timetable's journeys from Lebak Bulus to Bundaran HI leaving from `at`.
    static func options(_ w: World, at: Instant) async throws -> [Journey] {
        var q = Queries.JourneyQuery(from: "mrt-jakarta:SLBB", to: "mrt-jakarta:SBHI", at: at)
        q.windowMinutes = 30
        q.limit = 6
        q.timetableOnly = true
        return try await Queries(SourceRegistry([w.network.source]), now: w.clock.now).journeys(q).journeys.journeys
    }

    static func bare(_ id: String) -> String { String(id.drop { $0 != ":" }.dropFirst()) }
    static func clock(_ i: Instant) -> String { LocalTime(i, in: zone).hhmm }

    @Test("a cancellation is said once, with the next train; nothing before the window opens or when nothing changed")
    func cancelled() async throws {
        let w = try await Self.world()
        defer { w.folder.remove() }
        let options = try await Self.options(w, at: Self.monday0720.adding(seconds: 20 * 60))
        let (watched, next) = (options[0], options[1])
        let ride = try #require(watched.rides.first)
        let created = try await w.service.create(owner: "ana", WatchRequestDTO(
            from: "mrt-jakarta:SLBB", to: "mrt-jakarta:SBHI", departure: LocalTime(watched.departure, in: Self.zone).iso8601,
            days: ["mon", "tue", "wed", "thu", "fri"], name: "to work"))
        #expect(created.time == Self.clock(watched.departure) && created.days == ["mon", "tue", "wed", "thu", "fri"] && created.toName == "Stasiun MRT Bundaran HI Bank Jakarta")

        // Cancelled 31 minutes before it leaves: the window (30 minutes) is not open yet.
        w.clock.set(watched.departure.adding(seconds: -31 * 60))
        try await w.live([(Self.bare(ride.tripID), Self.bare(ride.from.stopID), nil)])
        #expect(await w.service.check().isEmpty)
        // The window opens: one notice, naming the next train.
        w.clock.set(watched.departure.adding(seconds: -30 * 60))
        let sent = await w.service.check()
        let later = Int((next.arrival.epochSeconds - watched.arrival.epochSeconds) / 60)
        #expect(sent.map(\.owner) == ["ana"])
        #expect(sent.first?.notice.kind == "cancelled")
        #expect(sent.first?.notice.message == "The \(Self.clock(watched.departure)) to Stasiun MRT Bundaran HI Bank Jakarta is cancelled (the \(ride.routeShortName)): "
                + "take the \(Self.clock(next.departure)), arriving \(Self.clock(next.arrival)), \(later) min later.")
        #expect(sent.first?.notice.alternative?.laterMinutes == later)
        // The same live data a minute later, and again: nothing new, nothing sent.
        w.clock.set(watched.departure.adding(seconds: -29 * 60))
        try await w.live([(Self.bare(ride.tripID), Self.bare(ride.from.stopID), nil)])
        #expect(await w.service.check().isEmpty)
        #expect(await w.service.check().isEmpty)
        // What was said is kept with the watch, for its owner only.
        #expect(try await w.service.list(owner: "ana").first?.notices.map(\.kind) == ["cancelled"])
        #expect(try await w.service.list(owner: "ben").isEmpty)
        await #expect(throws: ServiceError.self) { try await w.service.remove(owner: "ben", id: created.id) }
        // Running again after all (a trip update with the trip on time; a feed's empty list would say nothing of it): said once.
        w.clock.set(watched.departure.adding(seconds: -28 * 60))
        try await w.live([(Self.bare(ride.tripID), Self.bare(ride.from.stopID), 0)])
        #expect(await w.service.check().map(\.notice.kind) == ["reinstated"])
        #expect(await w.service.check().isEmpty)
    }

    @Test("a delay is said when it reaches the threshold, again only when it moves by as much, and when it is gone")
    func delays() async throws {
        let w = try await Self.world()
        defer { w.folder.remove() }
        let options = try await Self.options(w, at: Self.monday0720.adding(seconds: 20 * 60))
        let (watched, next) = (options[0], options[1])
        let ride = try #require(watched.rides.first)
        _ = try await w.service.create(owner: "ana", WatchRequestDTO(
            from: "Lebak Bulus", to: "Bundaran HI", departure: LocalTime(watched.departure, in: Self.zone).iso8601, thresholdMinutes: 3))
        func late(_ minutes: Int32, at minutesBefore: Int64) async throws -> [String] {
            w.clock.set(watched.departure.adding(seconds: -minutesBefore * 60))
            try await w.live([(Self.bare(ride.tripID), Self.bare(ride.from.stopID), minutes * 60)])
            return await w.service.check().map(\.notice.message)
        }
        let the = "The \(Self.clock(watched.departure)) to Stasiun MRT Bundaran HI Bank Jakarta"
        func leaves(_ m: Int64) -> String { Self.clock(watched.departure.adding(seconds: m * 60)) }
        func arrives(_ m: Int64) -> String { Self.clock(watched.arrival.adding(seconds: m * 60)) }
        #expect(try await late(2, at: 25) == [])
        // The next train (on time) arrives before this one now: it is named.
        let instead = "take the \(Self.clock(next.departure)), arriving \(Self.clock(next.arrival)), \((next.arrival.epochSeconds - watched.arrival.epochSeconds) / 60) min later."
        #expect(next.arrival < watched.arrival.adding(seconds: 6 * 60))
        #expect(try await late(6, at: 20) == ["\(the) is 6 min late: it leaves at \(leaves(6)) and arrives at \(arrives(6)): \(instead)"])
        #expect(try await late(7, at: 15) == [])
        #expect(try await late(8, at: 14) == [])
        #expect(try await late(9, at: 13) == ["\(the) is 9 min late: it leaves at \(leaves(9)) and arrives at \(arrives(9)): \(instead)"])
        #expect(try await late(1, at: 10) == ["\(the) is running on time again: it leaves at \(leaves(1))."])
        #expect(try await late(0, at: 5) == [])
    }

    @Test("a one-day watch of a departure the timetable does not have is refused, naming the time")
    func refused() async throws {
        let w = try await Self.world()
        defer { w.folder.remove() }
        let watched = try #require(try await Self.options(w, at: Self.monday0720.adding(seconds: 20 * 60)).first)
        let odd = watched.departure.adding(seconds: 60)
        await #expect {
            try await w.service.create(owner: "ana", WatchRequestDTO(from: "mrt-jakarta:SLBB", to: "mrt-jakarta:SBHI",
                                                                     departure: LocalTime(odd, in: Self.zone).iso8601))
        } throws: { error in
            (error as? ServiceError)?.message == "No journey from Stasiun MRT Lebak Bulus Bank Syariah Indonesia to Stasiun MRT Bundaran HI Bank Jakarta leaves at \(Self.clock(odd)) on 2026-11-23."
        }
        await #expect(throws: ServiceError.self) {
            try await w.service.create(owner: "ana", WatchRequestDTO(from: "mrt-jakarta:SLBB", to: "mrt-jakarta:SBHI",
                                                                     departure: LocalTime(watched.departure, in: Self.zone).iso8601, days: ["monday"]))
        }
    }
}

/// `onward watch` replays a day's captures in the order of their headers' timestamps, whatever order they are given in.
@Suite("onward watch")
struct WatchCommandTests {
    @Test("captures given out of order are replayed by their timestamps: one message for the cancellation, none for its repeat")
    func replay() async throws {
        let w = try await WatchServiceTests.world()
        defer { w.folder.remove() }
        let options = try await WatchServiceTests.options(w, at: WatchServiceTests.monday0720.adding(seconds: 20 * 60))
        let (watched, next) = (options[0], options[1])
        let ride = try #require(watched.rides.first)
        let trip = (WatchServiceTests.bare(ride.tripID), WatchServiceTests.bare(ride.from.stopID))
        // 40 minutes before: on time (outside the window); 20 before: cancelled; 10 before: still cancelled.
        var files: [String] = []
        for (minutes, delay) in [(10, nil), (40, Int32(0)), (20, nil)] as [(Int64, Int32?)] {
            let path = URL(fileURLWithPath: w.folder.path).appendingPathComponent("capture-\(minutes).pb").path
            try WatchServiceTests.feed([(trip.0, trip.1, delay)], at: watched.departure.adding(seconds: -minutes * 60)).write(to: URL(fileURLWithPath: path))
            files += ["--realtime", path]
        }
        let clock = WatchServiceTests.clock
        let out = try OnwardExecutable.run(["watch", "Lebak Bulus", "Bundaran HI", "--date", "2026-11-23", "--time", clock(watched.departure)] + files)
        #expect(out.status == 0, "\(out.stderr)")
        let later = (next.arrival.epochSeconds - watched.arrival.epochSeconds) / 60
        #expect(out.stdout == """
            Watching the \(clock(watched.departure)) from Stasiun MRT Lebak Bulus Bank Syariah Indonesia to Stasiun MRT Bundaran HI Bank Jakarta, from 30 min before it leaves.

            \(LocalTime(watched.departure.adding(seconds: -20 * 60), in: WatchServiceTests.zone).hhmmss)  cancelled        \
            The \(clock(watched.departure)) to Stasiun MRT Bundaran HI Bank Jakarta is cancelled (the \(ride.routeShortName)): \
            take the \(clock(next.departure)), arriving \(clock(next.arrival)), \(later) min later.

            """)
    }
}

/// A generated feed with a change: line 1 from Alpha 07:40 reaches Cross 07:50; line 2 leaves Cross 07:53 for Delta
/// (08:10) and again 08:08 (08:25). Line 1 four minutes late makes the change impossible.
@Suite("a watched journey with a change, on a generated feed")
struct WatchChangeTests {
    static func network(_ folder: TemporaryFolder) throws -> URL {
        let dir = URL(fileURLWithPath: folder.path).appendingPathComponent("gtfs")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let files = [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Test,https://example.org,UTC\n",
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nALPHA,Alpha,0,0\nCROSS,Cross,0,0.05\nDELTA,Delta,0,0.1\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nL1,A,L1,,1\nL2,A,L2,,1\n",
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nALL,1,1,1,1,1,1,1,20260101,20271231\n",
            "trips.txt": "route_id,service_id,trip_id\nL1,ALL,L1a\nL1,ALL,L1b\nL2,ALL,L2a\nL2,ALL,L2b\n",
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                L1a,07:40:00,07:40:00,ALPHA,1
                L1a,07:50:00,07:50:00,CROSS,2
                L1b,07:50:00,07:50:00,ALPHA,1
                L1b,08:00:00,08:00:00,CROSS,2
                L2a,07:53:00,07:53:00,CROSS,1
                L2a,08:10:00,08:10:00,DELTA,2
                L2b,08:08:00,08:08:00,CROSS,1
                L2b,08:25:00,08:25:00,DELTA,2

                """,
        ]
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return dir
    }

    @Test("the first ride late past the change: connectionLost once, naming the way that still works")
    func lostChange() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let feedPath = URL(fileURLWithPath: folder.path).appendingPathComponent("rt.pb").path
        let monday0720 = Instant(epochSeconds: 1_795_418_400)  // Monday 2026-11-23 07:20 UTC
        let clock = TestNow(monday0720)
        try WatchServiceTests.feed([], at: monday0720).write(to: URL(fileURLWithPath: feedPath))
        let loaded = try Network.load([try Self.network(folder).path])
        let network = try GTFSNetwork.open(loaded, options: .init(realtime: [feedPath], maxAge: 86_400), fetcher: FakeHTTPFetcher(), now: clock.closure)
        #expect(await network.readOnce(now: monday0720).isEmpty)
        let service = WatchService(repository: InMemoryWatchRepository(), sources: SourceRegistry([network.source]), notifier: nil, now: clock.closure)
        let watch = try await service.create(owner: "ana", WatchRequestDTO(from: "ALPHA", to: "DELTA", departure: "2026-11-23T07:40:00Z", days: ["mon"]))
        #expect(watch.time == "07:40" && watch.days == ["mon"])
        #expect(await service.check().isEmpty)
        // Line 1 three minutes late: the change is still made (07:53 → 07:53), and the delay is news; four: the change
        // is lost, and the way that still works leaves later (the 07:50) for the same arrival; five: nothing new.
        for (late, expected) in [(Int32(180), ["The 07:40 to Delta is 3 min late: it leaves at 07:43 and arrives at 08:10."]),
                                 (240, ["The 07:40 to Delta: the change at Cross can no longer be made: take the 07:50, arriving 08:25, 15 min later."]),
                                 (300, [])] {
            clock.set(clock.now.adding(seconds: 60))
            try WatchServiceTests.feed([("L1a", "ALPHA", late)], at: clock.now).write(to: URL(fileURLWithPath: feedPath))
            #expect(await network.readOnce(now: clock.now).isEmpty)
            #expect(await service.check().map(\.notice.message) == expected, "\(late) s late")
        }
    }
}

extension WatchCommandTests {
    @Test("watch --track: the delay said before setting off, then the commute on the same recording, on the train the notice named")
    func thenTheTrip() async throws {
        let w = try await WatchServiceTests.world()
        defer { w.folder.remove() }
        let options = try await WatchServiceTests.options(w, at: WatchServiceTests.monday0720.adding(seconds: 20 * 60))
        let (watched, next) = (options[0], options[1])
        let ride = try #require(watched.rides.first)
        let nextRide = try #require(next.rides.first)
        let nextDukuhAtas = try #require(nextRide.calls.last)
        let trip = (WatchServiceTests.bare(ride.tripID), WatchServiceTests.bare(ride.from.stopID))
        var files: [String] = []
        for (minutes, delay) in [(40, Int32(0)), (20, Int32(360))] as [(Int64, Int32)] {
            let path = URL(fileURLWithPath: w.folder.path).appendingPathComponent("capture-\(minutes).pb").path
            try WatchServiceTests.feed([(trip.0, trip.1, delay)], at: watched.departure.adding(seconds: -minutes * 60)).write(to: URL(fileURLWithPath: path))
            files += ["--realtime", path]
        }
        let local = { (i: Instant) in LocalTime(i, in: WatchServiceTests.zone).iso8601 }
        let track = URL(fileURLWithPath: w.folder.path).appendingPathComponent("track.jsonl")
        // On the platform five minutes before the timetable's departure.
        try "{\"at\": \"\(local(watched.departure.adding(seconds: -300)))\", \"lat\": \(ride.from.latitude), \"lon\": \(ride.from.longitude), \"accuracy\": 10}\n"
            .write(to: track, atomically: true, encoding: .utf8)
        let clock = WatchServiceTests.clock
        let out = try OnwardExecutable.run(["watch", "Lebak Bulus", "Bundaran HI", "--date", "2026-11-23", "--time", clock(watched.departure),
                                            "--track", track.path, "--max-age", "86400", "--json"] + files)
        #expect(out.status == 0, "\(out.stderr)")
        struct Line: Decodable { var at: String; var kind: String; var basis: String? }
        let said = try out.stdout.split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }.map { "\($0.at) \($0.kind) \($0.basis ?? "-")" }
        // The watched train 6 minutes late arrives after the next one: commuting mode, planning as the traveller sets off,
        // takes the next (on the timetable: the recording says nothing of it), as the notice advised.
        #expect(said == [
            "\(local(watched.departure.adding(seconds: -20 * 60))) delayed -",
            "\(local(nextRide.departure.adding(seconds: -120))) vehicleArriving timetable",
            "\(local(nextDukuhAtas.departure)) arrivingAtDestination timetable",
        ])
        let text = try OnwardExecutable.run(["watch", "Lebak Bulus", "Bundaran HI", "--date", "2026-11-23", "--time", clock(watched.departure),
                                             "--track", track.path, "--max-age", "86400"] + files)
        #expect(text.stdout.contains("take the \(clock(next.departure))") && text.stdout.contains("Commuting: \(clock(next.departure)) "), "\(text.stdout)")
    }
}
