import API
import Foundation
import Testing
import WebPages

// The service page's map (issue 27, item 3): what the page gives its script.
@Suite("Service page map")
struct ServiceMapTests {
    static func located() -> ServiceDTO {
        var service = Fixtures.service()
        let places = [(-6.29, 106.77), (-6.27, 106.78), (-6.25, 106.79), (-6.23, 106.8), (-6.21, 106.81)]
        for (i, (lat, lon)) in places.enumerated() {
            service.calls[i].latitude = lat
            service.calls[i].longitude = lon
        }
        service.vehicle?.latitude = -6.255
        service.vehicle?.longitude = 106.79
        return service
    }

    @Test func theMapHasTheStopsInOrderTheLineColourAndAPlainBackgroundByDefault() throws {
        let page = ServicePage.render(Self.located(), context: Fixtures.context(), routeColor: "CA1F47")
        let map = try #require(page.components(separatedBy: "<div id=\"service-map\"").dropFirst().first?.components(separatedBy: "</div>").first)
        #expect(map.contains(#"role="region" aria-label="Map of the service: its way, its stops and its vehicle""#))
        #expect(map.contains(#"data-stops="[[-6.29,106.77,&quot;Lebak Bulus&quot;],[-6.27,106.78,&quot;Fatmawati&quot;],"#))
        #expect(map.contains(#"data-color="CA1F47""#))
        #expect(!map.contains("data-tiles") && !map.contains("data-shapes"))
        #expect(map.contains(#"data-live-part="service-live""#))
        #expect(page.contains("Drawn without a background map."))
        #expect(page.contains(#"<script src="/assets/line-map.js?v="#))
        // The live part says where the vehicle is, for the script to move the marker at each redraw.
        let fragment = ServicePage.fragment(Self.located(), context: Fixtures.context())
        #expect(fragment.contains(#"data-vehicle-lat="-6.255" data-vehicle-lon="106.79" data-vehicle-label="Train 27 · On its way to Blok A · reported 2 min ago""#))
    }

    @Test func withTheOperatorsTilesAndTheFeedsShape() throws {
        var service = Self.located()
        service.shape = "_p~iF~ps|U_ulLnnqC"
        let page = ServicePage.render(service, context: Fixtures.context(), routeColor: nil,
                                      tiles: LineMap.Tiles(url: "https://tiles.example/{z}/{x}/{y}.png", attribution: "© Example"))
        #expect(page.contains(#"data-shapes="_p~iF~ps|U_ulLnnqC""#))
        #expect(page.contains(#"data-tiles="https://tiles.example/{z}/{x}/{y}.png" data-tile-attribution="© Example""#))
        #expect(page.contains("The stops and where the vehicle is are also listed below."))
    }

    @Test func noMapWithoutCoordinates() {
        let page = ServicePage.render(Fixtures.service(), context: Fixtures.context())
        #expect(!page.contains("service-map"))
        #expect(!ServicePage.fragment(Fixtures.service(), context: Fixtures.context()).contains("data-vehicle-lat"))
    }
}
