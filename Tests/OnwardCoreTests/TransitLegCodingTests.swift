import Foundation
import OnwardCore
import Testing

/// A ride's start time (a frequency-based run) is seconds of its service day; a commute stored before
/// that kept it as GTFS text, and still reads back.
@Suite("a ride's start time")
struct TransitLegCodingTests {
    static let stop = JourneyStop(stopID: "f:A", name: "A", platform: nil, timeZone: "Asia/Jakarta", latitude: -6.2, longitude: 106.8)
    static let leg = TransitLeg(tripID: "f:T1", routeID: "f:R", routeShortName: "R", routeLongName: "Route", routeColor: nil, headsign: "B",
                                serviceDate: ServiceDate(iso: "2026-11-23")!, startTime: 25 * 3600 + 600, from: stop, to: stop,
                                departure: Instant(epochSeconds: 1_795_400_000), arrival: Instant(epochSeconds: 1_795_400_600))

    @Test("kept as seconds, and read back the same")
    func roundTrip() throws {
        let data = try JSONEncoder().encode(Self.leg)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["startTime"] as? Int == 90_600)
        #expect(try JSONDecoder().decode(TransitLeg.self, from: data) == Self.leg)
    }

    @Test("how full it was is kept with the ride, carriages and all")
    func occupancyKept() throws {
        var leg = Self.leg
        leg.occupancy = Occupancy(level: .fewSeatsAvailable, percentage: 64, carriages: [Occupancy.Carriage(sequence: 1, id: "C1", level: .full)],
                                  basis: .vehicleNow)
        #expect(try JSONDecoder().decode(TransitLeg.self, from: try JSONEncoder().encode(leg)) == leg)
    }

    @Test("as stored before, GTFS text past midnight reads as seconds; text that is no time is an error")
    func storedAsText() throws {
        var object = try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(Self.leg)) as? [String: Any])
        object["startTime"] = "25:10:00"
        #expect(try JSONDecoder().decode(TransitLeg.self, from: try JSONSerialization.data(withJSONObject: object)) == Self.leg)
        object["startTime"] = "25:61:00"
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(TransitLeg.self, from: try JSONSerialization.data(withJSONObject: object)) }
        object["startTime"] = nil
        #expect(try JSONDecoder().decode(TransitLeg.self, from: try JSONSerialization.data(withJSONObject: object)).startTime == nil)
    }
}
