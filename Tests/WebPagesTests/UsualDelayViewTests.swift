import API
import Foundation
import Testing
import WebPages

// How late it usually is (issue 27, item 1), on the pages: words with how much history says so, only where there is enough.
@Suite("Usual delays on the pages")
struct UsualDelayViewTests {
    static func usual(low: Int, median: Int, high: Int, cancelled: Int = 0, days: Int = 12, enough: Bool = true) -> String {
        #""usualDelay": {"dayKind": "weekday", "hour": 8, "observed": 120, "cancelled": \#(cancelled), "days": \#(days), "#
            + #""departureLowMinutes": \#(low), "departureMedianMinutes": \#(median), "departureHighMinutes": \#(high), "#
            + #""cancelledOneIn": \#(cancelled == 0 ? "null" : String((120 + cancelled) / cancelled)), "enough": \#(enough)}"#
    }

    static let board = Fixtures.board(entries: [
        Fixtures.entry(trip: "T-LATE", scheduled: "2026-11-23T08:03:20+07:00", status: "noLiveData", extra: usual(low: 3, median: 4, high: 6, cancelled: 10)),
        Fixtures.entry(trip: "T-ONTIME", scheduled: "2026-11-23T08:06:00+07:00", status: "noLiveData", extra: usual(low: 0, median: 0, high: 1)),
        Fixtures.entry(trip: "T-UPTO", scheduled: "2026-11-23T08:07:00+07:00", status: "noLiveData", extra: usual(low: 0, median: 1, high: 5)),
        Fixtures.entry(trip: "T-THIN", scheduled: "2026-11-23T08:09:00+07:00", status: "noLiveData",
                       extra: usual(low: 9, median: 9, high: 9, days: 2, enough: false)),
        Fixtures.entry(trip: "T-GONE", scheduled: "2026-11-23T08:10:00+07:00", status: "cancelled", extra: usual(low: 3, median: 4, high: 6)),
    ])

    func row(_ trip: String, in html: String) -> String? {
        html.components(separatedBy: "<tr ").dropFirst().first { $0.contains("/services/\(trip)?") }
            .map { "<tr " + ($0.components(separatedBy: "</tr>").first ?? "") }
    }

    @Test func aBoardRowSaysHowLateItUsuallyIsWithHowMuchHistorySaysSo() throws {
        let page = BoardPage.render(Self.board, context: Fixtures.context())
        let late = try #require(row("T-LATE", in: page))
        #expect(late.contains(#"<span class="usual-delay" title="From 130 calls on 12 days of history">Usually 3–6 min late at this hour · cancelled 1 in 13</span>"#))
        #expect(try #require(row("T-ONTIME", in: page)).contains("Usually on time at this hour</span>"))
        #expect(try #require(row("T-UPTO", in: page)).contains("Usually up to 5 min late at this hour</span>"))
        // Too little history, or a row that will not run: nothing said.
        #expect(try !#require(row("T-THIN", in: page)).contains("usual-delay"))
        #expect(try !#require(row("T-GONE", in: page)).contains("usual-delay"))
    }

    @Test func inIndonesian() throws {
        let page = BoardPage.render(Self.board, context: Fixtures.context(.id))
        #expect(try #require(row("T-LATE", in: page)).contains("Biasanya terlambat 3–6 menit pada jam ini · dibatalkan 1 dari 13"))
    }
}

// A vehicle the feed gives no position for, placed by its live times on the service page (issue 27, item 3).
@Suite("A vehicle placed by its live times")
struct PlacedVehicleViewTests {
    @Test func theMapGetsThePlaceAndTheWordsSayHowItWasFound() throws {
        var service = Fixtures.service()
        service.vehicle = nil
        service.placedVehicle = Fixtures.decode(PlacedVehicleDTO.self, """
            {"latitude": -6.25, "longitude": 106.8, "stopId": "\(service.calls[3].stopId)", "atStop": false, "basis": "liveTimes"}
            """)
        let page = ServicePage.render(service, context: Fixtures.context(), routeColor: "CA1F47")
        #expect(page.contains(#"data-vehicle-lat="-6.25" data-vehicle-lon="106.8""#))
        #expect(page.contains(#"data-vehicle-basis="liveTimes""#))
        #expect(page.contains("placed by its live times (the feed gives no position)"))
        #expect(page.contains("vehicle-marker between"))
    }

    @Test func aBoardRowOpensTheMapOfItsServiceWhereTheSourcePlacesVehicles() throws {
        var board = Fixtures.board()
        board.sourceCapabilities = ["departures", "serviceDetails", "vehicles", "anyTime"]
        let page = BoardPage.render(board, context: Fixtures.context())
        let rows = page.components(separatedBy: "<tr ").dropFirst()
        let late = try #require(rows.first { $0.contains("/services/T-LATE?") })
        #expect(late.contains(#"<a class="row-map" href="/services/T-LATE?date=2026-11-23#service-map" aria-label="Map of the service to Lebak Bulus">Map</a>"#))
        #expect(try !#require(rows.first { $0.contains("/services/T-CANCELLED?") }).contains("row-map"))
        // A source with no vehicles (a board of predictions, or a timetable with no map): no link.
        board.sourceCapabilities = ["departures", "serviceDetails", "anyTime"]
        #expect(!BoardPage.render(board, context: Fixtures.context()).contains("row-map"))
    }
}
