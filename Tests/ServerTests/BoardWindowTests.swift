import API
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// A board's alerts and its empty state belong to the board's time, not to now.
@Suite("Boards for another time")
struct BoardWindowTests {
    func board(_ client: any TestClientProtocol, _ uri: String) async throws -> BoardDTO {
        try await client.execute(uri: uri, method: .get) { r in
            #expect(r.status == .ok, "\(uri)")
            return try JSONDecoder().decode(BoardDTO.self, from: Data(r.body.readableBytesView))
        }
    }

    @Test("an alert active only today is on today's board, not tomorrow's")
    func alertsOfTheWindow() async throws {
        try await TestServer.app(TestServer.deps(try TestServer.store())).test(.router) { client in
            // The simulated station alert runs from 07:30 to 10:00 on 2026-11-23 at the busiest station.
            let alerts = try await client.execute(uri: "/api/v1/alerts", method: .get) { r in
                try JSONDecoder().decode(AlertsDTO.self, from: Data(r.body.readableBytesView))
            }
            let station = try #require(alerts.alerts.first { $0.id == "sim-alert-1" }?.informedEntities.first?.stopId)
            func ids(_ b: BoardDTO) -> [String] { ((b.alerts?.highPriority ?? []) + (b.alerts?.other ?? [])).map(\.id) }
            let today = try await board(client, "/api/v1/stops/\(station)/departures?date=2026-11-23&time=08:00")
            #expect(ids(today).contains("sim-alert-1"))
            let tomorrow = try await board(client, "/api/v1/stops/\(station)/departures?date=2026-11-24&time=08:00")
            #expect(!ids(tomorrow).contains("sim-alert-1"))
            // Later the same morning, within the alert's hours, it shows again.
            let later = try await board(client, "/api/v1/stops/\(station)/departures?date=2026-11-23&time=09:30")
            #expect(ids(later).contains("sim-alert-1"))
        }
    }

    @Test("a date past the timetable's last day says that the timetable ends then")
    func pastTheCalendar() async throws {
        try await TestServer.app(TestServer.deps(try TestServer.store())).test(.router) { client in
            let b = try await board(client, "/api/v1/stops/SLBB/departures?date=2031-06-01&time=08:00")
            #expect(b.departures?.isEmpty == true)
            #expect(b.emptyReason == "The timetable ends on 2030-12-31: there is no service data after that date.")
            let inside = try await board(client, "/api/v1/stops/SLBB/departures?date=2030-12-31&time=08:00")
            #expect(inside.emptyReason == nil && inside.departures?.isEmpty == false)
            try await client.execute(uri: "/stops/SLBB?date=2031-06-01&time=08:00", method: .get) { r in
                #expect(String(buffer: r.body).contains("The timetable ends on 2030-12-31"))
            }
        }
    }

    @Test("window and limit together: at most limit rows, all within the window")
    func windowAndLimit() async throws {
        try await TestServer.app(TestServer.deps(try TestServer.store())).test(.router) { client in
            let both = try await board(client, "/api/v1/stops/SLBB/departures?date=2026-11-23&time=08:00&window=60&limit=3")
            #expect(both.departures?.count == 3)
            let windowOnly = try await board(client, "/api/v1/stops/SLBB/departures?date=2026-11-23&time=08:00&window=60")
            #expect((windowOnly.departures?.count ?? 0) > 3)
            #expect(both.departures?.map(\.tripId) == windowOnly.departures?.prefix(3).map(\.tripId))
            #expect(windowOnly.departures?.allSatisfy { ($0.scheduledDeparture ?? "") < "2026-11-23T09:00:01+07:00" } == true)
        }
    }

    @Test("an instant with fractional seconds (RFC 3339) is the same board as without them")
    func fractionalSeconds() async throws {
        try await TestServer.app(TestServer.deps(try TestServer.store())).test(.router) { client in
            let plain = try await board(client, "/api/v1/stops/SLBB/departures?at=2026-11-23T08:00:00%2B07:00&limit=3")
            let fraction = try await board(client, "/api/v1/stops/SLBB/departures?at=2026-11-23T08:00:00.75%2B07:00&limit=3")
            #expect(plain.departures?.map(\.tripId) == fraction.departures?.map(\.tripId))
        }
    }
}
