import Foundation
import GTFS
import OnwardCore
import OnwardTesting
import Testing
import Timetable

// Journeys on real feeds, checked against answers worked out from the feeds'
// files by an independent connection scan (earliest arrival per number of rides,
// same rules: a change takes the 60 s slack, or the walk at 1.33 m/s if longer,
// between platforms of a station or stops within 500 m).

private extension JourneyPlanner {
    func itineraries(_ from: String, _ to: String, at time: Instant) throws -> [Itinerary] {
        plan(Request(from: try #require(timetable.stop(id: from)), to: try #require(timetable.stop(id: to)), time: time))
    }

    /// "trip from HH:MM:SS → to HH:MM:SS" per ride, local IDs, times at a fixed UTC offset.
    func rides(_ j: Itinerary, offsetHours: Int64) -> [String] {
        func clock(_ i: Instant) -> String {
            let s = (((i.epochSeconds + offsetHours * 3600) % 86_400) + 86_400) % 86_400
            return String(format: "%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
        }
        func local(_ id: String) -> Substring { id.split(separator: ":").last! }
        return j.legs.compactMap { leg in
            guard case .ride(let r) = leg else { return nil }
            return "\(local(timetable.tripIDString(r.instance.trip))) \(local(timetable.place(r.from).id)) \(clock(r.departure)) → \(local(timetable.place(r.to).id)) \(clock(r.arrival))"
        }
    }
}

@Suite("Journey planner on real feeds")
struct JourneyPlannerRealFeedTests {
    @Test("WMATA: Shady Grove to Pentagon changes from the Red Line to the Yellow Line at Gallery Place")
    func wmataWithAChange() throws {
        let planner = JourneyPlanner(try RealFeeds.wmata.get())
        // Tuesday 12 May 2026 (service 44_R), 08:00 EDT (UTC-4). Worked answer: trip 10636552_20576 leaves
        // PF_A15_C at 08:00:00 and reaches PF_B01_1 at 08:34:00; trip 10641573_20576 leaves PF_F01_C at 08:35:00
        // (the Green/Yellow platform, 30 m away: 60 s slack) and reaches PF_C07_2 at 08:42:00. No direct train.
        let journeys = try planner.itineraries("STN_A15", "STN_C07", at: Clock.local("2026-05-12", "08:00", offsetHours: -4))
        let first = try #require(journeys.first)
        #expect(planner.rides(first, offsetHours: -4) == [
            "10636552_20576 PF_A15_C 08:00:00 → PF_B01_1 08:34:00",
            "10641573_20576 PF_F01_C 08:35:00 → PF_C07_2 08:42:00",
        ])
        #expect(first.transfers == 1)
        #expect(journeys.allSatisfy { $0.transfers >= 1 })
    }

    @Test("Halifax: a Saturday night bus across midnight arrives on the next calendar day")
    func halifaxAcrossMidnight() throws {
        let planner = JourneyPlanner(try RealFeeds.halifax.get())
        // Saturday 8 November 2025 (service 214.0.1), 23:50 AST (UTC-4). Worked answer: trip 3785091 (route 1)
        // leaves 8328 at 23:51:47 and reaches 6778 at 24:03:14, which is 00:03:14 on Sunday 9 November.
        let journeys = try planner.itineraries("8328", "6778", at: Clock.local("2025-11-08", "23:50", offsetHours: -4))
        let first = try #require(journeys.first)
        #expect(planner.rides(first, offsetHours: -4) == ["3785091 8328 23:51:47 → 6778 00:03:14"])
        #expect(first.arrival == Clock.local("2025-11-09", "00:03:14", offsetHours: -4))
        guard case .ride(let ride) = first.legs[0] else { Issue.record("not a ride"); return }
        #expect(ride.instance.serviceDay == ServiceDate(iso: "2025-11-08")!.dayNumber)
    }
}
