import API
import Foundation
import Testing
import WebPages

@Suite("Service page")
struct ServicePageTests {
    let page = ServicePage.render(Fixtures.service(), context: Fixtures.context(), routeColor: "CA1F47")

    /// The `<li>` of one call, by stop name.
    func call(_ name: String, in html: String) -> String? {
        html.components(separatedBy: "<li class=\"call").dropFirst()
            .first { $0.contains(">\(name)</a>") || $0.contains("<s>\(name)</s>") }
            .map { "<li class=\"call" + ($0.components(separatedBy: "</li>").first ?? "") }
    }

    @Test func headerNamesLineDestinationAndDate() {
        #expect(page.contains("<h1>NS to Bundaran HI</h1>"))
        #expect(page.contains("<time datetime=\"2026-11-23\">Mon 23 Nov 2026</time>"))
        #expect(page.contains("From Lebak Bulus"))
        #expect(page.contains("data-color=\"CA1F47\""))
        #expect(page.contains("<title>NS to Bundaran HI · Onward</title>"))
    }

    @Test func callsAreAnOrderedLineDiagram() throws {
        #expect(page.contains("<ol class=\"calls\" data-color=\"CA1F47\" aria-label=\"Calling points\">"))
        let first = try #require(call("Lebak Bulus", in: page))
        #expect(first.contains("is-passed"))
        #expect(first.contains("is-first"))
        let last = try #require(call("Bundaran HI", in: page))
        #expect(last.contains("is-last"))
        #expect(last.contains(">08:24</time>"))
        #expect(last.contains("href=\"/stops/GBHI02\""))
    }

    @Test func skippedCallsAreMarked() throws {
        let skipped = try #require(call("Blok M", in: page))
        #expect(skipped.contains("is-skipped"))
        #expect(skipped.contains("<s>Blok M</s>"))
        #expect(skipped.contains("Skipped"))
    }

    @Test func theVehicleIsDrawnOnItsWayToTheRightCall() throws {
        let target = try #require(call("Blok A", in: page))
        #expect(target.contains("vehicle-marker between"))
        #expect(target.contains("is-current"))
        #expect(target.contains("aria-label=\"Vehicle position: On its way to Blok A\""))
        // 08:05:40 to 08:07:29 is 109 s, but the times shown are 08:05 and 08:07: 2 minutes, as a traveller counts.
        #expect(target.contains("Late 2 min"))
        #expect(target.contains(">08:07</time>"))
        #expect(target.contains(#"<time class="time-expected status-late" datetime="2026-11-23T08:07:29+07:00">08:07</time>"#))
        #expect(page.contains("Train 27 · On its way to Blok A · reported 2 min ago"))
        for other in ["Lebak Bulus", "Fatmawati", "Blok M", "Bundaran HI"] {
            #expect(!(call(other, in: page) ?? "").contains("vehicle-marker"), "\(other)")
        }
        // Calls behind the vehicle are passed, the ones ahead are not.
        #expect(try #require(call("Fatmawati", in: page)).contains("is-passed"))
        #expect(!(try #require(call("Bundaran HI", in: page))).contains("is-passed"))
    }

    @Test func aStoppedVehicleSitsOnItsCall() throws {
        let html = ServicePage.fragment(Fixtures.service(vehicleStatus: "stoppedAt", vehicleStop: "GFTM02"), context: Fixtures.context())
        let at = try #require(call("Fatmawati", in: html))
        #expect(at.contains("vehicle-marker at-stop"))
        #expect(html.contains("Stopped at Fatmawati"))
        #expect(html.contains("data-summary=\"Service updated. Stopped at Fatmawati\""))
    }

    @Test func aCancelledServiceSaysSoAboveEverything() throws {
        let html = ServicePage.render(Fixtures.service(cancelled: true), context: Fixtures.context())
        let banner = try #require(html.range(of: "This service is cancelled"))
        let diagram = try #require(html.range(of: "<ol class=\"calls\""))
        #expect(banner.lowerBound < diagram.lowerBound)
        #expect(try #require(call("Bundaran HI", in: html)).contains("is-cancelled"))
    }

    @Test func liveFragmentAndSubscription() {
        let fragment = ServicePage.fragment(Fixtures.service(), context: Fixtures.context(), routeColor: "CA1F47")
        #expect(page.contains(fragment))
        #expect(page.contains("data-live=\"service=NS-WD-LBB-BHI-027&amp;date=2026-11-23&amp;lang=en&amp;format=html\""))
        #expect(fragment.contains("Simulated live data"))
        #expect(fragment.contains("Reduced speed near Blok A"))
    }

    @Test func indonesianService() {
        let html = ServicePage.render(Fixtures.service(), context: Fixtures.context(.id))
        #expect(html.contains("<h1>NS tujuan Bundaran HI</h1>"))
        #expect(html.contains("Sen, 23 Nov 2026"))
        #expect(html.contains("Dilewati"))
        #expect(html.contains("Dalam perjalanan menuju Blok A"))
        #expect(html.contains("Sudah berangkat"))
    }
}
