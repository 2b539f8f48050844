import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@Suite("Web pages through the server")
struct PageTests {
    func text(_ r: TestResponse) -> String { String(decoding: r.body.readableBytesView, as: UTF8.self) }

    @Test("home, search, board, service and alerts pages answer with HTML and no inline script or style")
    func pages() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.router) { client in
            var serviceLink = ""
            for uri in ["/", "/search?q=blok", "/stops/SLBB", "/stops/SLBB?arrivals=1", "/stops/SLBB?to=SBHI", "/alerts", "/journeys",
                        "/journeys?from=SLBB&to=SBHI"] {
                try await client.execute(uri: uri, method: .get) { r in
                    #expect(r.status == .ok, "\(uri)")
                    #expect(r.headers[.contentType] == "text/html; charset=utf-8")
                    let html = text(r)
                    #expect(html.lowercased().hasPrefix("<!doctype html>"), "\(uri)")
                    #expect(html.range(of: #"<script(?![^>]*\bsrc=)"#, options: .regularExpression) == nil, "\(uri): inline script")
                    #expect(html.range(of: #"\sstyle=""#, options: .regularExpression) == nil, "\(uri): inline style")
                    if uri == "/stops/SLBB", let range = html.range(of: #"/services/[^"]+"#, options: .regularExpression) {
                        serviceLink = String(html[range]).replacingOccurrences(of: "&amp;", with: "&")
                    }
                }
            }
            #expect(serviceLink.hasPrefix("/services/"))
            try await client.execute(uri: serviceLink, method: .get) { r in
                #expect(r.status == .ok)
                #expect(text(r).contains("Simulated"))
            }
        }
    }

    @Test("the home page lists the line's stations in the order the trains call, Lebak Bulus to Bundaran HI")
    func homeStationsInLineOrder() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.router) { client in
            try await client.execute(uri: "/", method: .get) { r in
                let html = text(r)
                let browse = try #require(html.range(of: #"id="browse-title""#)).upperBound
                let names = html[browse...].matches(of: /<span class="stop-name">([^<]*)<\/span>/).map { String($0.output.1) }
                // stop_times.txt of every full trip with direction_id 0 (Lebak Bulus to Bundaran HI), station by station.
                #expect(names == ["Lebak Bulus Bank Syariah Indonesia", "Fatmawati Indomaret", "Cipete Raya TUKU", "Haji Nawi", "Blok A",
                                  "Blok M BCA", "ASEAN Headquarters", "Senayan Mastercard", "Istora Mandiri", "Bendungan Hilir",
                                  "Setiabudi Astra", "Dukuh Atas BNI", "Bundaran HI Bank Jakarta"].map { "Stasiun MRT " + $0 })
            }
        }
    }

    @Test("the journey page: places typed by name are matched, an hour of journeys with their legs; a place not found is said on the page")
    func journeyPage() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.router) { client in
            try await client.execute(uri: "/journeys?from=lebak&to=bundaran&date=2026-11-23&time=08:00", method: .get) { r in
                #expect(r.status == .ok)
                let html = text(r)
                // The typed names resolved to the stations, kept in the form.
                #expect(html.contains(#"name="fromId" value="mrt-jakarta:SLBB""#))
                #expect(html.contains(#"name="toId" value="mrt-jakarta:SBHI""#))
                // An hour of departures every five minutes, each a ride from platform 2 with its service linked.
                #expect(html.components(separatedBy: #"<li class="journey panel">"#).count - 1 == 8)
                // The test server simulates live data, so the times shown are expected ones: 08:0x, about 30 min later.
                #expect(html.contains(#"<p class="journey-summary"><span class="journey-times"><time datetime="2026-11-23T08:0"#))
                #expect(html.contains("?date=2026-11-23\">to Bundaran HI</a>"))
                #expect(html.components(separatedBy: "Platform 2").count - 1 == 16)
            }
            try await client.execute(uri: "/journeys?from=lebak&to=zzzzqqq", method: .get) { r in
                #expect(r.status == .ok)
                let html = text(r)
                #expect(html.contains(#"role="alert""#))
                #expect(html.contains("zzzzqqq"))
                #expect(!html.contains("journey-list"))
            }
            // Every board offers to plan from its stop.
            try await client.execute(uri: "/stops/SBKM", method: .get) { r in
                #expect(text(r).contains(#"href="/journeys?from=mrt-jakarta%3ASBKM""#))
            }
        }
    }

    @Test("the board page lists the board's rows and subscribes to live updates")
    func boardPage() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.router) { client in
            try await client.execute(uri: "/stops/SLBB", method: .get) { r in
                let html = text(r)
                #expect(html.contains(#"id="board-rows""#))
                #expect(html.contains("data-live=\"board=mrt-jakarta%3ASLBB"))
                #expect(html.components(separatedBy: "/services/").count > 5)
            }
        }
    }

    @Test("?lang=id gives Indonesian and remembers it in a cookie; Accept-Language is followed")
    func language() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.router) { client in
            try await client.execute(uri: "/stops/SLBB?lang=id", method: .get) { r in
                #expect(text(r).contains(#"<html lang="id""#))
                #expect(text(r).contains("Keberangkatan"))
                #expect(r.headers[values: .setCookie].contains { $0.hasPrefix("lang=id;") })
            }
            try await client.execute(uri: "/", method: .get, headers: [.cookie: "lang=id"]) { r in
                #expect(text(r).contains(#"<html lang="id""#))
            }
            try await client.execute(uri: "/", method: .get, headers: [.acceptLanguage: "id-ID,id;q=0.9,en;q=0.5"]) { r in
                #expect(text(r).contains(#"<html lang="id""#))
            }
            try await client.execute(uri: "/", method: .get, headers: [.cookie: "theme=dark"]) { r in
                #expect(text(r).contains(#"data-theme="dark""#))
            }
        }
    }

    @Test("an unknown stop or page is an HTML page with a way back, not raw error text")
    func errorPages() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.router) { client in
            try await client.execute(uri: "/stops/NOPE", method: .get) { r in
                #expect(r.status == .notFound)
                #expect(r.headers[.contentType] == "text/html; charset=utf-8")
                #expect(text(r).contains("NOPE"))
                #expect(text(r).contains(#"href="/""#))
            }
            try await client.execute(uri: "/no/such/page", method: .get) { r in
                #expect(r.status == .notFound)
                #expect(r.headers[.contentType] == "text/html; charset=utf-8")
                #expect(!text(r).contains("HTTPError"))
            }
        }
    }

    @Test("assets are served with a year's caching")
    func assets() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.router) { client in
            for (uri, type) in [("/assets/app.css", "text/css"), ("/assets/app.js", "text/javascript")] {
                try await client.execute(uri: uri, method: .get) { r in
                    #expect(r.status == .ok)
                    #expect(r.headers[.contentType]?.hasPrefix(type) == true)
                    #expect(r.headers[.cacheControl]?.contains("immutable") == true)
                }
            }
        }
    }
}
