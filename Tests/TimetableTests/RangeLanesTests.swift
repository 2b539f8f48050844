import Foundation
import OnwardCore
import OnwardTesting
import Testing
@testable import Timetable

/// A range query spreads its departures over the cores in blocks, each searched with labels of its own
/// (`JourneyPlanner.plan`): the answers must be exactly those of one search, whatever the number of lanes.
@Suite("Range queries on several cores")
struct RangeLanesTests {
    @Test("WMATA: one-hour ranges between random stations give the same journeys on 1, 2 and 3 lanes")
    func sameAnswers() throws {
        let tt = try RealFeeds.wmata.get()
        let planner = JourneyPlanner(tt)
        let served = tt.allStops.filter { planner.callsAt($0) }
        var rng = SeededRandom(seed: 26)
        // Tuesday 2026-05-12 from 06:00 in Washington (UTC-4).
        let morning = Clock.local("2026-05-12", "06:00", offsetHours: -4)
        var journeys = 0, split = 0
        for _ in 0..<6 {
            let from = served[Int.random(in: 0..<served.count, using: &rng)]
            var to = from
            while to == from { to = served[Int.random(in: 0..<served.count, using: &rng)] }
            var request = JourneyPlanner.Request(from: from, to: to, time: morning.adding(seconds: Int64(Int.random(in: 0..<14 * 3600, using: &rng))))
            request.window = 3600
            request.limit = 100
            let one = planner.plan(request, overlay: .empty, cores: 1)
            #expect(planner.plan(request, overlay: .empty, cores: 2) == one)
            #expect(planner.plan(request, overlay: .empty, cores: 3) == one)
            journeys += one.count
            if Set(one.map { $0.departure }).count >= 2 { split += 1 }
        }
        // The check means something: most answers have several departures, so the lanes' blocks each found some.
        #expect(journeys >= 12 && split >= 3, "\(journeys) journeys, \(split) answers with several departures")
    }
}
