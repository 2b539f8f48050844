import OnwardCore
import Testing

/// A vehicle the feed gives no position for, placed by its live times (issue 27, item 3).
@Suite("a vehicle placed by its live times")
struct VehiclePlacementTests {
    static let day = ServiceDate(year: 2026, month: 11, day: 23)!
    static func at(_ h: Int, _ m: Int, _ s: Int = 0) -> Instant { Instant(epochSeconds: Int64(day.dayNumber) * 86_400 + Int64(h * 3600 + m * 60 + s)) }

    /// Three stops a degree of longitude apart: 08:00, 08:10–08:11, 08:20 by the timetable; a minute late live.
    static func service(live: Bool = true, skipMiddle: Bool = false) -> ServiceDetails {
        let times = [(at(8, 0), at(8, 0)), (at(8, 10), at(8, 11)), (at(8, 20), at(8, 20))]
        let calls = times.enumerated().map { i, t in
            var c = CallingPoint(stopID: "s:\(i)", stopName: "Stop \(i)", platform: nil, stopSequence: i + 1, scheduledArrival: t.0,
                                 scheduledDeparture: t.1, timeZone: "UTC", pickup: .regular, dropOff: .regular, isTimepoint: true, stopHeadsign: nil)
            c.latitude = 0; c.longitude = Double(i)
            if live { c.expectedArrival = t.0.adding(seconds: 60); c.expectedDeparture = t.1.adding(seconds: 60) }
            if skipMiddle && i == 1 { c.status = .skipped; c.expectedArrival = nil; c.expectedDeparture = nil }
            return c
        }
        return ServiceDetails(tripID: "t:1", routeID: "r:1", routeShortName: "1", routeLongName: "", headsign: "Stop 2", serviceDate: day, calls: calls)
    }

    @Test func betweenCallsInProportionToTheTimeAtACallWhileItIsDueThereAndNowhereBeforeOrAfter() {
        let s = Self.service()
        #expect(s.placedByLiveTimes(at: Self.at(8, 0, 30)) == nil)                   // still waiting to leave (a minute late)
        #expect(s.placedByLiveTimes(at: Self.at(8, 6)) == PlacedVehicle(latitude: 0, longitude: 0.5, callIndex: 1, atStop: false))
        #expect(s.placedByLiveTimes(at: Self.at(8, 11, 30)) == PlacedVehicle(latitude: 0, longitude: 1, callIndex: 1, atStop: true))
        #expect(s.placedByLiveTimes(at: Self.at(8, 16, 30)) == PlacedVehicle(latitude: 0, longitude: 1.5, callIndex: 2, atStop: false))
        #expect(s.placedByLiveTimes(at: Self.at(8, 21)) == nil)                      // arrived
    }

    @Test func aSkippedCallIsPassedByAndNothingIsPlacedWithoutLiveTimesOrForACancelledService() {
        let skipping = Self.service(skipMiddle: true)
        // From 08:01 at stop 0 to 08:21 at stop 2: at 08:11 halfway, on the way to stop 2.
        #expect(skipping.placedByLiveTimes(at: Self.at(8, 11)) == PlacedVehicle(latitude: 0, longitude: 1, callIndex: 2, atStop: false))
        #expect(Self.service(live: false).placedByLiveTimes(at: Self.at(8, 6)) == nil)
        var cancelled = Self.service()
        cancelled.isCancelled = true
        #expect(cancelled.placedByLiveTimes(at: Self.at(8, 6)) == nil)
    }
}
