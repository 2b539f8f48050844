import API
import Foundation
import GTFS
import GTFSRealtime
import GTFSSource
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import OnwardCore
import OnwardTesting
import Server
import Testing
import Timetable

/// A route's map and its vehicles (issue 27, item 3), on a small line worked out by hand. Route R runs Alpha (0, 0) →
/// Bravo (0, 0.1) → Charlie (0, 0.2) along a shape that bends north between Alpha and Bravo, and back without a shape.
/// At 08:12 UTC on Monday 2026-11-23 the feed says:
/// - T1 (08:00 from Alpha) runs 2 minutes late and its bus, "Bus 7", reports itself at (0, 0.12) on its way to Charlie;
/// - T2 (08:10 from Alpha) left on time and gives no position: its live times place it a fifth of the way to Bravo;
/// - T3 (08:05 from Charlie) is cancelled, and T4 (08:30 from Alpha) has not left: neither is on the map;
/// - T5 (08:15 from Alpha) stands at Alpha, its bus "Bus 9" reporting itself there: on the map, leaving at 08:15.
@Suite("a route's map and its vehicles")
struct RouteMapTests {
    static let now = Instant(epochSeconds: Int64(ServiceDate(year: 2026, month: 11, day: 23)!.dayNumber) * 86_400 + 8 * 3600 + 12 * 60)

    static func store() throws -> LiveStore {
        let loaded = try InlineFeed.load(timeZone: "UTC", [
            "stops.txt": """
                stop_id,stop_name,stop_lat,stop_lon
                A,Alpha,0.0,0.0
                B,Bravo,0.0,0.1
                C,Charlie,0.0,0.2
                """,
            "routes.txt": """
                route_id,route_short_name,route_long_name,route_type,route_color
                R,R,Alpha to Charlie,3,CA1F47
                """,
            "calendar.txt": """
                service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
                WD,1,1,1,1,1,0,0,20261101,20261231
                """,
            "shapes.txt": """
                shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence
                S0,0.0,0.0,1
                S0,0.01,0.05,2
                S0,0.0,0.1,3
                S0,0.0,0.2,4
                """,
            "trips.txt": """
                route_id,service_id,trip_id,trip_headsign,direction_id,shape_id
                R,WD,T1,Charlie,0,S0
                R,WD,T2,Charlie,0,S0
                R,WD,T3,Alpha,1,
                R,WD,T4,Charlie,0,S0
                R,WD,T5,Charlie,0,S0
                """,
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T1,08:00:00,08:00:00,A,1
                T1,08:10:00,08:10:00,B,2
                T1,08:20:00,08:20:00,C,3
                T2,08:10:00,08:10:00,A,1
                T2,08:20:00,08:20:00,B,2
                T2,08:30:00,08:30:00,C,3
                T3,08:05:00,08:05:00,C,1
                T3,08:15:00,08:15:00,B,2
                T3,08:25:00,08:25:00,A,3
                T4,08:30:00,08:30:00,A,1
                T4,08:40:00,08:40:00,B,2
                T4,08:50:00,08:50:00,C,3
                T5,08:15:00,08:15:00,A,1
                T5,08:25:00,08:25:00,B,2
                T5,08:35:00,08:35:00,C,3
                """,
        ])
        return LiveStore(NetworkState(served: ServedTimetable(timetable: loaded.timetable, shapes: loaded.shapes)))
    }

    /// The feed at 08:12, with Bus 7 at `busLongitude`.
    static func feed(busLongitude: Double = 0.12) -> RealtimeMessage {
        var feed = TransitRealtime_FeedMessage()
        feed.header.gtfsRealtimeVersion = "2.0"
        feed.header.timestamp = UInt64(now.epochSeconds)
        func update(_ trip: String, sequence: UInt32, delay: Int32, cancelled: Bool = false) -> TransitRealtime_FeedEntity {
            var e = TransitRealtime_FeedEntity()
            e.id = "tu-" + trip
            e.tripUpdate.trip.tripID = trip
            if cancelled {
                e.tripUpdate.trip.scheduleRelationship = .canceled
                return e
            }
            var u = TransitRealtime_TripUpdate.StopTimeUpdate()
            u.stopSequence = sequence
            u.arrival.delay = delay
            u.departure.delay = delay
            e.tripUpdate.stopTimeUpdate = [u]
            return e
        }
        var bus = TransitRealtime_FeedEntity()
        bus.id = "vp-T1"
        bus.vehicle.trip.tripID = "T1"
        bus.vehicle.vehicle.id = "7"
        bus.vehicle.vehicle.label = "Bus 7"
        bus.vehicle.position.latitude = 0
        bus.vehicle.position.longitude = Float(busLongitude)
        bus.vehicle.currentStopSequence = 3
        bus.vehicle.currentStatus = .inTransitTo
        bus.vehicle.timestamp = UInt64(now.epochSeconds)
        var standing = TransitRealtime_FeedEntity()
        standing.id = "vp-T5"
        standing.vehicle.trip.tripID = "T5"
        standing.vehicle.vehicle.label = "Bus 9"
        standing.vehicle.position.latitude = 0
        standing.vehicle.position.longitude = 0
        standing.vehicle.currentStopSequence = 1
        standing.vehicle.currentStatus = .stoppedAt
        standing.vehicle.timestamp = UInt64(now.epochSeconds)
        feed.entity = [update("T1", sequence: 2, delay: 120), update("T2", sequence: 1, delay: 0), update("T3", sequence: 1, delay: 0, cancelled: true),
                       update("T4", sequence: 1, delay: 0), bus, standing]
        return RealtimeMessage(feed)
    }

    static func live() async throws -> LiveStore {
        let store = try store()
        await RealtimeWriter(store: store).apply(feed(), source: "test-rt", now: now)
        return store
    }

    static func get<T: Decodable & Sendable>(_ type: T.Type, _ uri: String, _ deps: ServerDependencies) async throws -> T {
        let body = try await TestServer.app(deps).test(.router) { client in
            try await client.execute(uri: uri, method: .get) { r in
                #expect(r.status == .ok, "\(uri): \(String(buffer: r.body))")
                return String(buffer: r.body)
            }
        }
        return try JSONDecoder().decode(T.self, from: Data(body.utf8))
    }

    @Test("the vehicles on their way: one by its reported position, one placed by its live times; the cancelled and the not yet left are not")
    func vehicles() async throws {
        let deps = TestServer.deps(try await Self.live(), now: { Self.now })
        let answer = try await Self.get(RouteVehiclesDTO.self, "/api/v1/routes/test:R/vehicles", deps)
        #expect(answer.routeId == "test:R" && answer.timeZone == "UTC" && answer.live?.stale == false)
        #expect(answer.vehicles.map(\.tripId) == ["test:T1", "test:T2", "test:T5"])
        let bus = try #require(answer.vehicles.first)
        #expect(bus.basis == "position" && bus.vehicle?.label == "Bus 7" && bus.headsign == "Charlie")
        #expect(abs(bus.latitude) < 1e-6 && abs(bus.longitude - 0.12) < 1e-6)
        #expect(bus.next == .init(stopId: "test:C", name: "Charlie", due: "2026-11-23T08:22:00+00:00", delaySeconds: 120, atStop: false))
        let placed = answer.vehicles[1]
        #expect(placed.basis == "liveTimes" && placed.vehicle == nil && placed.serviceDate == "2026-11-23")
        // Two of its ten minutes to Bravo gone: a fifth of the way from (0, 0) to (0, 0.1).
        #expect(abs(placed.latitude) < 1e-9 && abs(placed.longitude - 0.02) < 1e-9)
        #expect(placed.next == .init(stopId: "test:B", name: "Bravo", due: "2026-11-23T08:20:00+00:00", delaySeconds: 0, atStop: false))
        // Standing at its first stop: when it leaves (no live times for it: the timetable's).
        let standing = answer.vehicles[2]
        #expect(standing.basis == "position" && standing.vehicle?.label == "Bus 9")
        #expect(standing.next == .init(stopId: "test:A", name: "Alpha", due: "2026-11-23T08:15:00+00:00", delaySeconds: nil, atStop: true))
    }

    @Test("the map: each direction's way (the feed's shape, or none) and its stops in order")
    func lines() async throws {
        let deps = TestServer.deps(try await Self.live(), now: { Self.now })
        let map = try await Self.get(RouteMapDTO.self, "/api/v1/routes/test:R/map", deps)
        #expect(map.route == RouteDTO(RouteSummary(id: "test:R", shortName: "R", longName: "Alpha to Charlie", color: "CA1F47")))
        #expect(map.lines.map(\.directionId) == ["0", "1"] && map.lines.map(\.name) == ["to Charlie", "to Alpha"])
        #expect(map.lines.map { $0.stops.map(\.name) } == [["Alpha", "Bravo", "Charlie"], ["Charlie", "Bravo", "Alpha"]])
        let shape = [PathPoint(latitude: 0, longitude: 0), PathPoint(latitude: 0.01, longitude: 0.05), PathPoint(latitude: 0, longitude: 0.1),
                     PathPoint(latitude: 0, longitude: 0.2)]
        #expect(map.lines[0].shape == shape.encodedPolyline && map.lines[1].shape == nil)
    }

    @Test("without live data the route has no vehicles, and says so")
    func noLiveData() async throws {
        let deps = TestServer.deps(try Self.store(), now: { Self.now })
        let answer = try await Self.get(RouteVehiclesDTO.self, "/api/v1/routes/test:R/vehicles", deps)
        #expect(answer.vehicles.isEmpty && answer.live == nil)
        let page = try await TestServer.app(deps).test(.router) { client in
            try await client.execute(uri: "/routes/test:R", method: .get) { String(buffer: $0.body) }
        }
        #expect(page.contains("This route has no live data, so its vehicles cannot be shown."))
        #expect(page.contains(#"id="route-map""#))
    }

    @Test("the route's page: the map with both ways, and the list of vehicles as its text")
    func page() async throws {
        let deps = TestServer.deps(try await Self.live(), now: { Self.now })
        let page = try await TestServer.app(deps).test(.router) { client in
            try await client.execute(uri: "/routes/test:R", method: .get) { r in
                #expect(r.status == .ok)
                return String(buffer: r.body)
            }
        }
        let back = [PathPoint(latitude: 0, longitude: 0.2), PathPoint(latitude: 0, longitude: 0.1), PathPoint(latitude: 0, longitude: 0)]
        let shape = [PathPoint(latitude: 0, longitude: 0), PathPoint(latitude: 0.01, longitude: 0.05), PathPoint(latitude: 0, longitude: 0.1),
                     PathPoint(latitude: 0, longitude: 0.2)]
        // Encoded polylines use no character HTML escapes.
        #expect(page.contains(#"data-shapes="\#(shape.encodedPolyline + " " + back.encodedPolyline)""#))
        #expect(page.contains(#"data-live="route=test%3AR&amp;lang=en&amp;format=html""#))
        #expect(page.contains("3 on the way"))
        #expect(page.contains("To Charlie · at Alpha, leaves 08:15"))
        #expect(page.contains(#"data-vehicle-key="test:T1@2026-11-23#7" data-vehicle-lat="0.0" data-vehicle-lon="0.11999999731779099""#))
        #expect(page.contains("To Charlie · next Charlie at 08:22 · Late 2 min"))
        #expect(page.contains("To Charlie · next Bravo at 08:20 · placed by its live times"))
        #expect(page.contains(#"<a href="/services/test%3AT2?date=2026-11-23">To Charlie</a>"#))
    }

    @Test("the live channel sends the route's vehicles, then again when the bus reports itself further on")
    func liveChannel() async throws {
        let store = try await Self.live()
        let app = TestServer.app(TestServer.deps(store, now: { Self.now }))
        _ = try await app.test(.live) { client in
            try await client.ws("/live?route=test:R") { inbound, _, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                func next() async throws -> RouteVehiclesDTO {
                    guard case .text(let text)? = try await messages.next() else { throw CancellationError() }
                    struct Message: Decodable { var type: String; var route: RouteVehiclesDTO }
                    let m = try JSONDecoder().decode(Message.self, from: Data(text.utf8))
                    #expect(m.type == "route")
                    return m.route
                }
                let first = try await next()
                #expect(first.vehicles.map(\.tripId) == ["test:T1", "test:T2", "test:T5"])
                await RealtimeWriter(store: store).apply(Self.feed(busLongitude: 0.15), source: "test-rt", now: Self.now)
                let second = try await next()
                #expect(abs(second.vehicles[0].longitude - 0.15) < 1e-6)
            }
        }
    }
}
