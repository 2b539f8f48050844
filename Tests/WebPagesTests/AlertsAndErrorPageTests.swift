import Foundation
import API
import OnwardCore
import Testing
import WebPages

@Suite("Alerts and error pages")
struct AlertsAndErrorPageTests {
    @Test func alertsListWithSeverityPeriodsAndSafeLinks() {
        let dto = Fixtures.alerts([
            Fixtures.alert(id: "A1", header: "No trains between Blok M and Senayan", high: true, severity: "severe",
                           url: "https://jakartamrt.co.id/info"),
            Fixtures.alert(id: "A2", header: "Lift closed", high: false, url: "javascript:alert(1)"),
        ])
        let html = AlertsPage.render(dto, context: Fixtures.context(), names: EntityNames(routes: ["MRTJ_NS": "North–South"]))
        #expect(html.contains("<h1>Alerts</h1>"))
        #expect(html.contains("<span class=\"severity severity-severe\">Severe</span>"))
        #expect(html.contains("<span class=\"severity severity-warning\">Warning</span>"))
        #expect(html.contains("Mon 23 Nov 2026, 07:30 to 10:00"))
        #expect(html.contains("<a href=\"https://jakartamrt.co.id/info\" rel=\"noopener noreferrer external\" target=\"_blank\">More information</a>"))
        #expect(!html.contains("javascript:"))
        #expect(html.contains(">North–South</a>"))
        #expect(html.contains("href=\"/stops/SBKM\""))
        #expect(html.contains("2 more not active right now."))
        #expect(html.contains("aria-current=\"page\">Alerts</a>"))
        #expect(html.contains("Major delays · Maintenance"))
    }

    @Test func noAlertsAndIndonesian() {
        let html = AlertsPage.render(Fixtures.alerts([], stop: true), context: Fixtures.context(.id))
        #expect(html.contains("Pemberitahuan untuk Stasiun MRT Blok M BCA"))
        #expect(html.contains("Tidak ada pemberitahuan saat ini."))
    }

    @Test func multiLineDescriptionsBecomeParagraphs() {
        let dto = Fixtures.alerts([Fixtures.alert(id: "A", header: "H", high: false, description: "Line one.\\nLine two.")])
        let html = AlertsPage.render(dto, context: Fixtures.context())
        #expect(html.contains("<p>Line one.</p><p>Line two.</p>"))
    }

    @Test(arguments: [400, 404, 429, 500, 503])
    func errorPagesAreWrittenForTravellers(status: Int) {
        let html = ErrorPage.render(status: status, context: Fixtures.context())
        #expect(html.contains("Error \(status)"))
        #expect(html.contains("href=\"/\">Go to the home page</a>"))
        let messages = ["couldn’t understand", "nothing at this address", "Too many requests", "on our side", "briefly unavailable"]
        #expect(messages.contains { html.contains($0) })
    }

    @Test func notFoundPagesNameWhatWasMissingAndOfferSearch() {
        let stop = ErrorPage.stopNotFound("X<1>", context: Fixtures.context())
        #expect(stop.contains("No stop with ID “X&lt;1&gt;”."))
        #expect(stop.contains("action=\"/search\""))
        #expect(stop.contains("href=\"/stops/X%3C1%3E?lang=id\""))
        let trip = ErrorPage.serviceNotRunning("T1", date: "2026-11-23", context: Fixtures.context(.id))
        #expect(trip.contains("Perjalanan “T1” tidak beroperasi pada Sen, 23 Nov 2026."))
        #expect(ErrorPage.serviceNotFound("T9", context: Fixtures.context()).contains("No service with ID “T9”."))
    }

    @Test func homeAndSearchPages() {
        let home = HomePage.render(context: Fixtures.context(), stations: Fixtures.stops.stops)
        #expect(home.contains("action=\"/search\" method=\"get\""))
        #expect(home.contains("data-stop-search data-target=\"/stops/{id}\""))
        #expect(home.contains("Use my location"))
        #expect(home.contains("Recent stations"))
        #expect(home.contains("href=\"/stops/SBKA\""))
        let results = SearchPage.render(query: "blok", results: Fixtures.stops, context: Fixtures.context())
        #expect(results.contains("Results for “blok”"))
        #expect(results.contains("2 stations found"))
        #expect(results.contains("Station · Code M05 · 1.2 km"))
        #expect(results.contains("value=\"blok\""))
        let idResults = SearchPage.render(query: "blok", results: Fixtures.stops, context: Fixtures.context(.id))
        #expect(idResults.contains("Stasiun · Kode M05 · 1,2 km"))
        let none = SearchPage.render(query: "zzz", results: StopsDTO([]), context: Fixtures.context())
        #expect(none.contains("No stations match “zzz”."))
    }
}
