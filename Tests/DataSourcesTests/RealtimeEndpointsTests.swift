import DataSources
import Foundation
import Testing

@Suite struct RealtimeEndpointsTests {
    @Test func locationsParseAsURLsOrPaths() {
        #expect(FeedLocation("https://api.example/tu.pb") == .url(URL(string: "https://api.example/tu.pb")!))
        #expect(FeedLocation("HTTP://api.example/vp") == .url(URL(string: "HTTP://api.example/vp")!))
        #expect(FeedLocation("file:///var/feeds/alerts.pb") == .file(path: "/var/feeds/alerts.pb"))
        #expect(FeedLocation("feeds/alerts.pb") == .file(path: "feeds/alerts.pb"))
        #expect(FeedLocation("  ") == nil)
    }

    @Test func eachKindMayBeAbsent() {
        let alertsOnly = RealtimeEndpoints(feed: "mta", alerts: FeedLocation("https://api.example/alerts"))
        #expect(alertsOnly.configured.map(\.kind) == [.alerts])
        #expect(alertsOnly[.tripUpdates] == nil)
        #expect(RealtimeEndpoints(feed: "none").isEmpty)

        var all = alertsOnly
        all[.tripUpdates] = FeedLocation("tu.pb")
        all[.vehiclePositions] = FeedLocation("vp.pb")
        #expect(all.configured.map(\.kind) == [.tripUpdates, .vehiclePositions, .alerts])
    }

    @Test func endpointsRoundTripThroughJSONAsPlainStrings() throws {
        let endpoints = RealtimeEndpoints(feed: "cta", tripUpdates: FeedLocation("https://api.example/tu"),
                                          alerts: FeedLocation("/data/alerts.pb"))
        let json = try JSONEncoder().encode(endpoints)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains("\"\\/data\\/alerts.pb\"") || text.contains("\"/data/alerts.pb\""))
        #expect(try JSONDecoder().decode(RealtimeEndpoints.self, from: json) == endpoints)
        #expect(throws: DecodingError.self) {
            _ = try JSONDecoder().decode(RealtimeEndpoints.self, from: Data(#"{"feed":"x","alerts":""}"#.utf8))
        }
    }
}
