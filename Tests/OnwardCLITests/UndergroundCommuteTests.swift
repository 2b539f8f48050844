import API
import App
@testable import Commute
import Foundation
import GTFSRealtime
import OnwardCore
import OnwardTesting
@testable import Services
import Storage
import SwiftProtobuf
import Testing
import Transit

/// Issue 24's day on the bundled network: the 09:5x from Lebak Bulus runs 6 minutes late by the line's
/// trip updates, the phone has no signal underground from Senayan to Bundaran HI, and one fix there lies,
/// landing 60 m from Bundaran HI while the train is two stations back. The server's commute, its clock
/// stepped second by second, must say each alert when the train really leaves the stop before, from its
/// live times, and nothing early.
@Suite("commuting underground on the bundled network: a late train, no signal, a lying fix")
struct UndergroundCommuteTests {
    static let late: Int64 = 360

    /// A GTFS-Realtime feed that makes `tripID` (the feed's own ID) leave its first stop `late` seconds late.
    static func lateFeed(tripID: String, stopID: String, at moment: Instant) throws -> Data {
        var m = TransitRealtime_FeedMessage()
        m.header.gtfsRealtimeVersion = "2.0"
        m.header.incrementality = .fullDataset
        m.header.timestamp = UInt64(moment.epochSeconds)
        var trip = TransitRealtime_TripDescriptor()
        trip.tripID = tripID
        trip.startDate = "20261123"
        var departure = TransitRealtime_TripUpdate.StopTimeEvent()
        departure.delay = Int32(late)
        var update = TransitRealtime_TripUpdate.StopTimeUpdate()
        update.stopID = stopID
        update.departure = departure
        var tripUpdate = TransitRealtime_TripUpdate()
        tripUpdate.trip = trip
        tripUpdate.stopTimeUpdate = [update]
        var entity = TransitRealtime_FeedEntity()
        entity.id = "late"
        entity.tripUpdate = tripUpdate
        m.entity = [entity]
        return try m.serializedData()
    }

    @Test("6 minutes late by trip updates, no fix from Senayan on, one fix lying at Bundaran HI: each alert as the train really leaves the stop before")
    func lateTrainUnderground() async throws {
        let start = Instant(epochSeconds: 1_795_402_200)  // Monday 2026-11-23 09:50 in Jakarta
        let zone = try #require(TimeZone(identifier: "Asia/Jakarta"))
        // The journey as planned from the timetable (the traveller set out before the line ran late).
        let timetableOnly = try GTFSNetwork.open(try Network.load([]), options: .init(), fetcher: FakeHTTPFetcher())
        let query = Queries.JourneyQuery(from: "mrt-jakarta:SLBB", to: "mrt-jakarta:SBHI", at: start)
        let begun = try await CommuteDriver(sources: SourceRegistry([timetableOnly.source])).begin(query, option: 1, settings: CommuteSettings(), now: start)
        let ride = try #require(begun.journey.rides.first)
        let calls = ride.calls
        let senayan = try #require(calls.firstIndex { $0.stop.name.contains("Senayan") })
        let setiabudi = try #require(calls.firstIndex { $0.stop.name.contains("Setiabudi") })
        let dukuhAtas = calls[calls.count - 1]
        #expect(dukuhAtas.stop.name.contains("Dukuh Atas") && setiabudi == calls.count - 2, "\(calls.map(\.stop.name))")

        // The line's live data: that train 6 minutes late from its first stop (and so at every stop after).
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let feed = URL(fileURLWithPath: folder.path).appendingPathComponent("trip-updates.pb")
        let bare = { (id: String) in String(id.drop { $0 != ":" }.dropFirst()) }
        try Self.lateFeed(tripID: bare(ride.tripID), stopID: bare(ride.from.stopID), at: start).write(to: feed)
        let live = try GTFSNetwork.open(try Network.load([]), options: .init(realtime: [feed.path], maxAge: 86_400), fetcher: FakeHTTPFetcher())
        #expect(await live.readOnce(now: start).isEmpty)

        // The phone: waiting on the platform past the timetable's departure, on board to Senayan, then nothing
        // underground but one fix 60 m from Bundaran HI while the train is between Setiabudi and Dukuh Atas.
        func position(_ at: Instant, _ stop: JourneyStop, north metres: Double = 0, accuracy: Double = 20) -> (Instant, CommuteSightingDTO) {
            (at, CommuteSightingDTO(at: LocalTime(at, in: zone).iso8601, lat: stop.latitude + metres / 111_195, lon: stop.longitude, accuracy: accuracy))
        }
        let leavesLive = ride.departure.adding(seconds: Self.late)
        let between = Instant(epochSeconds: (calls[setiabudi].departure.epochSeconds + dukuhAtas.departure.epochSeconds) / 2 + Self.late)
        var sightings = [position(start.adding(seconds: 60), ride.from), position(ride.departure.adding(seconds: 120), ride.from),
                         position(leavesLive.adding(seconds: -30), ride.from)]
        sightings += calls[...senayan].map { position($0.departure.adding(seconds: Self.late), $0.stop) }
        sightings.append(position(between, ride.to, north: 60, accuracy: 15))

        let clock = TestNow(start)
        let service = CommuteService(repository: InMemoryCommuteRepository(), sources: SourceRegistry([live.source]), now: { clock.now })
        let (id, _) = try await service.start(begun, simulationSpeed: nil)
        var second = start
        while second <= ride.arrival.adding(seconds: 1_800) {
            clock.set(second)
            for (at, s) in sightings where at == second { _ = try await service.sighting(id, s) }
            await service.step(id)
            second = second.adding(seconds: 1)
        }
        let said = try #require(await service.view(id)).alerts.map { "\($0.at) \($0.kind) \($0.basis ?? "?")" }
        let clockTime = { (i: Instant) in LocalTime(i, in: zone).iso8601 }
        #expect(said == [
            "\(clockTime(leavesLive.adding(seconds: -120))) vehicleArriving liveTimes",
            "\(clockTime(dukuhAtas.departure.adding(seconds: Self.late))) arrivingAtDestination liveTimes",
        ])
    }
}

/// A commute begun on the bundled network's timetable: Lebak Bulus to Bundaran HI, Monday 2026-11-23 09:50 in Jakarta.
private func bundledCommute() async throws -> (GTFSNetwork, Queries.JourneyQuery, CommuteDriver.Begun) {
    let network = try GTFSNetwork.open(try Network.load([]), options: .init(), fetcher: FakeHTTPFetcher())
    let start = Instant(epochSeconds: 1_795_402_200)
    let query = Queries.JourneyQuery(from: "mrt-jakarta:SLBB", to: "mrt-jakarta:SBHI", at: start)
    return (network, query, try await CommuteDriver(sources: SourceRegistry([network.source])).begin(query, option: 1, settings: CommuteSettings(), now: start))
}

/// A commute's stored state keeps its journey once (in the session), and a state stored when the journey was
/// kept beside the session is read whole.
@Suite("a commute's stored state")
struct CommuteStateStorageTests {
    @Test("the journey is stored once; a state in the earlier form (journey beside a session of rides) reads the same")
    func journeyOnce() async throws {
        let (_, _, begun) = try await bundledCommute()
        let state = CommuteState(session: begun.session, plan: begun.plan)
        #expect(state.journey == begun.journey)
        let data = try JSONEncoder.api.encode(state)
        let text = String(decoding: data, as: UTF8.self)
        let tripID = try #require(begun.journey.rides.first?.tripID)
        #expect(text.components(separatedBy: "\"tripID\":\"\(tripID)\"").count - 1 == 1, "the ride is stored once")
        #expect(try JSONDecoder().decode(CommuteState.self, from: data) == state)

        // The earlier form: the journey beside the session, whose journey was its rides, destination and walks.
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var session = try #require(object["session"] as? [String: Any])
        let rides = try JSONSerialization.jsonObject(with: try JSONEncoder.api.encode(begun.journey.rides))
        let destination = try JSONSerialization.jsonObject(with: try JSONEncoder.api.encode(begun.journey.legs.last?.toStop))
        session["journey"] = ["rides": rides, "destination": destination, "walks": begun.journey.changes.map(\.walkSeconds)]
        object["session"] = session
        object["journey"] = try JSONSerialization.jsonObject(with: try JSONEncoder.api.encode(begun.journey))
        let earlier = try JSONDecoder().decode(CommuteState.self, from: try JSONSerialization.data(withJSONObject: object))
        #expect(earlier == state)
        #expect(earlier.journey.legs.count == begun.journey.legs.count)
    }
}

@Suite("a commute's ride follows the feed's shape")
struct CommutePathTests {
    @Test("on the bundled network the ride from Lebak Bulus has the line's shape, from the boarding stop to the alighting one")
    func bundledShape() async throws {
        let (network, query, begun) = try await bundledCommute()
        let ride = try #require(begun.journey.rides.first)
        let path = try #require(ride.path)
        #expect(path.first == [PathPoint(latitude: ride.from.latitude, longitude: ride.from.longitude)].quantized.first)
        #expect(path.last == [PathPoint(latitude: ride.to.latitude, longitude: ride.to.longitude)].quantized.first)
        // Simplified within 5 m: of the feed's 187 points from Lebak Bulus to Bundaran HI, about 100 m apart, 54 are kept.
        #expect(path.count == 54, "\(path.count) points")
        // The shape has more points than the calls (it draws the curves between stations), and every call lies near it.
        #expect(path.count > ride.calls.count + 2, "\(path.count) points, \(ride.calls.count) calls")
        let line = path.map { RideCourse.LinePoint(latitude: $0.latitude, longitude: $0.longitude, distance: 0) }
        for call in ride.calls {
            #expect(RideCourse.project(call.stop.latitude, call.stop.longitude, onto: line, from: 0).offLine < 150, "\(call.stop.name)")
        }
        // A journey answer carries no path.
        let answer = try await Queries(SourceRegistry([network.source]), now: query.at ?? .now()).plan(query)
        #expect(!String(decoding: try JSONEncoder.api.encode(answer), as: UTF8.self).contains("path"))
    }
}

/// `onward commute --realtime FILE…` replays a day's captures in the order of their headers' timestamps, each when
/// the replay reaches it, whatever order the files are given in.
@Suite("onward commute replays recorded live data in time order")
struct CommuteLiveReplayTests {
    @Test("on time at 09:38, six minutes late from a capture a minute before it leaves: the arrival moves, the train's arrival already said stays")
    func capturesInTimeOrder() async throws {
        let zone = try #require(TimeZone(identifier: "Asia/Jakarta"))
        let start = Instant(epochSeconds: 1_795_401_480)  // Monday 2026-11-23 09:38 in Jakarta
        let network = try GTFSNetwork.open(try Network.load([]), options: .init(), fetcher: FakeHTTPFetcher())
        let query = Queries.JourneyQuery(from: "mrt-jakarta:SLBB", to: "mrt-jakarta:SBHI", at: start)
        let ride = try #require(try await CommuteDriver(sources: SourceRegistry([network.source])).begin(query, option: 1, settings: CommuteSettings(), now: start)
            .journey.rides.first)
        let dukuhAtas = try #require(ride.calls.last)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bare = { (id: String) in String(id.drop { $0 != ":" }.dropFirst()) }
        func capture(_ name: String, delay: Int32, at: Instant) throws -> String {
            let path = URL(fileURLWithPath: folder.path).appendingPathComponent(name).path
            try WatchServiceTests.feed([(bare(ride.tripID), bare(ride.from.stopID), delay)], at: at).write(to: URL(fileURLWithPath: path))
            return path
        }
        let late = try capture("late.pb", delay: 360, at: ride.departure.adding(seconds: -60))
        let onTime = try capture("on-time.pb", delay: 0, at: start)
        let track = URL(fileURLWithPath: folder.path).appendingPathComponent("track.jsonl")
        let local = { (i: Instant) in LocalTime(i, in: zone).iso8601 }
        try "{\"at\": \"\(local(start.adding(seconds: 60)))\", \"lat\": \(ride.from.latitude), \"lon\": \(ride.from.longitude), \"accuracy\": 10}\n"
            .write(to: track, atomically: true, encoding: .utf8)
        // The later capture first on the command line.
        let out = try OnwardExecutable.run(["commute", "Lebak Bulus", "Bundaran HI", "--date", "2026-11-23", "--time", "09:38", "--track", track.path,
                                            "--realtime", late, "--realtime", onTime, "--max-age", "86400", "--json"])
        #expect(out.status == 0, "\(out.stderr)")
        struct Line: Decodable { var at: String; var kind: String; var basis: String? }
        let said = try out.stdout.split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }.map { "\($0.at) \($0.kind) \($0.basis ?? "?")" }
        #expect(said == [
            "\(local(ride.departure.adding(seconds: -120))) vehicleArriving liveTimes",
            "\(local(dukuhAtas.departure.adding(seconds: 360))) arrivingAtDestination liveTimes",
        ])
    }
}

/// GTFS-Realtime vehicle positions place the vehicle: a train reported at Senayan six minutes after the timetable
/// has it leave there moves the arrival, with no trip update and no fix from the phone.
@Suite("commuting on the vehicle's reported position")
struct VehiclePositionCommuteTests {
    static func positionFeed(tripID: String, latitude: Double, longitude: Double, at: Instant) throws -> Data {
        var m = TransitRealtime_FeedMessage()
        m.header.gtfsRealtimeVersion = "2.0"
        m.header.incrementality = .fullDataset
        m.header.timestamp = UInt64(at.epochSeconds)
        var entity = TransitRealtime_FeedEntity()
        entity.id = "v1"
        entity.vehicle.trip.tripID = tripID
        entity.vehicle.trip.startDate = "20261123"
        entity.vehicle.position.latitude = Float(latitude)
        entity.vehicle.position.longitude = Float(longitude)
        entity.vehicle.timestamp = UInt64(at.epochSeconds)
        m.entity = [entity]
        return try m.serializedData()
    }

    @Test("reported at Senayan 6 minutes late: the arrival when the train leaves Dukuh Atas 6 minutes late, from live data")
    func reportedLate() async throws {
        let (_, query, begun) = try await bundledCommute()
        let zone = try #require(TimeZone(identifier: "Asia/Jakarta"))
        let ride = try #require(begun.journey.rides.first)
        let senayan = try #require(ride.calls.first { $0.stop.name.contains("Senayan") })
        let dukuhAtas = try #require(ride.calls.last)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let feed = URL(fileURLWithPath: folder.path).appendingPathComponent("vehicles.pb")
        let start = try #require(query.at)
        let bare = { (id: String) in String(id.drop { $0 != ":" }.dropFirst()) }
        // Before the report, a feed about another trip: the line's positions say nothing of this one yet.
        try Self.positionFeed(tripID: "none", latitude: 0, longitude: 0, at: start).write(to: feed)
        let clock = TestNow(start)
        let live = try GTFSNetwork.open(try Network.load([]), options: .init(realtime: [feed.path], maxAge: 86_400), fetcher: FakeHTTPFetcher(),
                                        now: clock.closure)
        _ = await live.readOnce(now: start)
        let service = CommuteService(repository: InMemoryCommuteRepository(), sources: SourceRegistry([live.source]), now: clock.closure)
        let (id, _) = try await service.start(begun, simulationSpeed: nil)
        let reported = senayan.departure.adding(seconds: 360)
        var second = start
        while second <= ride.arrival.adding(seconds: 1_800) {
            clock.set(second)
            if second == reported {
                try Self.positionFeed(tripID: bare(ride.tripID), latitude: senayan.stop.latitude, longitude: senayan.stop.longitude, at: reported).write(to: feed)
                #expect(await live.readOnce(now: second).isEmpty)
            }
            await service.step(id)
            second = second.adding(seconds: 1)
        }
        let said = try #require(await service.view(id)).alerts.map { "\($0.at) \($0.kind) \($0.basis ?? "?")" }
        let local = { (i: Instant) in LocalTime(i, in: zone).iso8601 }
        #expect(said == [
            // Due two minutes before it leaves, which was before the commute began: said at once.
            "\(local(max(start, ride.departure.adding(seconds: -120)))) vehicleArriving timetable",
            "\(local(dukuhAtas.departure.adding(seconds: 360))) arrivingAtDestination liveTimes",
        ])
    }
}
