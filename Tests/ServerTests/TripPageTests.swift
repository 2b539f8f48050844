import API
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OnwardCore
@testable import Server
@testable import Services
import SkiMap
import Testing

/// The trip pages and the map's own layers: what the web app serves around the live map.
@Suite("trip pages and map layers", .timeLimit(.minutes(5)))
struct TripPageTests {
    typealias P = PeopleAPITests

    static func deps(tiles: String? = nil) throws -> ServerDependencies {
        let area = try #require(TestServer.ski).area
        return try P.deps().replacing(settings: { $0.maps = MapLayers(ski: MapGeoJSON.skiArea(area), tileURL: tiles, tileAttribution: tiles == nil ? nil : "© Tiles Example") })
    }

    static let fetchSite = HTTPField.Name("Sec-Fetch-Site")!

    /// Signs up in the browser's way (a form), returning the session cookie.
    static func browserSession(_ client: some TestClientProtocol, _ name: String) async throws -> String {
        let r = try await client.execute(uri: "/signup", method: .post, headers: [.contentType: "application/x-www-form-urlencoded", Self.fetchSite: "same-origin"],
                                         body: ByteBuffer(string: "username=\(name)&password=correct+horse+battery"))
        let cookie = try #require(r.headers[HTTPField.Name.setCookie]).split(separator: ";")[0]
        return String(cookie)
    }

    @Test("the mountain map inside the ski area's boundary, the street map elsewhere")
    func whichMap() async throws {
        try await TestServer.app(try Self.deps()).test(.router) { client in
            for (lat, lon, expected) in [(42.5665203, 1.4449171, "mountain"), (42.5350919, 1.488898, "mountain"), (42.5471289, 1.5137913, "street"),
                                         (-6.2892744, 106.7749355, "street")] {
                let r = try await client.execute(uri: "/maps/where?lat=\(lat)&lon=\(lon)", method: .get)
                #expect(String(buffer: r.body) == #"{"map":"\#(expected)"}"#, "\(lat),\(lon)")
            }
            #expect(try await client.execute(uri: "/maps/where?lat=91&lon=0", method: .get).status == .badRequest)
        }
    }

    @Test("the ski layer: runs coloured by difficulty in the region's convention (freeride dashed), lifts, heights, the boundary")
    func skiLayer() async throws {
        try await TestServer.app(try Self.deps()).test(.router) { client in
            let r = try await client.execute(uri: "/maps/ski.geojson", method: .get)
            #expect(r.headers[.contentType] == "application/geo+json")
            let g = try #require(try JSONSerialization.jsonObject(with: Data(r.body.readableBytesView)) as? [String: Any])
            let features = try #require(g["features"] as? [[String: Any]])
            let props = features.compactMap { $0["properties"] as? [String: Any] }
            let runs = props.filter { $0["kind"] as? String == "run" }, lifts = props.filter { $0["kind"] as? String == "lift" }
            #expect(runs.count > 20 && lifts.count > 5)
            let colours = ["novice": "green", "easy": "blue", "intermediate": "red", "advanced": "black", "expert": "black", "freeride": "orange"]
            for run in runs { #expect(colours[run["difficulty"] as! String] == run["colour"] as? String && (run["dashed"] as? Bool) == (run["difficulty"] as? String == "freeride")) }
            #expect(props.filter { $0["kind"] as? String == "boundary" }.count == 1)
            // Heights along each line: [lon, lat, elevation], skied downhill.
            let line = try #require(features.first { ($0["properties"] as? [String: Any])?["kind"] as? String == "run" && (($0["properties"] as? [String: Any])?["dropMetres"] as? Int ?? 0) > 50 })
            let coordinates = try #require((line["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
            #expect(coordinates.allSatisfy { $0.count == 3 } && coordinates.first![2] > coordinates.last![2])
            let leaflet = try await client.execute(uri: "/assets/leaflet/LICENSE", method: .get)
            #expect(String(buffer: leaflet.body).contains("Vladimir Agafonkin"))
            #expect(try await client.execute(uri: "/assets/leaflet/leaflet.js", method: .get).headers[.contentType]?.hasPrefix("text/javascript") == true)
        }
    }

    @Test("a trip's page is its members' only; the operator's tile server is allowed on that page alone")
    func tripPage() async throws {
        try await TestServer.app(try Self.deps(tiles: "https://tiles.example.org/{z}/{x}/{y}.png")).test(.router) { client in
            let hana = try await Self.browserSession(client, "hana"), wes = try await Self.browserSession(client, "wes")
            let token = try await P.signUp(client, "tom")
            let trip = try await TripSocialAPITests.trip(client, host: token, travellers: [])
            // Hana is not on Tom's trip: its page is a 404, as for a trip that does not exist.
            let theirs = try await client.execute(uri: "/trips/\(trip.id)", method: .get, headers: [.cookie: hana])
            let none = try await client.execute(uri: "/trips/0123456789abcdef0123456789abcdef", method: .get, headers: [.cookie: wes])
            #expect(theirs.status == .notFound && none.status == .notFound)
            // She joins by the form with the code, and lands on the page.
            let form = try await client.execute(uri: "/trips", method: .get, headers: [.cookie: hana])
            let csrf = try #require(String(buffer: form.body).firstMatch(of: /name="_csrf" value="([^"]+)"/)?.1)
            let joined = try await client.execute(uri: "/trips/join", method: .post,
                                                  headers: [.cookie: hana, .contentType: "application/x-www-form-urlencoded", Self.fetchSite: "same-origin"],
                                                  body: ByteBuffer(string: "_csrf=\(csrf)&code=\(trip.inviteCode!.lowercased())"))
            #expect(joined.status == .seeOther && joined.headers[.location] == "/trips/\(trip.id)")
            let page = try await client.execute(uri: "/trips/\(trip.id)", method: .get, headers: [.cookie: hana])
            #expect(page.status == .ok && String(buffer: page.body).contains("data-trip=\"\(trip.id)\""))
            #expect(String(buffer: page.body).contains("data-tiles=\"https://tiles.example.org/{z}/{x}/{y}.png\""))
            #expect(page.headers[.contentSecurityPolicy]?.contains("img-src 'self' data: https://tiles.example.org") == true)
            let home = try await client.execute(uri: "/trips", method: .get, headers: [.cookie: hana])
            #expect(home.headers[.contentSecurityPolicy]?.contains("tiles.example.org") == false)
            // A wrong code says so, and keeps her where she was.
            let wrong = try await client.execute(uri: "/trips/join", method: .post,
                                                 headers: [.cookie: hana, .contentType: "application/x-www-form-urlencoded", Self.fetchSite: "same-origin"],
                                                 body: ByteBuffer(string: "_csrf=\(csrf)&code=NOPE"))
            #expect(wrong.headers[.location] == "/trips?notfound=1")
        }
    }

    @Test("a simulated skier's path is resampled every 30 m along the way")
    func resample() {
        let a = SkiPoint(latitude: 42.5, longitude: 1.5), b = SkiPoint(latitude: 42.501, longitude: 1.5)
        let points = TripSimulation.resample([a, b], every: 30)
        #expect(points.count == 4)
        for (x, y) in zip(points, points.dropFirst()) {
            #expect(abs(GreatCircle.metres(x.latitude, x.longitude, y.latitude, y.longitude) - 30) < 0.5)
        }
    }
}
