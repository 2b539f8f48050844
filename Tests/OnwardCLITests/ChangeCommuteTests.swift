import API
import App
import Commute
import Foundation
import OnwardCore
import OnwardTesting
@testable import Services
import Storage
import Testing
import Transit

/// Commuting through the server's commute service on a generated feed with a change (`WatchChangeTests.network`:
/// line 1 Alpha 07:40 → Cross 07:50, line 2 Cross 07:53 → Delta 08:10, and the next of each ten and fifteen
/// minutes later), its clock stepped second by second: a lost connection and a missed change, each alert's
/// moment asserted to the second against its rule.
@Suite("commuting with a change, on a generated feed")
struct ChangeCommuteTests {
    /// Monday 2026-11-23 07:20 UTC (the feed's zone).
    static let start = Instant(epochSeconds: 1_795_418_400)

    static func time(_ hhmmss: String) -> Instant {
        let p = hhmmss.split(separator: ":").map { Int64($0)! }
        return Instant(epochSeconds: start.epochSeconds - 7 * 3600 - 20 * 60 + p[0] * 3600 + p[1] * 60 + (p.count > 2 ? p[2] : 0))
    }

    struct World {
        let service: CommuteService
        let id: String
        let clock: TestNow
        let folder: TemporaryFolder
    }

    /// The 07:40 journey begun on the timetable at 07:20, with line 1's first trip `late` seconds late by the
    /// live data the server reads.
    static func commute(firstLate late: Int32?) async throws -> World {
        let folder = try TemporaryFolder()
        let feed = URL(fileURLWithPath: folder.path).appendingPathComponent("rt.pb")
        try WatchServiceTests.feed(late.map { [("L1a", "ALPHA", $0)] } ?? [], at: start).write(to: feed)
        let loaded = try Network.load([try WatchChangeTests.network(folder).path])
        let clock = TestNow(start)
        let network = try GTFSNetwork.open(loaded, options: .init(realtime: [feed.path], maxAge: 86_400), fetcher: FakeHTTPFetcher(), now: clock.closure)
        #expect(await network.readOnce(now: start).isEmpty)
        let sources = SourceRegistry([network.source])
        var query = Queries.JourneyQuery(from: "ALPHA", to: "DELTA", at: start)
        query.timetableOnly = true
        let begun = try await CommuteDriver(sources: sources).begin(query, option: 1, settings: CommuteSettings(), now: start)
        #expect(begun.journey.rides.map { WatchServiceTests.bare($0.tripID) } == ["L1a", "L2a"])
        let service = CommuteService(repository: InMemoryCommuteRepository(), sources: sources, now: { clock.now })
        let (id, _) = try await service.start(begun, simulationSpeed: nil)
        return World(service: service, id: id, clock: clock, folder: folder)
    }

    /// Steps the commute each second up to `end`, giving each position at its second; returns "HH:MM:SS kind basis" per alert.
    static func run(_ w: World, until end: String, positions: [(String, Double)] = []) async throws -> [CommuteAlertDTO] {
        var second = start
        while second <= time(end) {
            w.clock.set(second)
            for (at, lon) in positions where time(at) == second {
                _ = try await w.service.sighting(w.id, CommuteSightingDTO(at: LocalTime(second, in: .gmt).iso8601, lat: 0, lon: lon, accuracy: 10))
            }
            await w.service.step(w.id)
            second = second.adding(seconds: 1)
        }
        return try #require(await w.service.view(w.id)).alerts
    }

    static func lines(_ alerts: [CommuteAlertDTO]) -> [String] {
        alerts.map { "\($0.at.dropFirst(11).prefix(8)) \($0.kind) \($0.basis ?? "?")" }
    }

    @Test("line 1 four minutes late: the change at Cross is lost; the alert as the train leaves Alpha late offers the 08:08, and the destination is said as it leaves Cross")
    func connectionLost() async throws {
        let w = try await Self.commute(firstLate: 240)
        defer { w.folder.remove() }
        let alerts = try await Self.run(w, until: "08:40")
        // Rules: the vehicle arriving 2 min before its live departure (07:44); arriving at the change as the train
        // leaves the stop before it (Alpha, 07:44 live), offering the way on; the destination as the 08:08 leaves
        // the stop before Delta (Cross), on the timetable (the live data says nothing of line 2).
        #expect(Self.lines(alerts) == ["07:42:00 vehicleArriving liveTimes", "07:44:00 arrivingAtTransfer liveTimes",
                                       "08:08:00 arrivingAtDestination timetable"])
        #expect(alerts[1].message == "Next stop Cross: the 07:53 L2 will have left: change to the L2 to Delta, leaving at 08:08.")
        let journey = try #require(await w.service.view(w.id)).journey
        #expect(journey.legs.compactMap(\.tripId).map(WatchServiceTests.bare) == ["L1a", "L2b"])
    }

    @Test("on time, but still at Cross after the 07:53 left: the change is missed, said once, and the 08:08 planned and told as the first train was")
    func missedChange() async throws {
        let w = try await Self.commute(firstLate: nil)
        defer { w.folder.remove() }
        // On the platform at Alpha, on board, then at Cross from 07:50 and still there at 07:54:30 and 07:55.
        let positions = [("07:39", 0.0), ("07:45", 0.025), ("07:50:30", 0.05), ("07:52", 0.05), ("07:54:30", 0.05), ("07:55", 0.05)]
        let alerts = try await Self.run(w, until: "08:40", positions: positions)
        // Rules: the 07:53 leaving Cross, the stop before Delta, says the destination (nothing yet shows the traveller
        // stayed behind: the last fix, 07:52, is on the platform); the missed change at the first position at Cross past
        // its departure and the 60 s grace (07:54:30); the new plan's own rides get their own alerts: the 08:08 arriving
        // two minutes before it leaves, and the destination again as it leaves Cross (before the engine forgot the
        // alerts of the train given up, the traveller waiting for the 08:08 was told nothing more).
        #expect(Self.lines(alerts) == [
            "07:38:00 vehicleArriving timetable", "07:40:00 arrivingAtTransfer timetable", "07:53:00 arrivingAtDestination timetable",
            "07:54:30 missedConnection position", "08:06:00 vehicleArriving timetable", "08:08:00 arrivingAtDestination timetable",
        ])
        #expect(alerts.first { $0.kind == "missedConnection" }?.message == "You missed the 07:53 L2 to Delta at Cross. Finding another way…")
    }
}
