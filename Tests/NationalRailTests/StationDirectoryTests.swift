import Foundation
import NationalRail
import OnwardCore
import Testing

/// The bundled station list: lookup by CRS, search by name, nearby by distance.
@Suite struct StationDirectoryTests {
    let stations: StationDirectory

    init() throws { stations = try StationDirectory.bundled() }

    @Test func loadsEveryStation() throws {
        #expect(stations.count == 2606)
        let ecr = try #require(stations.station(crs: "ECR"))
        #expect(ecr.name == "East Croydon" && ecr.latitude == 51.375679 && ecr.longitude == -0.093335 && ecr.country == "england")
        #expect(stations.station(crs: "ecr")?.crs == "ECR")
        #expect(stations.station(crs: "ZZZ") == nil && stations.station(crs: "EC") == nil)
        #expect(stations.station(crs: "LGW")?.iataAirportCode == nil)
        let place = ecr.place
        #expect(place.id == "national-rail:ECR" && place.code == "ECR" && place.kind == .station && place.timeZone == "Europe/London")
        #expect(place.parentID == nil && place.platform == nil)
    }

    @Test func theShippedFileIsTheRecordedOne() throws {
        // ODbL: we ship the database unchanged; prove it byte for byte when the original is here.
        let original = DarwinFixtures.sharedData.appendingPathComponent("national-rail/uk-railway-stations.csv")
        guard FileManager.default.fileExists(atPath: original.path) else { return }
        let shipped = DarwinFixtures.packageRoot.appendingPathComponent("Sources/NationalRail/Resources/uk-railway-stations.csv")
        #expect(try Data(contentsOf: shipped) == Data(contentsOf: original))
        let attribution = try String(contentsOf: shipped.deletingLastPathComponent().appendingPathComponent("ATTRIBUTION.md"), encoding: .utf8)
        #expect(attribution.contains("ODbL") && attribution.contains("davwheat/uk-railway-stations") && attribution.contains("Trainline"))
    }

    @Test func searchRanksCodeThenPrefixThenWord() {
        #expect(stations.search("ECR").first?.name == "East Croydon")
        #expect(stations.search("croydon").map(\.name) == ["East Croydon", "West Croydon", "South Croydon"])
        #expect(stations.search("York").first?.crs == "YRK")
        #expect(stations.search("york").contains { $0.name == "Bentley (South Yorkshire)" })
        #expect(stations.search("kings cross").first?.name == "London Kings Cross")
        #expect(stations.search("cross kings").first?.name == "London Kings Cross")
        // Case and accents do not matter.
        #expect(stations.search("ËAST CRÖYDON").first?.name == "East Croydon")
        // "Kingswood" starts with "kings"; "London Kings Cross" only has a word that does.
        let kings = stations.search("kings", limit: 50).map(\.name)
        #expect(kings.firstIndex(of: "Kingswood")! < kings.firstIndex(of: "London Kings Cross")!)
        #expect(stations.search("", limit: 5).isEmpty && stations.search("zzzzqq").isEmpty)
        #expect(stations.search("a", limit: 3).count == 3)
    }

    @Test func nearbyByDistance() throws {
        let ecr = try #require(stations.station(crs: "ECR"))
        let near = stations.nearby(latitude: ecr.latitude, longitude: ecr.longitude, radius: 2000)
        #expect(near.map(\.station.crs) == ["ECR", "WCY", "SCY", "WDO", "SRS"])
        #expect(near[0].distance == 0)
        #expect(abs(near[1].distance - 669.6) < 1)
        #expect(stations.nearby(latitude: ecr.latitude, longitude: ecr.longitude, radius: 2000, limit: 2).count == 2)
        // The middle of the North Sea has no station within 10 km.
        #expect(stations.nearby(latitude: 55.0, longitude: 3.0, radius: 10_000).isEmpty)
    }

    @Test func csvWithQuotesAndErrors() throws {
        let csv = "stationName,lat,long,crsCode,iataAirportCode,constituentCountry\r\n\"Acle, Norfolk\",52.63,1.54,ACL,,england\r\n"
        let d = try StationDirectory(csv: csv)
        #expect(d.station(crs: "ACL")?.name == "Acle, Norfolk")
        #expect(throws: SourceError.self) { try StationDirectory(csv: "stationName,lat,long,crsCode\nX,1,2,\n") }
        #expect(throws: SourceError.self) { try StationDirectory(csv: "name,lat\nX,1\n") }
    }
}
