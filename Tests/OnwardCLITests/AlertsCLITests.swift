import API
import Foundation
import OnwardTesting
import Testing

/// `onward alerts` run as a user would, on the real captures.
@Suite("onward alerts")
struct AlertsCLITests {
    static let data = Fixtures.sharedData

    @Test("BART's agency-wide alert as JSON")
    func bartJSON() throws {
        let out = try OnwardExecutable.run([
            "alerts", "--feed", Self.data.appendingPathComponent("gtfs/bart-2019-02.zip").path,
            "--realtime", Self.data.appendingPathComponent("gtfs-rt/bart/bart-alerts-2019-08-07T1745Z.pb").path,
            "--at", "2019-08-07T17:46:00Z", "--json",
        ])
        #expect(out.status == 0, "\(out.stderr)")
        let dto = try JSONDecoder().decode(AlertsDTO.self, from: Data(out.stdout.utf8))
        #expect(dto.at == "2019-08-07T10:46:00-07:00", "shown in BART's zone, PDT")
        #expect(dto.totalInFeeds == 1 && dto.inactiveCount == 0)
        let a = try #require(dto.alerts.first)
        #expect(dto.alerts.count == 1)
        #expect(a.id == "BSA_187874" && a.cause == "medicalEmergency" && a.effect == "significantDelays" && a.severity == "unknown")
        #expect(a.highPriority && a.language == "en-US" && a.activePeriods.isEmpty)
        #expect(a.url == "http://www.bart.gov/schedules/advisories")
        #expect(a.header?.hasPrefix("There is a major delay at Montgomery St.") == true)
        #expect(a.header?.hasSuffix("Trains are not stopping at Montgomery station.") == true, "trimmed of the feed's trailing space")
        #expect(a.informedEntities.map(\.agencyId) == ["bart-2019-02:BART"] && a.informedEntities.allSatisfy { $0.routeId == nil && $0.stopId == nil })
    }

    @Test("a station's alerts on the terminal, and a count of those not active at the time")
    func halifaxStationText() throws {
        func run(_ at: String) throws -> OnwardExecutable.Output {
            try OnwardExecutable.run([
                "alerts", "--stop", "10001", "--feed", Self.data.appendingPathComponent("gtfs/halifax-transit-2025-08.zip").path,
                "--realtime", Self.data.appendingPathComponent("gtfs-rt/halifax/Alerts-2025-11-06T2104Z.pb").path, "--at", at,
            ])
        }
        let now = try run("2025-11-06T17:04:14-04:00")
        #expect(now.status == 0, "\(now.stderr)")
        #expect(now.stdout.contains("Alerts · Bridge Terminal"))
        #expect(now.stdout.contains("[NOTICE] Route 10C Outbound trip departing at 4:45 PM"))
        #expect(now.stdout.contains("Active: from 2025-11-06 16:45 to 2025-11-06 17:30"))
        #expect(now.stdout.contains("Not in the timetable: 1 of 180 stops (halifax-transit-2025-08:6611); 1 of 20 routes (halifax-transit-2025-08:hwst)."))
        #expect(!now.stdout.contains("\u{1B}["))
        let later = try run("2025-11-06T20:00")
        #expect(later.status == 0, "\(later.stderr)")
        #expect(later.stdout.contains("No alerts for Bridge Terminal are active at this time."))
        #expect(later.stdout.contains("1 more alert for Bridge Terminal in the feed is not active at this time"))
    }

    @Test("no alert feed given says so")
    func noFeed() throws {
        let out = try OnwardExecutable.run(["alerts"])
        #expect(out.status == 1)
        #expect(out.stderr.contains("no alert feed given"))
    }
}
