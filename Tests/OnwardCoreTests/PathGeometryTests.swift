import Foundation
import OnwardCore
import Testing

@Suite("a ride's path: simplified, and kept as an encoded polyline")
struct PathGeometryTests {
    /// A line along the equator every 100 m for 5 km with a gentle bulge of 3 m, then a bend of 500 m north.
    static let line: [PathPoint] = (0...50).map { k in PathPoint(latitude: k == 25 ? 3 / 111_195 : 0, longitude: Double(k) * 100 / 111_195) }
        + [PathPoint(latitude: 500 / 111_195, longitude: 5_100 / 111_195)]

    @Test("simplified within 5 m keeps the ends and the bend, drops the points on the straight, and no point left out strays further")
    func simplified() {
        let kept = Self.line.simplified(toleranceMetres: 5)
        #expect(kept == [Self.line[0], Self.line[50], Self.line[51]])
        // Within 1 m the 3 m bulge is kept too, with a point either side of it (the line to its tip leans 1.2 m per km).
        #expect(Self.line.simplified(toleranceMetres: 1) == [0, 24, 25, 26, 50, 51].map { Self.line[$0] })
        #expect([PathPoint]().simplified(toleranceMetres: 5).isEmpty)
    }

    @Test("an encoded polyline reads back to the microdegree, south and west too; text that is not one is refused")
    func polyline() {
        let jakarta = [PathPoint(latitude: -6.2892957, longitude: 106.7749323), PathPoint(latitude: -6.2893118, longitude: 106.7758382),
                       PathPoint(latitude: 40.5, longitude: -73.25), PathPoint(latitude: 0, longitude: 0)]
        let text = jakarta.encodedPolyline
        let read = [PathPoint](encodedPolyline: text)
        #expect(read?.count == 4)
        // Feeds give seven decimals: they read back exactly.
        #expect(read == jakarta)
        #expect(text.utf8.count < 4 * 12)
        let fine = [PathPoint(latitude: 1 / 3, longitude: -2 / 3)]
        #expect([PathPoint](encodedPolyline: fine.encodedPolyline) == fine.quantized)
        #expect([PathPoint](encodedPolyline: "") == [])
        #expect([PathPoint](encodedPolyline: "not one!") == nil)
        #expect([PathPoint](encodedPolyline: String(text.dropLast())) == nil)
    }

    @Test("a ride keeps its path through JSON as a polyline")
    func rideJSON() throws {
        let stop = JourneyStop(stopID: "A", name: "A", platform: nil, timeZone: "UTC", latitude: 0, longitude: 0)
        var ride = TransitLeg(tripID: "T", routeID: "R", routeShortName: "R", routeLongName: "", routeColor: nil, headsign: "B",
                              serviceDate: ServiceDate(dayNumber: 20_000), startTime: nil, from: stop, to: stop,
                              departure: Instant(epochSeconds: 0), arrival: Instant(epochSeconds: 60))
        ride.path = [PathPoint(latitude: -6.25, longitude: 106.8), PathPoint(latitude: -6.2, longitude: 106.82)]
        let data = try JSONEncoder().encode(ride)
        #expect(String(decoding: data, as: UTF8.self).contains("\"path\":\"\(ride.path!.encodedPolyline)\""))
        #expect(try JSONDecoder().decode(TransitLeg.self, from: data) == ride)
        ride.path = nil
        #expect(try JSONDecoder().decode(TransitLeg.self, from: try JSONEncoder().encode(ride)) == ride)
    }
}
