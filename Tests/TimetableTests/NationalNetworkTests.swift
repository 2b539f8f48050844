import Foundation
import GTFS
import OnwardCore
import OnwardTesting
import Testing
import Timetable

/// The national network the country-scale figures are measured on (`onward-bench synth --national`), made small:
/// what it promises (towns with their own stops, rail between them with changes at shared stations, nights past
/// midnight, holidays, transfers, the size asked for, the same feed from the same seed) holds, and it imports cleanly.
@Suite("a national network made from a seed")
struct NationalNetworkTests {
    static let network = NationalNetwork(rows: 200_000, seed: 7)

    static let imported = Result<(Timetable, TemporaryFolder), any Error> {
        let folder = try TemporaryFolder()
        _ = try network.write(to: folder.url)
        let result = try GTFSImporter.load(paths: [folder.url], names: ["nat"])
        #expect(result.notices.isEmpty, "\(result.notices.prefix(3))")
        return (result.timetable, folder)
    }

    @Test("about the size asked for, from the same seed the same feed, and imported without a notice")
    func sizeAndSeed() throws {
        let (tt, folder) = try Self.imported.get()
        #expect(abs(tt.stopTimeCount - 200_000) < 20_000, "\(tt.stopTimeCount) stop_times")
        // Stops: rows / 500, with each town's station (a parent, a platform and the bus stop) on top.
        #expect(abs(tt.stopCount - 400) < 80, "\(tt.stopCount) stops")
        let again = try TemporaryFolder()
        defer { again.remove() }
        _ = try Self.network.write(to: again.url)
        for file in ["stops.txt", "trips.txt", "stop_times.txt", "transfers.txt"] {
            #expect(FileManager.default.contentsEqual(atPath: folder.file(file).path, andPath: again.file(file).path), "\(file) differs")
        }
        let other = try TemporaryFolder()
        defer { other.remove() }
        _ = try NationalNetwork(rows: 200_000, seed: 8).write(to: other.url)
        #expect(!FileManager.default.contentsEqual(atPath: folder.file("stops.txt").path, andPath: other.file("stops.txt").path))
    }

    @Test("each town's buses call at its own stops; trains call at stations; a night bus runs past midnight; holidays run the Sunday service")
    func structure() throws {
        let (tt, folder) = try Self.imported.get()
        let times = try String(contentsOf: folder.file("stop_times.txt"), encoding: .utf8).split(separator: "\n").dropFirst()
        var pastMidnight = 0
        for row in times {
            let f = row.split(separator: ",", omittingEmptySubsequences: false)
            let trip = f[0], stop = f[3]
            if trip.hasPrefix("B") {
                // B{town}_{line}_… calls at T{town}S… or T{town}B (the bus stop at the station).
                let town = trip.dropFirst().prefix { $0 != "_" }
                #expect(stop.hasPrefix("T\(town)S") || stop == "T\(town)B", "\(trip) calls at \(stop)")
            } else {
                #expect(stop.hasPrefix("T") && stop.hasSuffix("R"), "\(trip) calls at \(stop)")
            }
            if let hour = Int(f[1].prefix(2)), hour >= 24 { pastMidnight += 1 }
        }
        #expect(pastMidnight > 0)
        // Good Friday 2026-04-03: the weekday service does not run, the Sunday one does.
        let friday = try #require(ServiceDate(iso: "2026-04-03")), thursday = try #require(ServiceDate(iso: "2026-04-02"))
        let weekdayBus = try #require(tt.trip(id: "nat:B0_0_WD_420_0")), sundayBus = try #require(tt.trip(id: "nat:B0_0_SU_420_0"))
        #expect(tt.runs(weekdayBus, on: thursday) && !tt.runs(weekdayBus, on: friday))
        #expect(!tt.runs(sundayBus, on: thursday) && tt.runs(sundayBus, on: friday))
    }

    @Test("from a village bus stop to another town's: the journey changes to a train at one station and back to a bus at another")
    func acrossTheCountry() throws {
        let (tt, _) = try Self.imported.get()
        let planner = JourneyPlanner(tt)
        // 08:00 in Zurich in March (CET, UTC+1).
        let time = Clock.local("2026-03-04", "08:00", offsetHours: 1)
        let from = try #require(tt.stop(id: "nat:T1S3")), to = try #require(tt.stop(id: "nat:T12S2"))
        let first = try #require(planner.plan(.init(from: from, to: to, time: time)).first)
        let routes = first.legs.compactMap { leg -> String? in
            guard case .ride(let r) = leg else { return nil }
            return tt.routeInfo(tt.route(of: r.instance.trip)).id
        }
        #expect(routes.first?.hasPrefix("nat:B1_") == true && routes.last?.hasPrefix("nat:B12_") == true, "\(routes)")
        #expect(routes.contains { $0.hasPrefix("nat:R") || $0.hasPrefix("nat:IC") }, "\(routes)")
    }
}
