import API
import Foundation
import OnwardCore
import Testing
import WebPages

// A route's page (issue 27, item 3): its vehicles in words, which the map's script reads to place them.
@Suite("Route page")
struct RoutePageTests {
    /// A train standing at Blok M (placed by its live times) and one reported on its way to Fatmawati, 4 minutes late.
    static func vehicles(stale: Bool = false) -> RouteVehiclesDTO {
        Fixtures.decode(RouteVehiclesDTO.self, """
        {"routeId": "mrt-jakarta:M", "timeZone": "Asia/Jakarta",
         "live": {"simulated": false, "stale": \(stale), "unavailable": [], "updatedAt": "2026-11-23T00:59:00Z"},
         "vehicles": [
          {"tripId": "mrt-jakarta:T1", "serviceDate": "2026-11-23", "headsign": "Lebak Bulus", "latitude": -6.2443, "longitude": 106.7984,
           "basis": "liveTimes", "next": {"stopId": "mrt-jakarta:SBKM", "name": "Blok M", "due": "2026-11-23T08:01:00+07:00", "atStop": true}},
          {"tripId": "mrt-jakarta:T2", "serviceDate": "2026-11-23", "headsign": "Bundaran HI", "latitude": -6.27, "longitude": 106.79,
           "basis": "position", "vehicle": {"id": "27", "label": "Train 27", "occupancy": {"level": "fewSeatsAvailable", "basis": "vehicleNow"}},
           "next": {"stopId": "mrt-jakarta:SFTM", "name": "Fatmawati", "due": "2026-11-23T08:04:00+07:00", "delaySeconds": 240, "atStop": false}}
         ]}
        """)
    }

    @Test func eachVehicleSaysWhereItIsGoingAndWhereItIsForTheMap() {
        let html = RoutePage.fragment(Self.vehicles(), context: Fixtures.context())
        #expect(html.contains(#"data-summary="2 on the way""#))
        // When the live data was made, on the route's clock (Jakarta), whether or not a vehicle is listed.
        #expect(html.contains("Live data from 07:59"))
        #expect(html.contains(#"data-vehicle-key="mrt-jakarta:T1@2026-11-23" data-vehicle-lat="-6.2443" data-vehicle-lon="106.7984" data-vehicle-label="To Lebak Bulus · at Blok M, leaves 08:01 · placed by its live times" data-vehicle-basis="liveTimes""#))
        #expect(html.contains(#"data-vehicle-key="mrt-jakarta:T2@2026-11-23#27""#))
        #expect(html.contains("To Bundaran HI · next Fatmawati at 08:04 · Late 4 min"))
        #expect(html.contains(#"data-occupancy="fewSeatsAvailable""#))
        #expect(html.contains(#"<a href="/services/mrt-jakarta%3AT2?date=2026-11-23">To Bundaran HI</a>"#))
    }

    @Test func staleDataIsSaidAndIndonesianReadsAsIndonesian() {
        let html = RoutePage.fragment(Self.vehicles(stale: true), context: Fixtures.context(.id))
        #expect(html.contains("2 dalam perjalanan"))
        #expect(html.contains("Ke Bundaran HI · berikutnya Fatmawati pukul 08:04"))
        #expect(html.contains(#"data-stale="true""#))
    }

    @Test func noVehicleOnItsWayIsSaid() {
        var none = Self.vehicles()
        none.vehicles = []
        #expect(RoutePage.fragment(none, context: Fixtures.context()).contains("No vehicle of this route is on its way now."))
    }
}
