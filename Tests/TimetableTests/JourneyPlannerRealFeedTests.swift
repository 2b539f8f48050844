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
            return "\(local(timetable.tripIdentifier(r.instance.trip))) \(local(timetable.place(r.from).id)) \(clock(r.departure)) → \(local(timetable.place(r.to).id)) \(clock(r.arrival))"
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

    @Test("Caltrain and BART loaded together: BART to Millbrae, a walk to the Caltrain platform, Caltrain to Palo Alto")
    func caltrainAndBART() throws {
        // The two recordings share no date (BART's is from 2019), so BART's own timetable runs here with its
        // calendar moved to Caltrain's period: calendar.txt's dates replaced, calendar_dates.txt (2019 holidays) left out.
        let bart = try MovedCalendar(ZipGTFSSource(url: Fixtures.gtfs("bart-2019-02")), name: "bart",
                                     calendar: """
                                         service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
                                         WKDY,1,1,1,1,1,0,0,20230901,20240601
                                         SAT,0,0,0,0,0,1,0,20230901,20240601
                                         SUN,0,0,0,0,0,0,1,20230901,20240601

                                         """)
        let tt = try GTFSImporter.load([try ZipGTFSSource(url: Fixtures.gtfs("caltrain-2023-09")), bart]).timetable
        let planner = JourneyPlanner(tt)
        // Tuesday 3 October 2023, 08:00 PDT (UTC-7). Worked answer (both feeds merged, IDs prefixed): BART trip
        // 3330715WKDY leaves EMBR at 08:01:00 and reaches MLBR at 08:34:00; the Caltrain platform 70062 is 53.9 m
        // away (a 41 s walk: 40.55 s rounded up; the change takes the 60 s slack); Caltrain train 306 leaves 70062
        // at 08:46:00 and reaches 70172 at 09:14:00.
        let journeys = try planner.itineraries("bart:EMBR", "caltrain-2023-09:palo_alto", at: Clock.local("2023-10-03", "08:00", offsetHours: -7))
        let first = try #require(journeys.first)
        #expect(planner.rides(first, offsetHours: -7) == [
            "3330715WKDY EMBR 08:01:00 → MLBR 08:34:00",
            "306 70062 08:46:00 → 70172 09:14:00",
        ])
        let walk = first.legs.compactMap { leg -> (StopIndex, StopIndex, Int)? in
            if case .move(let from, let to, let seconds, _) = leg { (from, to, seconds) } else { nil }
        }
        #expect(walk.map { [tt.place($0.0).id, tt.place($0.1).id] } == [["bart:MLBR", "caltrain-2023-09:70062"]])
        #expect(walk.first?.2 == 41)
    }
}

/// A feed whose calendar.txt is replaced and whose calendar_dates.txt is left out.
private struct MovedCalendar: GTFSSource {
    let base: ZipGTFSSource
    let name: String
    let calendar: String

    init(_ base: ZipGTFSSource, name: String, calendar: String) {
        self.base = base; self.name = name
        self.calendar = calendar.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
    }

    func contains(_ file: String) -> Bool { file == "calendar_dates.txt" ? false : base.contains(file) }
    func size(of file: String) -> Int? { file == "calendar.txt" ? calendar.utf8.count : base.size(of: file) }
    func read(_ file: String, _ chunk: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard file == "calendar.txt" else { return try base.read(file, chunk) }
        try Array(calendar.utf8).withUnsafeBytes { try chunk($0) }
    }
}
