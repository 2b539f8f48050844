import Foundation
import OnwardCore
import Testing

// "Prefer less crowded" (issue 27, item 2): options by arrival, and of those arriving together the less crowded first.
@Suite("Journey crowding")
struct JourneyCrowdingTests {
    static let stop = JourneyStop(stopID: "t:A", name: "A", platform: nil, timeZone: "UTC", latitude: 0, longitude: 0)

    /// A journey of one ride per (departure, arrival, level) given, in minutes after a fixed instant.
    static func journey(_ rides: [(Int, Int, Occupancy.Level?)]) -> Journey {
        Journey(legs: rides.map { d, a, level in
            var ride = TransitLeg(tripID: "t:\(d)", routeID: "t:R", routeShortName: "R", routeLongName: "", routeColor: nil, headsign: "B",
                                  serviceDate: ServiceDate(iso: "2026-11-23")!, startTime: nil, from: stop, to: stop,
                                  departure: Instant(epochSeconds: 1_795_400_000 + Int64(d * 60)), arrival: Instant(epochSeconds: 1_795_400_000 + Int64(a * 60)))
            ride.occupancy = level.flatMap { Occupancy(level: $0, percentage: nil, basis: .forecastAtStop) }
            return .transit(ride)
        })
    }

    @Test func aJourneyIsAsCrowdedAsItsMostCrowdedRideThatTheFeedSpeaksOf() {
        #expect(Self.journey([(0, 10, .manySeatsAvailable), (12, 30, .standingRoomOnly)]).crowding == 3)
        #expect(Self.journey([(0, 10, nil), (12, 30, .fewSeatsAvailable)]).crowding == 2)
        #expect(Self.journey([(0, 10, nil)]).crowding == nil)
    }

    @Test func equalArrivalsTheLessCrowdedFirstUnknownLastOtherwiseByArrival() {
        let direct = Self.journey([(0, 30, .full)])                                        // leaves first, full
        let change = Self.journey([(5, 15, .manySeatsAvailable), (20, 30, .fewSeatsAvailable)]) // same arrival, few seats
        let unknown = Self.journey([(8, 30, nil)])                                          // same arrival, nothing known
        let earlier = Self.journey([(2, 25, .crushedStandingRoomOnly)])                     // arrives first
        let later = Self.journey([(10, 40, .empty)])
        let ranked = Journey.lessCrowdedFirst([direct, change, unknown, earlier, later])
        #expect(ranked == [earlier, change, direct, unknown, later])
        // Ties keep the order given.
        let twin = Self.journey([(6, 30, .full)])
        #expect(Journey.lessCrowdedFirst([twin, direct]) == [twin, direct])
    }
}
