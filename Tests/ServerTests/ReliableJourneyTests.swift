import API
import Foundation
import GTFS
import GTFSSource
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OnwardCore
import OnwardTesting
import Server
import Services
import Storage
import Testing
import Timetable

/// The planner's reliable option and risky changes, on a small network whose history says one change fails: from A,
/// line R1 reaches B at 08:20 and line R2 leaves B at 08:22 for C (08:40); the direct line R3 leaves A at 08:05 and
/// reaches C at 08:55. History: R1 usually reaches B 5 minutes late on weekday mornings.
@Suite("reliable journeys: the delay history weighs each change")
struct ReliableJourneyTests {
    static let monday = ServiceDate(year: 2026, month: 11, day: 23)!

    static func timetable() throws -> Timetable {
        try InlineFeed.load(timeZone: "UTC", [
            "stops.txt": """
                stop_id,stop_name,stop_lat,stop_lon
                A,Alpha,0.0,0.0
                B,Bravo,0.0,0.1
                C,Charlie,0.0,0.2
                """,
            "routes.txt": """
                route_id,route_short_name,route_long_name,route_type
                R1,1,A to B,3
                R2,2,B to C,3
                R3,3,A to C,3
                """,
            "calendar.txt": """
                service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
                WD,1,1,1,1,1,0,0,20261101,20261231
                """,
            "trips.txt": """
                route_id,service_id,trip_id,trip_headsign
                R1,WD,T1,Bravo
                R2,WD,T2,Charlie
                R3,WD,T3,Charlie
                """,
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T1,08:00:00,08:00:00,A,1
                T1,08:20:00,08:20:00,B,2
                T2,08:22:00,08:22:00,B,1
                T2,08:40:00,08:40:00,C,2
                T3,08:05:00,08:05:00,A,1
                T3,08:55:00,08:55:00,C,2
                """,
        ]).timetable
    }

    /// Five weekdays of R1 reaching B `minutes` late.
    static func history(minutes: Int) -> DelayHistoryBook {
        let words = (0..<5).map { d in
            DelayObservation(source: "test-rt", tripID: "test:T1", serviceDate: monday.adding(days: -7 + d), call: 1, routeID: "test:R1",
                             stopID: "test:B", hourOfWeek: HourOfWeek(weekday: d, hour: 8), departureDelay: nil,
                             arrivalDelay: minutes * 60, cancelled: false, observedAt: Instant(epochSeconds: 0))
        } + (0..<5).map { d in
            DelayObservation(source: "test-rt", tripID: "test:T1", serviceDate: monday.adding(days: -14 + d), call: 1, routeID: "test:R1",
                             stopID: "test:B", hourOfWeek: HourOfWeek(weekday: d, hour: 8), departureDelay: nil,
                             arrivalDelay: minutes * 60, cancelled: false, observedAt: Instant(epochSeconds: 0))
        }
        return DelayHistoryBook(DelayAggregate.fold(words))
    }

    static func plan(history: DelayHistoryBook, reliable: Bool) async throws -> JourneysDTO {
        var state = NetworkState(timetable: try timetable())
        state.history = history
        let deps = TestServer.deps(LiveStore(state))
        return try await TestServer.app(deps).test(.router) { client in
            let uri = "/api/v1/journeys?from=test:A&to=test:C&date=2026-11-23&time=07:59&window=30&maxWalk=0" + (reliable ? "&reliable=true" : "")
            return try await client.execute(uri: uri, method: .get) { r in
                #expect(r.status == .ok)
                return try JSONDecoder().decode(JourneysDTO.self, from: Data(r.body.readableBytesView))
            }
        }
    }

    @Test("a change the history says fails is marked risky, and reliable puts the journey that avoids it first")
    func avoidsAFailingChange() async throws {
        let book = Self.history(minutes: 5)
        #expect(book.count == 1)
        let plain = try await Self.plan(history: book, reliable: false)
        #expect(plain.journeys.map { $0.legs.compactMap(\.routeShortName) } == [["1", "2"], ["3"]])
        let change = try #require(plain.journeys.first?.changes?.first)
        #expect(change.marginSeconds == 120)
        #expect(change.risky == true && change.reliable == false)
        #expect(change.usualArrival?.arrivalMedianMinutes == 5 && change.usualArrival?.days == 10)
        #expect(plain.journeys.first?.legs.first?.usualArrival?.arrivalHighMinutes == 5)

        let reliable = try await Self.plan(history: book, reliable: true)
        #expect(reliable.journeys.map { $0.legs.compactMap(\.routeShortName) } == [["3"], ["1", "2"]])
    }

    @Test("a change that holds at the 80th percentile keeps its place, and is not risky")
    func keepsAChangeThatHolds() async throws {
        let plain = try await Self.plan(history: Self.history(minutes: 1), reliable: true)
        #expect(plain.journeys.map { $0.legs.compactMap(\.routeShortName) } == [["1", "2"], ["3"]])
        let change = try #require(plain.journeys.first?.changes?.first)
        #expect(change.risky == nil && change.reliable == true)
        // No history: nothing is weighed or marked.
        let none = try await Self.plan(history: .empty, reliable: true)
        #expect(none.journeys.map { $0.legs.compactMap(\.routeShortName) } == [["1", "2"], ["3"]])
        #expect(none.journeys.first?.changes?.first?.usualArrival == nil && none.journeys.first?.changes?.first?.reliable == nil)
    }

    @Test("the history API: a stop's history by route, a route's at all its stops, and clear errors")
    func historyAPI() async throws {
        let repository = InMemoryDelayHistoryRepository()
        var words: [DelayObservation] = []
        for d in 0..<5 {
            for (trip, late) in [("T1", 240), ("T1b", 420)] {
                words.append(DelayObservation(source: "test-rt", tripID: "test:" + trip, serviceDate: Self.monday.adding(days: d), call: 1,
                                              routeID: "test:R1", stopID: "test:B", hourOfWeek: HourOfWeek(weekday: d, hour: 8),
                                              departureDelay: late, arrivalDelay: late, cancelled: false, observedAt: Instant(epochSeconds: 0)))
            }
            words.append(DelayObservation(source: "test-rt", tripID: "test:T2", serviceDate: Self.monday.adding(days: d), call: 0,
                                          routeID: "test:R2", stopID: "test:B", hourOfWeek: HourOfWeek(weekday: d, hour: 8),
                                          departureDelay: nil, arrivalDelay: nil, cancelled: d == 2, observedAt: Instant(epochSeconds: 0)))
        }
        try await repository.record(words)
        let keeper = DelayHistoryKeeper(repository: repository) { _ in }
        try await keeper.upkeep(today: Self.monday.adding(days: 7))
        let base = TestServer.deps(LiveStore(NetworkState(timetable: try Self.timetable())), now: { Instant(epochSeconds: Int64(Self.monday.adding(days: 7).dayNumber) * 86_400 + 9 * 3600) })
        let deps = ServerDependencies(sources: base.sources, people: base.people, trips: base.trips, commutes: base.commutes,
                                      watches: base.watches, ski: base.ski, history: keeper, settings: base.settings, now: base.now)
        try await TestServer.app(deps).test(.router) { client in
            try await client.execute(uri: "/api/v1/stops/Bravo/history", method: .get) { r in
                #expect(r.status == .ok)
                let h = try JSONDecoder().decode(HistoryDTO.self, from: Data(r.body.readableBytesView))
                #expect(h.kind == "stop" && h.id == "test:B" && h.name == "Bravo")
                #expect(h.from == "2026-10-03" && h.through == "2026-11-27")
                #expect(h.rows.map(\.routeId) == ["test:R1", "test:R2"])
                let r1 = h.rows[0].usual
                #expect(r1.dayKind == "weekday" && r1.hour == 8 && r1.observed == 10 && r1.days == 5 && r1.enough)
                #expect(r1.departureLowMinutes == 4 && r1.departureMedianMinutes == 4 && r1.departureHighMinutes == 7)
                #expect(h.rows[1].usual.cancelled == 1 && h.rows[1].usual.cancelledOneIn == 5 && h.rows[1].usual.departureMedianMinutes == nil)
            }
            try await client.execute(uri: "/api/v1/routes/test:R1/history?days=2", method: .get) { r in
                let h = try JSONDecoder().decode(HistoryDTO.self, from: Data(r.body.readableBytesView))
                #expect(h.kind == "route" && h.rows.count == 1 && h.rows[0].routeId == nil && h.rows[0].usual.days == 2 && !h.rows[0].usual.enough)
            }
            for (uri, status) in [("/api/v1/stops/Zulu/history", HTTPResponse.Status.notFound), ("/api/v1/routes/Z9/history", .notFound),
                                  ("/api/v1/stops/test:B/history?days=0", .badRequest), ("/api/v1/stops/test:B/history?days=401", .badRequest)] {
                try await client.execute(uri: uri, method: .get) { r in #expect(r.status == status, "\(uri)") }
            }
        }
    }
}
