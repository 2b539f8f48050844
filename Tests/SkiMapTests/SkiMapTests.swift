import Foundation
import OnwardCore
import OnwardTesting
import SkiMap
import Testing
import ZIPFoundation

/// The Vallnord Pal–Arinsal extract (OpenStreetMap, 2013) with the SRTM3 tile N42E001.
enum Vallnord {
    static let folder = Fixtures.sharedData.appendingPathComponent("ski")

    static let tile: SRTMTile = {
        let archive = try! Archive(url: folder.appendingPathComponent("srtm3-N42E001.hgt.zip"), accessMode: .read)
        var data = Data()
        _ = try! archive.extract(archive["N42E001.hgt"]!, skipCRC32: true) { data.append($0) }
        return try! SRTMTile(name: "N42E001.hgt", data: data)
    }()

    static let area: SkiArea = {
        let osm = try! OSMExtract(xml: try! Data(contentsOf: folder.appendingPathComponent("vallnord-pal-arinsal-2013-05.osm")))
        return try! SkiArea(osm, elevation: { tile.elevation(latitude: $0, longitude: $1) })
    }()

    static let router = SkiRouter(area)

    static func lift(_ name: String) -> SkiLift { area.lifts.first { $0.name == name }! }
}

@Suite("ski area from OpenStreetMap and SRTM", .enabled(if: Fixtures.hasSharedData, "needs ../shared/data/ski"))
struct SkiAreaTests {
    @Test("runs, lifts and their directions as mapped and tagged")
    func area() {
        // 56 downhill pistes, 4 of them mapped as areas (not skied along); 30 lifts.
        #expect(Vallnord.area.runs.count == 52)
        #expect(Vallnord.area.lifts.count == 30)
        // The Arinsal chair is mapped from its top down: it is turned round to go up.
        let arinsal = Vallnord.lift("Arinsal")
        #expect(arinsal.points.first!.elevation! < arinsal.points.last!.elevation!)
        // oneway=no: the cable car from La Massana and the Arinsal–Pal gondola run both ways; the others one way.
        #expect(Vallnord.area.lifts.filter(\.twoWay).compactMap(\.name).sorted() == ["Arinsal-Pal", "la Massana"])
    }

    @Test("heights interpolated from the SRTM tile agree with the GeoJSON made from the same tile")
    func heights() throws {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: Vallnord.folder.appendingPathComponent("vallnord-pal-arinsal-2013-05-with-srtm-ele.geojson"))) as! [String: Any]
        var checked = 0
        for feature in json["features"] as! [[String: Any]] {
            let geometry = feature["geometry"] as! [String: Any]
            guard geometry["type"] as? String == "LineString" else { continue }
            for c in geometry["coordinates"] as! [[Double]] {
                let ours = try #require(Vallnord.tile.elevation(latitude: c[1], longitude: c[0]))
                #expect(abs(ours - c[2]) < 0.5, "at \(c[1]), \(c[0]): \(ours) against \(c[2])")
                checked += 1
            }
        }
        #expect(checked > 1_000)
        // "la Massana" cable car: 1243 m at the town, 1903 m at the top (as the data's README says: 1243→1903).
        let cableCar = Vallnord.lift("la Massana")
        #expect(abs(cableCar.points.first!.elevation! - 1243) < 1 && abs(cableCar.points.last!.elevation! - 1903) < 1.5)
    }

    @Test("the mountain map inside the area, the street map in the town")
    func boundary() {
        let onARun = Vallnord.area.runs[0].points[3]
        #expect(Vallnord.area.contains(latitude: onARun.latitude, longitude: onARun.longitude))
        // La Massana's town hall, by the cable car's bottom station, is outside.
        let town = Vallnord.lift("la Massana").points.first!
        #expect(!Vallnord.area.contains(latitude: town.latitude, longitude: town.longitude))
    }
}

@Suite("ski routing by level", .enabled(if: Fixtures.hasSharedData, "needs ../shared/data/ski"))
struct SkiRouteTests {
    /// From the top of the Port Negre chair (2508 m, above Arinsal) down to the town of La Massana (the cable car's bottom, 1243 m).
    static let portNegre = Vallnord.lift("Port Negre").points.last!
    static let town = Vallnord.lift("la Massana").points.first!

    static func check(_ route: SkiRoute, level: SkiDifficulty) {
        #expect(!route.legs.isEmpty)
        for leg in route.legs {
            if let d = leg.difficulty { #expect(d <= level && d != .freeride, "\(leg.name ?? "a run") is \(d.rawValue)") }
            if leg.kind == .lift, let drop = leg.dropMetres, drop > 0 {
                #expect(Vallnord.area.lifts.first { $0.name == leg.name }?.twoWay == true, "\(leg.name ?? "a lift") ridden down")
            }
            if leg.kind == .walk, leg != route.legs.first, leg != route.legs.last { #expect(leg.lengthMetres <= SkiRouter.glideMetres) }
        }
        // It ends in town: the last ride is the cable car down (no run goes that far down).
        #expect(route.legs.last(where: { $0.kind != .walk })?.name == "la Massana")
    }

    @Test("easy to expert: a route with no run harder than the level, lifts only uphill unless two-way",
          arguments: [SkiDifficulty.easy, .intermediate, .advanced, .expert])
    func eachLevel(_ level: SkiDifficulty) throws {
        Self.check(try Vallnord.router.route(from: Self.portNegre, to: Self.town, level: level), level: level)
    }

    @Test("a novice at the top of Port Negre has no way down within their level, and is told so")
    func noviceAtTheTop() {
        #expect(throws: SkiRouter.Failure.noRoute(.novice)) { try Vallnord.router.route(from: Self.portNegre, to: Self.town, level: .novice) }
    }

    @Test("a novice from the top of la Caubella reaches the village on novice runs and the cable car, never a red or black run")
    func noviceToTheVillage() throws {
        let top = Vallnord.lift("la Caubella").points.last!
        let novice = try Vallnord.router.route(from: top, to: Self.town, level: .novice)
        Self.check(novice, level: .novice)
        #expect(novice.legs.compactMap(\.difficulty).allSatisfy { $0 == .novice })
        let expert = try Vallnord.router.route(from: Self.portNegre, to: Self.town, level: .expert)
        let easy = try Vallnord.router.route(from: Self.portNegre, to: Self.town, level: .easy)
        #expect(expert.seconds <= easy.seconds)
        #expect(easy.legs.contains { $0.kind == .run } && expert.legs.contains { $0.kind == .lift })
    }

    @Test("freeride only when asked for")
    func freeride() throws {
        let woodpark = try #require(Vallnord.area.runs.first { $0.difficulty == .freeride })
        let from = woodpark.points.first!, to = woodpark.points.last!
        let without = try Vallnord.router.route(from: from, to: to, level: .expert)
        #expect(!without.legs.contains { $0.difficulty == .freeride })
        let with = try Vallnord.router.route(from: from, to: to, level: .expert, freeride: true)
        #expect(with.legs.contains { $0.difficulty == .freeride })
    }

    @Test("a start far from the ski area is refused, saying so")
    func tooFar() {
        #expect(throws: SkiRouter.Failure.tooFar("start")) {
            try Vallnord.router.route(from: SkiPoint(latitude: 42.0, longitude: 1.0), to: Self.town, level: .expert)
        }
    }
}

