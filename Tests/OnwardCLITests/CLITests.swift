import API
import App
import Foundation
import OnwardCore
import OnwardTesting
import Testing
import Transit
import TransitSources

/// Runs the real `onward` binary as a user would.
@Suite("onward CLI")
struct CLITests {
    @Test("board on the bundled network, as JSON")
    func boardJSON() throws {
        let out = try OnwardExecutable.run(["board", "Lebak Bulus", "--date", "2026-11-23", "--time", "08:00", "--limit", "3", "--json"])
        #expect(out.status == 0, "\(out.stderr)")
        let board = try JSONDecoder().decode(BoardDTO.self, from: Data(out.stdout.utf8))
        #expect(board.stop.id == "mrt-jakarta:SLBB")
        let rows = try #require(board.departures)
        // From stop_times.txt: weekday trips 028, 029, 030 leave GLBB02 at 08:00, 08:05, 08:10 (Asia/Jakarta, UTC+7).
        // IDs are canonical even with one feed: the bundled network is mrt-jakarta.
        #expect(rows.map(\.tripId) == ["mrt-jakarta:NS-WD-LBB-BHI-028", "mrt-jakarta:NS-WD-LBB-BHI-029", "mrt-jakarta:NS-WD-LBB-BHI-030"])
        #expect(rows.map(\.scheduledDeparture) == ["2026-11-23T08:00:00+07:00", "2026-11-23T08:05:00+07:00", "2026-11-23T08:10:00+07:00"])
        #expect(rows.allSatisfy { $0.platform == "2" && $0.stopId == "mrt-jakarta:GLBB02" && $0.headsign == "Bundaran HI" && $0.serviceDate == "2026-11-23" })
        #expect(rows[0].routeId == "mrt-jakarta:MRTJ_NS" && rows[0].routeShortName == "NS")
    }

    @Test("one query path: the CLI's board and service are the query layer's answers, with the API's limits")
    func onePath() async throws {
        let network = try GTFSNetwork.open(try Network.load([]), options: .init(), fetcher: FakeHTTPFetcher())
        let at = Instant(epochSeconds: 1_795_395_600)  // 2026-11-23 08:00 in Jakarta
        let queries = Queries(SourceRegistry([network.source]), now: at)
        let cli = try OnwardExecutable.run(["board", "mrt-jakarta:SLBB", "--date", "2026-11-23", "--time", "08:00", "--window", "30", "--json"])
        #expect(cli.status == 0, "\(cli.stderr)")
        let fromCLI = try JSONDecoder().decode(BoardDTO.self, from: Data(cli.stdout.utf8))
        #expect(fromCLI == (try await queries.board(.init(stopID: "mrt-jakarta:SLBB", at: at, windowMinutes: 30))))
        let service = try OnwardExecutable.run(["service", "NS-WD-LBB-BHI-028", "--date", "2026-11-23", "--json"])
        #expect(service.status == 0, "\(service.stderr)")
        #expect(try JSONDecoder().decode(ServiceDTO.self, from: Data(service.stdout.utf8))
                == (try await queries.service("mrt-jakarta:NS-WD-LBB-BHI-028", date: ServiceDate(iso: "2026-11-23"))))
        // The API's limits, not the CLI's own.
        let tooLong = try OnwardExecutable.run(["board", "Lebak Bulus", "--window", "1441"])
        #expect(tooLong.status != 0 && tooLong.stderr.contains("--window must be a whole number between 1 and 1440 minutes"))
        let tooMany = try OnwardExecutable.run(["stops", "--search", "stasiun", "--limit", "101"])
        #expect(tooMany.status != 0 && tooMany.stderr.contains("--limit must be a whole number between 1 and 100"))
    }

    @Test("plan: journeys from A to B by name, the query layer's answer, and a readable list on the terminal")
    func plan() async throws {
        let network = try GTFSNetwork.open(try Network.load([]), options: .init(), fetcher: FakeHTTPFetcher())
        let at = Instant(epochSeconds: 1_795_395_600)  // 2026-11-23 08:00 in Jakarta
        let queries = Queries(SourceRegistry([network.source]), now: at)
        let cli = try OnwardExecutable.run(["plan", "Lebak Bulus", "Bundaran HI", "--date", "2026-11-23", "--time", "08:00", "--window", "10", "--json"])
        #expect(cli.status == 0, "\(cli.stderr)")
        let fromCLI = try JSONDecoder().decode(JourneysDTO.self, from: Data(cli.stdout.utf8))
        var query = Queries.JourneyQuery(from: "mrt-jakarta:SLBB", to: "mrt-jakarta:SBHI", at: at)
        query.windowMinutes = 10
        #expect(fromCLI == (try await queries.plan(query)))
        // From stop_times.txt: trips 028, 029, 030 leave GLBB02 at 08:00, 08:05, 08:10 and reach GBHI02 29 min 40 s later.
        #expect(fromCLI.journeys.map(\.departure) == ["2026-11-23T08:00:00+07:00", "2026-11-23T08:05:00+07:00", "2026-11-23T08:10:00+07:00"])
        #expect(fromCLI.journeys.map(\.arrival) == ["2026-11-23T08:29:40+07:00", "2026-11-23T08:34:40+07:00", "2026-11-23T08:39:40+07:00"])
        #expect(fromCLI.journeys.allSatisfy { $0.duration == 1780 && $0.transfers == 0 && $0.legs.count == 1 })
        #expect(fromCLI.journeys.first?.legs.first?.tripId == "mrt-jakarta:NS-WD-LBB-BHI-028")
        let text = try OnwardExecutable.run(["plan", "Lebak Bulus", "Bundaran HI", "--date", "2026-11-23", "--time", "08:00", "--limit", "1"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("1. 08:00 → 08:29"))
        #expect(text.stdout.contains("NS to Bundaran HI"))
        // The API's limits; a time to arrive by is needed.
        let tooFar = try OnwardExecutable.run(["plan", "Lebak Bulus", "Bundaran HI", "--max-walk", "2001"])
        #expect(tooFar.status != 0 && tooFar.stderr.contains("--max-walk must be a whole number between 0 and 2000 metres"))
        let noTime = try OnwardExecutable.run(["plan", "Lebak Bulus", "Bundaran HI", "--arrive-by"])
        #expect(noTime.status != 0 && noTime.stderr.contains("--arrive-by needs --time"))
    }

    @Test("plan: each change says how long it gives, after the walk and before the next ride (WMATA, changing at Gallery Place)",
          .enabled(if: Fixtures.hasSharedData))
    func planChangeMargin() throws {
        let out = try OnwardExecutable.run(["plan", "STN_A15", "STN_C07", "--feed", Fixtures.gtfs("wmata-metrorail-2026-04").path,
                                            "--date", "2026-05-12", "--time", "08:00", "--limit", "1"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("""
               08:34        Gallery Place, Red Line Track 1 Platform
                 Walk to Gallery Place, Green/Yellow Line Center Platform, 1 min
                 1 min to change
               08:35        Gallery Place, Green/Yellow Line Center Platform
            """), "\(out.stdout)")
        let json = try OnwardExecutable.run(["plan", "STN_A15", "STN_C07", "--feed", Fixtures.gtfs("wmata-metrorail-2026-04").path,
                                             "--date", "2026-05-12", "--time", "08:00", "--limit", "1", "--json"])
        let change = try #require(try JSONDecoder().decode(JourneysDTO.self, from: Data(json.stdout.utf8)).journeys.first?.changes?.first)
        #expect(change.marginSeconds == 60 && change.walkSeconds > 0 && change.walkSeconds <= 60 && change.liveMarginSeconds == nil)
    }

    @Test("commute --simulate: near the station, the train arriving two minutes before it leaves, then the stop before the destination left")
    func commuteSimulated() throws {
        let args = ["Lebak Bulus", "Bundaran HI", "--date", "2026-11-23", "--time", "08:00", "--simulate"]
        let planned = try OnwardExecutable.run(["plan"] + args + ["--limit", "1", "--json"])
        #expect(planned.status == 0, "\(planned.stderr)")
        let journey = try #require(try JSONDecoder().decode(JourneysDTO.self, from: Data(planned.stdout.utf8)).journeys.first)
        let ride = try #require(journey.legs.first)
        let out = try OnwardExecutable.run(["commute"] + args + ["--near-station", "--json"])
        #expect(out.status == 0, "\(out.stderr)")
        struct Line: Decodable { var at: String; var kind: String; var stopId: String; var message: String }
        let alerts = try out.stdout.split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        #expect(alerts.map(\.kind) == ["nearStation", "vehicleArriving", "arrivingAtDestination"])
        // Two minutes before the (live) departure; arriving when the train leaves the stop before Bundaran HI.
        let leaves = try #require(Instant(iso8601: ride.expectedDeparture ?? ride.departure))
        #expect(Instant(iso8601: alerts[1].at) == leaves.adding(seconds: -120))
        let before = try #require(ride.intermediateStops?.last)
        #expect(Instant(iso8601: alerts[2].at) == Instant(iso8601: before.expectedDeparture ?? before.departure))
        #expect(alerts[2].stopId == "mrt-jakarta:GBHI02")
        #expect(alerts[2].message.contains("your stop"))
    }

    @Test("commute --track: a beacon sighting from the operator's beacons.csv; a bad track line is named")
    func commuteTrack() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("commute-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let beacons = folder.appendingPathComponent("beacons.csv"), track = folder.appendingPathComponent("track.jsonl")
        try "uuid,major,minor,stop_id\nF7826DA6-4FA2-4E98-8024-BC5B71E0893E,4,2,mrt-jakarta:SBHI\n".write(to: beacons, atomically: true, encoding: .utf8)
        // On the 08:00 (scheduled, no live data): at Lebak Bulus, then the Bundaran HI beacon at 08:20, before the stop before is left.
        try """
            {"at": "2026-11-23T07:57:00+07:00", "lat": -6.2892744, "lon": 106.7749355, "accuracy": 12}
            {"at": "2026-11-23T08:20:00+07:00", "beacon": {"uuid": "f7826da6-4fa2-4e98-8024-bc5b71e0893e", "major": 4, "minor": 2}}
            """.write(to: track, atomically: true, encoding: .utf8)
        let out = try OnwardExecutable.run(["commute", "Lebak Bulus", "Bundaran HI", "--date", "2026-11-23", "--time", "07:58",
                                            "--track", track.path, "--beacons", beacons.path, "--json"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.split(separator: "\n").map { String($0) }.map { $0.contains("\"kind\":\"vehicleArriving\"") ? "v" : $0.contains("\"at\":\"2026-11-23T08:20:00+07:00\",\"basis\":\"beacon\",\"kind\":\"arrivingAtDestination\"") ? "d" : $0 } == ["v", "d"])
        try "{\"at\": \"yesterday\", \"lat\": 1, \"lon\": 2}\n".write(to: track, atomically: true, encoding: .utf8)
        let bad = try OnwardExecutable.run(["commute", "Lebak Bulus", "Bundaran HI", "--track", track.path])
        #expect(bad.status != 0 && bad.stderr.contains("track.jsonl line 1: \"at\" is not an ISO 8601 time"))
    }

    @Test("the GTFS network browses like any source: routes, their directions, a direction's stations in order")
    func browse() async throws {
        let network = try GTFSNetwork.open(try Network.load([]), options: .init(), fetcher: FakeHTTPFetcher())
        let queries = Queries(SourceRegistry([network.source]))
        let routes = try await queries.routes(source: "mrt-jakarta").routes
        #expect(routes.map(\.id) == ["mrt-jakarta:MRTJ_NS"])
        let directions = try await queries.route("MRTJ_NS", direction: nil).directions ?? []
        #expect(directions.map(\.name) == ["to Bundaran HI", "to Lebak Bulus"])
        let stops = try await queries.route("mrt-jakarta:MRTJ_NS", direction: "0").stops ?? []
        // The thirteen stations of the North–South line, Lebak Bulus to Bundaran HI (stops.txt, stop_times.txt).
        #expect(stops.count == 13 && stops.first?.id == "mrt-jakarta:SLBB" && stops.last?.id == "mrt-jakarta:SBHI")
        #expect(stops.allSatisfy { $0.kind == "station" })
        await #expect(throws: QueryError.self) { try await queries.route("mrt-jakarta:MRTJ_NS", direction: "7") }
    }

    @Test("board --to gives the arrival at the destination")
    func boardTo() throws {
        let out = try OnwardExecutable.run(["board", "lebak", "--to", "Bundaran HI", "--date", "2026-11-23", "--time", "08:00", "--limit", "1", "--json"])
        #expect(out.status == 0, "\(out.stderr)")
        let row = try #require(try JSONDecoder().decode(BoardDTO.self, from: Data(out.stdout.utf8)).departures?.first)
        // Trip 028 reaches GBHI02 (Bundaran HI platform 2) at 08:29:40.
        #expect(row.arrivalAtDestination == "2026-11-23T08:29:40+07:00")
    }

    @Test("a readable board on the terminal")
    func boardText() throws {
        let out = try OnwardExecutable.run(["board", "Lebak Bulus", "--date", "2026-11-23", "--time", "08:00", "--limit", "2"])
        #expect(out.status == 0)
        #expect(out.stdout.contains("Stasiun MRT Lebak Bulus Bank Syariah Indonesia · Departures"))
        #expect(out.stdout.contains("  08:00  NS    Bundaran HI  2     mrt-jakarta:NS-WD-LBB-BHI-028"))
        #expect(!out.stdout.contains("\u{1B}["), "NO_COLOR and a pipe mean no colour codes")
    }

    @Test("an ambiguous name lists the candidates and fails")
    func ambiguous() throws {
        let out = try OnwardExecutable.run(["board", "Blok"])
        #expect(out.status == 1)
        #expect(out.stderr.contains("matches several stops"))
        #expect(out.stderr.contains("mrt-jakarta:SBKM") && out.stderr.contains("mrt-jakarta:SBKA"))
    }

    @Test("an unknown stop says so")
    func unknownStop() throws {
        let out = try OnwardExecutable.run(["board", "Nowhere Central"])
        #expect(out.status == 1)
        #expect(out.stderr.contains("no stop or station matches 'Nowhere Central'"))
    }

    @Test("a name with a typo suggests the nearest names, not a search that finds nothing either")
    func nearestNames() throws {
        let out = try OnwardExecutable.run(["board", "Bundran HI"])
        #expect(out.status == 1)
        #expect(out.stderr.contains("no stop or station matches 'Bundran HI'. Did you mean:\n  mrt-jakarta:SBHI  Stasiun MRT Bundaran HI Bank Jakarta"), "\(out.stderr)")
        #expect(!out.stderr.contains("--search Bundran"))
        let nothing = try OnwardExecutable.run(["board", "Nowhere Central"])
        #expect(!nothing.stderr.contains("Did you mean"))
        #expect(nothing.stderr.contains("onward stops --search TEXT"))
    }

    @Test("a feed that is not a zip file is refused in words")
    func notAZip() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("onward-not-a-zip-\(UUID().uuidString).zip")
        try Data("a page of HTML saved as a zip\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let out = try OnwardExecutable.run(["board", "X", "--feed", file.path])
        #expect(out.status == 1)
        #expect(out.stderr.contains("\(file.path): not a zip file (or it is damaged)"), "\(out.stderr)")
        #expect(!out.stderr.contains("missingEndOfCentralDirectoryRecord"))
    }

    @Test("service details as JSON")
    func service() throws {
        let out = try OnwardExecutable.run(["service", "NS-WD-LBB-BHI-028", "--date", "2026-11-23", "--json"])
        #expect(out.status == 0, "\(out.stderr)")
        let s = try JSONDecoder().decode(ServiceDTO.self, from: Data(out.stdout.utf8))
        #expect(s.tripId == "mrt-jakarta:NS-WD-LBB-BHI-028" && s.serviceDate == "2026-11-23")
        #expect(s.calls.count == 13)
        #expect(s.calls.first?.stopId == "mrt-jakarta:GLBB02" && s.calls.first?.scheduledDeparture == "2026-11-23T08:00:00+07:00")
        #expect(s.calls.last?.stopId == "mrt-jakarta:GBHI02" && s.calls.last?.scheduledArrival == "2026-11-23T08:29:40+07:00")
    }

    @Test("a weekday trip on a Sunday is refused with the dates it runs")
    func serviceNotRunning() throws {
        let out = try OnwardExecutable.run(["service", "NS-WD-LBB-BHI-028", "--date", "2026-11-22"])
        #expect(out.status == 1)
        #expect(out.stderr.contains("does not run on 2026-11-22; it runs on 2026-11-23, 2026-11-24, 2026-11-25"))
    }

    @Test("stops --search and --near")
    func stops() throws {
        let search = try OnwardExecutable.run(["stops", "--search", "BUNDARAN", "--json"])
        #expect(search.status == 0)
        let found = try JSONDecoder().decode(StopsDTO.self, from: Data(search.stdout.utf8))
        #expect(found.stops.map(\.id) == ["mrt-jakarta:SBHI"])
        let near = try OnwardExecutable.run(["stops", "--near", "-6.2445,106.7981", "--radius", "800", "--json"])
        #expect(near.status == 0, "\(near.stderr)")
        let nearby = try JSONDecoder().decode(StopsDTO.self, from: Data(near.stdout.utf8))
        #expect(nearby.stops.map(\.id) == ["mrt-jakarta:SBKM", "mrt-jakarta:SASN"])
    }

    @Test("import writes a snapshot the other commands load")
    func importAndUseSnapshot() throws {
        try #require(Fixtures.hasSharedData, "needs ../shared/data")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("onward-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let snapshot = dir.appendingPathComponent("caltrain.onward").path
        let imported = try OnwardExecutable.run(["import", Fixtures.gtfs("caltrain-2023-09").path, "--output", snapshot])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("stop_times.txt       3,498 rows"))
        #expect(imported.stdout.contains("Snapshot written to \(snapshot)"))
        // The station gathers platforms 70011 (northbound terminus: arrivals only) and 70012.
        // From the feed's files: weekday (service 72982) departures after 07:00 are trips 704 (7:04) and 404 (7:10).
        let board = try OnwardExecutable.run(["board", "san_francisco", "--feed", snapshot, "--date", "2023-11-07", "--time", "07:00", "--limit", "2", "--json"])
        #expect(board.status == 0, "\(board.stderr)")
        let rows = try #require(try JSONDecoder().decode(BoardDTO.self, from: Data(board.stdout.utf8)).departures)
        // The snapshot keeps the feed's name, from its file: the IDs are caltrain-2023-09:….
        #expect(rows.map(\.tripId) == ["caltrain-2023-09:704", "caltrain-2023-09:404"])
        #expect(rows.map(\.scheduledDeparture) == ["2023-11-07T07:04:00-08:00", "2023-11-07T07:10:00-08:00"])
        #expect(rows.allSatisfy { $0.stopId == "caltrain-2023-09:70012" })
    }

    @Test("a broken feed is refused with file, line and field; a row problem is a notice")
    func refusedAndNotices() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("onward-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = [
            "agency.txt": "agency_name,agency_url,agency_timezone\nT,https://example.org,Europe/London\n",
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,51.5,-0.1\nB,Beta,51.6,-0.2\n",
            "routes.txt": "route_id,route_short_name,route_type\nR,1,3\n",
            "trips.txt": "route_id,service_id,trip_id\nR,S,T1\nR,S,T2\n",
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nS,1,1,1,1,1,1,1,20250101,20251231\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,A,1\nT1,08:10:00,08:10:00,B,2\nT2,09:00:00,09:00:00,A,1\n",
        ]
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let ok = try OnwardExecutable.run(["import", dir.path, "--output", dir.appendingPathComponent("t.onward").path])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdout.contains("1 notice"))
        #expect(ok.stdout.contains("tripTooShort: 1"))
        #expect(ok.stdout.contains("stop_times.txt:4 (trip_id): trip '"), "\(ok.stdout)")
        #expect(ok.stdout.contains(":T2' has only one stop time; skipped"), "\(ok.stdout)")

        try "stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,51.5,-0.1\nB,Beta,north,-0.2\n"
            .write(to: dir.appendingPathComponent("stops.txt"), atomically: true, encoding: .utf8)
        let refused = try OnwardExecutable.run(["import", dir.path, "--output", dir.appendingPathComponent("u.onward").path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("stops.txt:3 (stop_lat): 'north' is not a valid latitude"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("u.onward").path))
    }

    @Test("bad options get a clear message")
    func badOptions() throws {
        let out = try OnwardExecutable.run(["board", "Lebak Bulus", "--date", "2026-02-30"])
        #expect(out.status == 1)
        #expect(out.stderr.contains("--date '2026-02-30' is not a date"))
    }
}
