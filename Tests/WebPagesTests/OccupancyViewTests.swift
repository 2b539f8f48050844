import API
import Foundation
import Testing
import WebPages

// How full a vehicle is, on the pages (issue 27, item 2): words and a figure, never colour alone.
@Suite("Occupancy on the pages")
struct OccupancyViewTests {
    static let board = Fixtures.board(entries: [
        Fixtures.entry(trip: "T-FORECAST", scheduled: "2026-11-23T08:03:20+07:00", expected: "2026-11-23T08:03:20+07:00", status: "onTime", delay: 0,
                       extra: #""occupancy": {"level": "fewSeatsAvailable", "basis": "forecastAtStop"}"#),
        Fixtures.entry(trip: "T-NOW", scheduled: "2026-11-23T08:06:00+07:00", expected: "2026-11-23T08:06:00+07:00", status: "onTime", delay: 0,
                       extra: #""occupancy": {"level": "standingRoomOnly", "percentage": 85, "basis": "vehicleNow"}"#),
        Fixtures.entry(trip: "T-NONE", scheduled: "2026-11-23T08:09:00+07:00", status: "noLiveData"),
    ])

    func row(_ trip: String, in html: String) -> String? {
        html.components(separatedBy: "<tr ").dropFirst().first { $0.contains("/services/\(trip)?") }
            .map { "<tr " + ($0.components(separatedBy: "</tr>").first ?? "") }
    }

    @Test func aBoardRowSaysHowFullInWordsWithAFigureAndWhatItIsBasedOn() throws {
        let page = BoardPage.render(Self.board, context: Fixtures.context())
        let forecast = try #require(row("T-FORECAST", in: page))
        #expect(forecast.contains(#"<span class="occupancy occupancy-2" title="How full it is expected to be leaving this stop" data-occupancy="fewSeatsAvailable">"#))
        #expect(forecast.contains("</svg> Few seats free</span>"))
        // Two of the three figures filled, hidden from screen readers (the words are read).
        #expect(forecast.components(separatedBy: "<g class=\"on\">").count - 1 == 2)
        #expect(forecast.contains(#"aria-hidden="true""#))
        let now = try #require(row("T-NOW", in: page))
        #expect(now.contains(#"title="How full it was at its last report""#))
        #expect(now.contains("Standing room only (85% full)</span>"))
        #expect(now.components(separatedBy: "<g class=\"on\">").count - 1 == 3)
        let none = try #require(row("T-NONE", in: page))
        #expect(!none.contains("occupancy"))
    }

    @Test func inIndonesian() throws {
        let page = BoardPage.render(Self.board, context: Fixtures.context(.id))
        #expect(try #require(row("T-FORECAST", in: page)).contains("Sedikit kursi kosong"))
        #expect(try #require(row("T-NOW", in: page)).contains("Hanya tempat berdiri (85% terisi)"))
    }

    @Test func aServiceShowsTheVehicleWithItsCarriagesFromTheFrontAndEachCallsForecast() throws {
        var service = Fixtures.service()
        service.vehicle?.occupancy = Fixtures.decode(OccupancyDTO.self, """
        {"level": "fewSeatsAvailable", "percentage": 64, "basis": "vehicleNow",
         "carriages": [{"sequence": 1, "label": "Car 1", "level": "manySeatsAvailable", "percentage": 40},
                       {"sequence": 2, "level": "standingRoomOnly", "percentage": 88},
                       {"sequence": 3, "level": "notBoardable"}]}
        """)
        service.calls[4].occupancy = Fixtures.decode(OccupancyDTO.self, #"{"level": "full", "basis": "forecastAtStop"}"#)
        service.calls[2].occupancy = Fixtures.decode(OccupancyDTO.self, #"{"level": "empty", "basis": "forecastAtStop"}"#)
        let page = ServicePage.render(service, context: Fixtures.context(), routeColor: "CA1F47")
        #expect(page.contains(#"<div class="vehicle-occupancy"><span class="occupancy-heading">How full:</span>"#))
        #expect(page.contains("Few seats free (64% full)"))
        let list = try #require(page.components(separatedBy: #"<ol class="carriages" aria-label="How full each carriage is, from the front">"#).dropFirst().first?
            .components(separatedBy: "</ol>").first)
        let items = list.components(separatedBy: "<li ").dropFirst().map { $0 }
        #expect(items.count == 3)
        #expect(items[0].contains(#"<span class="carriage-name">Car 1</span>"#) && items[0].contains("Many seats free (40% full)"))
        #expect(items[1].contains(#"<span class="carriage-name">Carriage 2</span>"#) && items[1].contains("Standing room only (88% full)"))
        #expect(items[2].contains("No boarding"))
        // A call's forecast sits with its status; the last call, where no one leaves, shows none.
        let blokA = try #require(page.components(separatedBy: "<li class=\"call").first { $0.contains(">Blok A</a>") })
        #expect(blokA.contains(#"data-occupancy="empty""#))
        let last = try #require(page.components(separatedBy: "<li class=\"call").first { $0.contains(">Bundaran HI</a>") })
        #expect(!last.contains("data-occupancy"))
    }
}
