import App
import Foundation
import GTFS
import OnwardCore
import OnwardTesting
import Testing
@testable import Timetable

/// Stop search and nearby stops on the bundled MRT Jakarta network.
/// Expected IDs and distances read from the bundled zip's stops.txt (stations are location_type 1;
/// distances by the haversine formula with R = 6,371,008.8 m in a throw-away Python script).
@Suite("Stop search")
struct SearchTests {
    static let network = Result { try Network.load([]).timetable }

    @Test func lebakFindsLebakBulus() throws {
        let tt = try Self.network.get()
        let found = tt.searchStops("lebak")
        #expect(found.first?.id == "mrt-jakarta:SLBB")
        #expect(found.first?.name == "Stasiun MRT Lebak Bulus Bank Syariah Indonesia")
        #expect(found.first?.kind == .station)
        // Platforms (GLBB01/02) and entrances are reached through their station, not listed.
        #expect(found.map(\.id) == ["mrt-jakarta:SLBB"])
        guard case .found(let s) = tt.resolveStop("lebak") else { Issue.record("lebak did not resolve"); return }
        #expect(tt.place(s).id == "mrt-jakarta:SLBB")
    }

    @Test("a name with a typo finds nothing, but the nearest names are suggested", arguments: [
        ("Bundran HI", "mrt-jakarta:SBHI"), ("Lebak Bulsu", "mrt-jakarta:SLBB"), ("fatmawatti", "mrt-jakarta:SFTM"), ("blok n", "mrt-jakarta:SBKM"),
    ])
    func nearestNames(query: String, id: String) throws {
        let tt = try Self.network.get()
        guard case .notFound = tt.resolveStop(query) else { Issue.record("\(query) resolved"); return }
        let near = tt.nearestNames(query)
        #expect(near.map(\.id).contains(id), "\(near.map(\.name))")
        if query == "Bundran HI" { #expect(near.map(\.id) == ["mrt-jakarta:SBHI"]) }
        #expect(near.count <= 3)
        #expect(tt.nearestNames("xyzzy quux").isEmpty)
        #expect(Timetable.editDistance(Array("bundran hi".utf8), Array("bundaran hi".utf8), atMost: 2) == 1)
        #expect(Timetable.editDistance(Array("kitten".utf8), Array("sitting".utf8), atMost: 5) == 3)
    }

    @Test(arguments: ["BUNDARÁN", "bundaran", "Bundaran hi", "bundarán-HI", "MRT BUNDARAN"])
    func accentAndCaseInsensitive(query: String) throws {
        let tt = try Self.network.get()
        #expect(tt.searchStops(query).map(\.id) == ["mrt-jakarta:SBHI"])
    }

    @Test func stopCodeAndIDMatchExactly() throws {
        let tt = try Self.network.get()
        // M13 is the stop_code of SBHI; GBHI01 is a platform ID (found by exact ID though not listed).
        #expect(tt.searchStops("M13").first?.id == "mrt-jakarta:SBHI")
        #expect(tt.searchStops("GBHI01").first?.id == "mrt-jakarta:GBHI01")
        guard case .found(let s) = tt.resolveStop("GBHI01") else { Issue.record("GBHI01 did not resolve"); return }
        #expect(tt.place(s).parentID == "mrt-jakarta:SBHI")
        #expect(tt.place(s).platform == "1")
        // Codes and IDs in any case; no match for a near miss of the same length or a prefix.
        #expect(tt.searchStops("m13").first?.id == "mrt-jakarta:SBHI")
        #expect(tt.searchStops("gbhi01").first?.id == "mrt-jakarta:GBHI01")
        #expect(tt.searchStops("GBHI0").first?.id != "mrt-jakarta:GBHI01")
        #expect(tt.searchStops("GBHI0!").isEmpty)
    }

    @Test func unknownAndAmbiguous() throws {
        let tt = try Self.network.get()
        #expect(tt.searchStops("zzzz").isEmpty)
        #expect(tt.searchStops("   ").isEmpty)
        guard case .notFound = tt.resolveStop("zzzz") else { Issue.record("zzzz should not resolve"); return }
        // "Stasiun MRT" starts every station's name: several candidates.
        guard case .ambiguous(let candidates) = tt.resolveStop("stasiun mrt") else { Issue.record("should be ambiguous"); return }
        #expect(candidates.count == 12)
        #expect(candidates.allSatisfy { $0.kind == .station })
    }

    @Test func nearbyWithinARadiusSortedByDistance() throws {
        let tt = try Self.network.get()
        // From Blok A (SBKA, -6.2557793, 106.7971403): Haji Nawi 1,214 m, Blok M 1,263 m, ASEAN 1,896 m.
        let near = tt.nearbyStops(latitude: -6.2557793, longitude: 106.7971403, radius: 1500)
        #expect(near.map(\.id) == ["mrt-jakarta:SBKA", "mrt-jakarta:SHJN", "mrt-jakarta:SBKM"])
        #expect(near.map(\.distance) == [0, 1214, 1263])
        let tighter = tt.nearbyStops(latitude: -6.2557793, longitude: 106.7971403, radius: 1240)
        #expect(tighter.map(\.id) == ["mrt-jakarta:SBKA", "mrt-jakarta:SHJN"])
        let limited = tt.nearbyStops(latitude: -6.2557793, longitude: 106.7971403, radius: 2000, limit: 2)
        #expect(limited.map(\.id) == ["mrt-jakarta:SBKA", "mrt-jakarta:SHJN"])
        #expect(tt.nearbyStops(latitude: 0, longitude: 0, radius: 5000).isEmpty)
    }

    @Test func stationBoardOnTheBundledNetwork() throws {
        let tt = try Self.network.get()
        let station = try #require(tt.stop(id: "SLBB"))
        // Lebak Bulus is a terminus: every departure heads north, from platform GLBB01 or GLBB02.
        let range = try #require(tt.calendarRange)
        let day = range.lowerBound
        let from = LocalTime.instant(date: day, secondsOfDay: 6 * 3600, in: TimeZone(identifier: "Asia/Jakarta")!)
        let rows = tt.board(BoardRequest(stop: station, from: from, limit: 5))
        #expect(rows.count == 5)
        #expect(rows.allSatisfy { ["mrt-jakarta:GLBB01", "mrt-jakarta:GLBB02"].contains($0.stopID) && $0.timeZone == "Asia/Jakarta" })
        #expect(zip(rows, rows.dropFirst()).allSatisfy { $0.scheduled <= $1.scheduled })
    }
}
