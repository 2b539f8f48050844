import API
import Foundation
import OnwardTesting
import Testing

/// Expected minus scheduled, in seconds, from two ISO 8601 times with offsets.
private func seconds(from scheduled: String?, to expected: String?) -> Int? {
    let f = ISO8601DateFormatter()
    guard let s = scheduled.flatMap(f.date(from:)), let e = expected.flatMap(f.date(from:)) else { return nil }
    return Int(e.timeIntervalSince(s))
}

private func decode<T: Decodable>(_ type: T.Type, _ out: OnwardExecutable.Output,
                                  sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
    #expect(out.status == 0, "\(out.stderr)", sourceLocation: sourceLocation)
    return try JSONDecoder().decode(type, from: Data(out.stdout.utf8))
}

/// Live data on the bundled network: the simulation, and a realtime source that cannot be read.
@Suite("onward live data (bundled network)")
struct LiveCLITests {
    /// The simulation is deterministic for a given `now` (SimulatedFeed hashes each trip instance). With
    /// `now` at 08:00 on Monday 2026-11-23, it cancels a southbound run and makes another skip its middle
    /// stop, which is ASEAN (SASN), both within the next two hours; several runs there pick up delays.
    static let simulatedBoard = ["board", "SASN", "--simulate", "--date", "2026-11-23", "--time", "08:00", "--window", "120"]

    @Test("board --simulate --json: labelled simulated; a cancelled, a skipped and late rows with expected times")
    func simulatedJSON() throws {
        let board = try decode(BoardDTO.self, OnwardExecutable.run(Self.simulatedBoard + ["--json"]))
        let live = try #require(board.live)
        #expect(live.simulated)
        #expect(!live.stale && live.unavailable.isEmpty)
        // The simulated messages are stamped with `now` itself.
        #expect(live.updatedAt == "2026-11-23T01:00:00+00:00")
        let rows = try #require(board.departures)
        let cancelled = rows.filter { $0.status == "cancelled" }
        let skipped = rows.filter { $0.status == "skipped" }
        let late = rows.filter { $0.status == "late" }
        #expect(cancelled.count == 1 && skipped.count == 1 && !late.isEmpty, "\(rows.map(\.status))")
        // A cancelled or skipped call has no expected time; the row keeps its scheduled one.
        for row in cancelled + skipped {
            #expect(row.expectedDeparture == nil && row.delaySeconds == nil && row.scheduledDeparture != nil)
        }
        // Every other row is live: its expected time is the scheduled one plus its delay.
        for row in rows where !["cancelled", "skipped"].contains(row.status) {
            let delay = try #require(row.delaySeconds, "\(row.tripId)")
            #expect(seconds(from: row.scheduledDeparture, to: row.expectedDeparture) == delay, "\(row.tripId)")
            #expect(row.status == (delay > 59 ? "late" : delay < -59 ? "early" : "onTime"), "\(row.tripId)")
        }
        #expect(late.allSatisfy { ($0.delaySeconds ?? 0) > 59 })
    }

    @Test("board and service --simulate: how full each run is, as a forecast per stop and the vehicle with six carriages")
    func simulatedOccupancy() throws {
        let board = try decode(BoardDTO.self, OnwardExecutable.run(Self.simulatedBoard + ["--json"]))
        let rows = try #require(board.departures).filter { !["cancelled", "skipped", "departed"].contains($0.status) }
        #expect(!rows.isEmpty)
        // Every running row has the feed's forecast for leaving ASEAN, mid-line; up to 08:30, in the peak, seats are few or
        // gone; over the two hours it eases.
        for row in rows {
            let o = try #require(row.occupancy, "\(row.tripId)")
            #expect(o.basis == "forecastAtStop" && o.percentage == nil && o.carriages == nil, "\(row.tripId)")
            if let scheduled = row.scheduledDeparture, scheduled <= "2026-11-23T08:30:00+07:00" {
                #expect(["fewSeatsAvailable", "standingRoomOnly", "crushedStandingRoomOnly", "full"].contains(o.level ?? ""), "\(row.tripId): \(o.level ?? "none")")
            }
        }
        #expect(rows.last?.occupancy?.level == "manySeatsAvailable")
        let trip = try #require(rows.first { $0.tripId == "mrt-jakarta:NS-WD-LBB-BHI-025" })
        let service = try decode(ServiceDTO.self, OnwardExecutable.run(["service", trip.tripId, "--simulate", "--date", "2026-11-23", "--time", "08:10", "--json"]))
        let vehicle = try #require(service.vehicle?.occupancy)
        #expect(vehicle.basis == "vehicleNow")
        let percent = try #require(vehicle.percentage)
        let carriages = try #require(vehicle.carriages)
        #expect(carriages.map(\.sequence) == [1, 2, 3, 4, 5, 6])
        // Each carriage's level is the band its percentage falls in, and the middle ones are fuller than the ends.
        for c in carriages {
            let p = try #require(c.percentage)
            let band = p < 10 ? "empty" : p < 50 ? "manySeatsAvailable" : p < 80 ? "fewSeatsAvailable" : p < 95 ? "standingRoomOnly"
                : p < 100 ? "crushedStandingRoomOnly" : "full"
            #expect(c.level == band, "carriage \(c.sequence) at \(p)%")
        }
        #expect(carriages[3].percentage! > percent && carriages[0].percentage! < percent && carriages[5].percentage! < percent)
        // Calls still to come carry their forecast; the last call, where no one leaves, none.
        #expect(service.calls.dropLast().allSatisfy { $0.occupancy?.basis == "forecastAtStop" })
        #expect(service.calls.last?.occupancy == nil)
        // On the terminal, in words.
        let text = try OnwardExecutable.run(Self.simulatedBoard)
        #expect(text.stdout.contains(", forecast"))
    }

    @Test("board --simulate on the terminal says it is simulated")
    func simulatedText() throws {
        let out = try OnwardExecutable.run(Self.simulatedBoard)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("SIMULATED live data (demonstration, not a real feed)"))
        #expect(out.stdout.contains("cancelled") && out.stdout.contains("not stopping") && out.stdout.contains(" late "))
    }

    @Test("board --simulate on the terminal: the minutes late are the difference of the two times shown")
    func minutesAgreeWithTimes() throws {
        let out = try OnwardExecutable.run(Self.simulatedBoard)
        #expect(out.status == 0, "\(out.stderr)")
        // 07:57:50 expected 08:03:25 is 335 s, 5 whole minutes, but the row shows 07:57 and 08:03.
        #expect(out.stdout.contains("07:57  08:03 late 6 min"))
        func minutes(_ hhmm: Substring) -> Int? {
            let parts = hhmm.split(separator: ":").compactMap { Int($0) }
            return parts.count == 2 ? parts[0] * 60 + parts[1] : nil
        }
        var checked = 0
        for line in out.stdout.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard words.count > 4, ["late", "early"].contains(words[2]), let scheduled = minutes(words[0]), let expected = minutes(words[1]),
                  let shown = Int(words[3]) else { continue }
            #expect(shown == abs(expected - scheduled), "\(line)")
            checked += 1
        }
        #expect(checked > 5)
    }

    @Test("a realtime file that is missing: the static board, 'live data unavailable' on stderr, exit 0")
    func missingRealtimeFile() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("onward-missing-\(UUID().uuidString).pb").path
        let args = ["board", "Lebak Bulus", "--realtime", missing, "--date", "2026-11-23", "--time", "08:00", "--limit", "2"]
        let text = try OnwardExecutable.run(args)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("08:00") && text.stdout.contains("NS-WD-LBB-BHI-028"))
        #expect(text.stdout.contains("no live data"))
        #expect(text.stderr.contains("live data unavailable") && text.stderr.contains(missing))
        let board = try decode(BoardDTO.self, OnwardExecutable.run(args + ["--json"]))
        #expect(board.departures?.map(\.tripId) == ["mrt-jakarta:NS-WD-LBB-BHI-028", "mrt-jakarta:NS-WD-LBB-BHI-029"])
        #expect(board.departures?.allSatisfy { $0.status == "noLiveData" && $0.expectedDeparture == nil } == true)
        let live = try #require(board.live)
        #expect(!live.simulated && live.updatedAt == nil)
        #expect(live.unavailable.count == 1 && live.unavailable[0].contains(missing))
    }
}

/// Live boards, services and `onward rt inspect` on the real Halifax captures.
///
/// The expected values were read from the capture files themselves, with a small
/// protobuf wire-format reader in Python (field numbers from gtfs-realtime.proto) and
/// the static zip read with `zipfile` + `csv`; the header timestamp is 1762463054 =
/// 2025-11-06 21:04:14 UTC = 17:04:14 in Halifax (UTC-4). The trip chosen, 3790518
/// (route 4), numbers its stops the same way in the capture and in stop_times.txt:
/// - stop_sequence 6, stop 6969: time 1762462649 = 16:57:29, delay -259 (scheduled 17:01:48);
/// - stop_sequence 16 (8179) and 17 (8223): SKIPPED;
/// - stop_sequence 18, stop 8184: time 1762463927 = 17:18:47, delay 287 (scheduled 17:14:00).
/// 3790544 (route 4, 17:06 at 8184) is CANCELED; 3790544_1 is ADDED, at 8184 at 1762464036 = 17:20:36.
@Suite("onward live data (Halifax captures)", .enabled(if: Fixtures.hasSharedData, "needs ../shared/data"))
struct LiveCaptureCLITests {
    /// Named on the command line: every ID of the feed is halifax:….
    static let feed = "halifax=" + Fixtures.gtfs("halifax-transit-2025-08").path
    static let tripUpdates = Fixtures.sharedData.appendingPathComponent("gtfs-rt/halifax/TripUpdates-2025-11-06T2104Z.pb").path

    /// With --date and --time, the CLI takes that moment as "now" (as of it, earlier services have departed).
    func board(at time: String, _ extra: [String] = []) throws -> OnwardExecutable.Output {
        try OnwardExecutable.run(["board", "8184", "--feed", Self.feed, "--realtime", Self.tripUpdates,
                                  "--date", "2025-11-06", "--time", time, "--window", "30"] + extra)
    }

    @Test("a live board at stop 8184: expected times, delays, a cancelled and an added trip")
    func halifaxBoard() throws {
        let board = try decode(BoardDTO.self, board(at: "17:04", ["--json"]))
        let live = try #require(board.live)
        // "now" is 17:04:00, 14 s before the capture was made: fresh.
        #expect(!live.simulated && !live.stale && live.unavailable.isEmpty)
        #expect(live.updatedAt == "2025-11-06T21:04:14+00:00")
        let rows = try #require(board.departures)
        func row(_ trip: String) throws -> BoardEntryDTO { try #require(rows.first { $0.tripId == "halifax:" + trip }, "no row for \(trip)") }
        let late = try row("3790518")
        #expect(late.scheduledDeparture == "2025-11-06T17:14:00-04:00")
        #expect(late.expectedDeparture == "2025-11-06T17:18:47-04:00")
        #expect(late.delaySeconds == 287 && late.status == "late")
        let cancelled = try row("3790544")
        #expect(cancelled.status == "cancelled" && cancelled.expectedDeparture == nil)
        #expect(cancelled.scheduledDeparture == "2025-11-06T17:06:00-04:00")
        let added = try row("3790544_1")
        #expect(added.addedTrip == true && added.status == "onTime")
        #expect(added.expectedDeparture == "2025-11-06T17:20:36-04:00")
        // Rows come in the order they will actually leave.
        let times = rows.compactMap { $0.expectedDeparture ?? $0.scheduledDeparture }
        #expect(times == times.sorted())
    }

    @Test("the capture is stale once 'now' is more than --max-age past it")
    func stale() throws {
        // 17:30:00 is 1,546 s after the capture: past the default 120 s, within 3,600 s.
        let old = try #require(try decode(BoardDTO.self, board(at: "17:30", ["--json"])).live)
        #expect(old.stale)
        let tolerant = try #require(try decode(BoardDTO.self, board(at: "17:30", ["--json", "--max-age", "3600"])).live)
        #expect(!tolerant.stale)
        let text = try board(at: "17:30")
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("stale: shown as last known"))
        // In Halifax's time, like every other time on the board (the capture was made at 21:04:14 UTC).
        #expect(text.stdout.contains("Live data from 2025-11-06 17:04:14"))
        #expect(!text.stdout.contains("21:04"))
    }

    @Test("an added trip says 'added' on the terminal, not plain 'on time'")
    func addedTrip() throws {
        let text = try board(at: "17:04")
        #expect(text.status == 0, "\(text.stderr)")
        let row = try #require(text.stdout.split(separator: "\n").first { $0.contains("3790544_1") })
        #expect(row.contains("17:20  added "))
        #expect(!row.contains("on time"))
    }

    @Test("service --realtime --json: expected times per call, skipped calls")
    func halifaxService() throws {
        let s = try decode(ServiceDTO.self, OnwardExecutable.run([
            "service", "3790518", "--feed", Self.feed, "--realtime", "halifax=" + Self.tripUpdates, "--date", "2025-11-06", "--json",
        ]))
        #expect(s.tripId == "halifax:3790518" && s.calls.count == 43)
        #expect(s.live?.updatedAt == "2025-11-06T21:04:14+00:00")
        func call(_ sequence: Int) throws -> CallDTO { try #require(s.calls.first { $0.stopSequence == sequence }) }
        let early = try call(6)
        #expect(early.stopId == "halifax:6969" && early.status == "early" && early.delaySeconds == -259)
        #expect(early.expectedDeparture == "2025-11-06T16:57:29-04:00")
        for sequence in [16, 17] {
            let skipped = try call(sequence)
            #expect(skipped.status == "skipped" && skipped.expectedDeparture == nil)
        }
        let late = try call(18)
        #expect(late.stopId == "halifax:8184" && late.status == "late" && late.delaySeconds == 287)
        #expect(late.expectedArrival == "2025-11-06T17:18:47-04:00" && late.expectedDeparture == "2025-11-06T17:18:47-04:00")
    }

    @Test("rt inspect --json: counts and the match report")
    func inspectJSON() throws {
        let dto = try decode(RealtimeInspectDTO.self, OnwardExecutable.run([
            "rt", "inspect", Self.tripUpdates, "--feed", Self.feed, "--json", "--limit", "3",
        ]))
        #expect(dto.header.gtfsRealtimeVersion == "2.0" && dto.header.incrementality == "fullDataset")
        #expect(dto.header.timestamp == "2025-11-06T21:04:14+00:00" && dto.header.localTimestamp == "2025-11-06T17:04:14-04:00")
        #expect((dto.header.ageSeconds ?? 0) > 86_400)
        #expect(dto.sizeBytes == 542_344 && dto.staticFeeds == ["halifax"] && dto.otherFeeds == nil && dto.timeZone == "America/Halifax")
        #expect(dto.counts == RealtimeInspectDTO.Counts(entities: 511, tripUpdates: 511, vehiclePositions: 0, alerts: 0, deleted: 0))
        // The first entity of the capture: trip 3789838 (route 320), 8 updates, the first at stop 9003 (stop_sequence 4),
        // time 1762463340 = 17:09:00 with delay 690.
        #expect(dto.tripUpdates.count == 3)
        let first = try #require(dto.tripUpdates.first)
        #expect(first.tripId == "3789838" && first.routeId == "320" && first.startDate == "20251106" && first.scheduleRelationship == "scheduled")
        #expect(first.stopTimeUpdateCount == 8)
        #expect(first.firstStopTimeUpdate?.stopId == "9003" && first.firstStopTimeUpdate?.stopSequence == 4)
        #expect(first.firstStopTimeUpdate?.departure == "2025-11-06T17:09:00-04:00" && first.firstStopTimeUpdate?.departureDelaySeconds == 690)
        let m = dto.match
        #expect(m.stopTimeUpdateTotal == 17_041)
        // 502 SCHEDULED + 4 CANCELED updates; all but 3797749 name a trip of trips.txt that runs that day.
        #expect(m.trips == RealtimeInspectDTO.Tally(matched: 505, unknown: 1, unknownIds: ["halifax:3797749"]))
        #expect(m.tripsNotRunning == 0 && m.cancelledTrips == 4 && m.addedTrips == 5)
        // 14 distinct stop_ids of the capture are not in stops.txt; the first ten in feed order:
        #expect(m.stopTimeUpdates.unknownIds == ["1040", "6084", "6771", "5914", "1067", "1060", "1065", "1063", "2318", "2314"].map { "halifax:" + $0 })
        #expect(m.stopTimeUpdates.unknown > 0 && m.stopTimeUpdates.matched + m.stopTimeUpdates.unknown <= 17_041)
        // 79 distinct route_ids in the trip descriptors; only sp6 is not in routes.txt.
        #expect(m.routes == RealtimeInspectDTO.Tally(matched: 78, unknown: 1, unknownIds: ["halifax:sp6"]))
    }

    @Test("rt inspect on the terminal")
    func inspectText() throws {
        let out = try OnwardExecutable.run(["rt", "inspect", "halifax=" + Self.tripUpdates, "--feed", Self.feed, "--limit", "2"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("version 2.0 · full dataset · timestamp 2025-11-06T21:04:14+00:00 = 17:04:14 America/Halifax"))
        #expect(out.stdout.contains("511 entities: 511 trip updates · 0 vehicle positions · 0 alerts · 0 deleted"))
        #expect(out.stdout.contains("Trip updates (first 2 of 511; times in America/Halifax)"))
        #expect(out.stdout.contains("3789838  320    2025-11-06  scheduled     8        stop 9003 #4 17:09:00 +11m30s"))
        #expect(out.stdout.contains("505 of 511 updates matched · 4 cancelled · 5 added"))
        #expect(out.stdout.contains("1 unknown: halifax:3797749"))
        #expect(out.stdout.contains("of 17,041 updates matched"))
        #expect(out.stdout.contains("78 of 79 route IDs known"))
        #expect(!out.stdout.contains("\u{1B}["))
    }

    @Test("rt inspect on vehicle positions and alerts")
    func inspectVehiclesAndAlerts() throws {
        let folder = Fixtures.sharedData.appendingPathComponent("gtfs-rt/halifax")
        let vehicles = try decode(RealtimeInspectDTO.self, OnwardExecutable.run([
            "rt", "inspect", folder.appendingPathComponent("VehiclePositions-2025-11-06T2102Z.pb").path, "--feed", Self.feed, "--json",
        ]))
        // 291 positions; 286 name a trip of trips.txt; the other five are the ADDED trips and 3797749.
        #expect(vehicles.counts.vehiclePositions == 291 && vehicles.vehiclePositions.count == 20)
        #expect(vehicles.match.vehicles.matched == 286 && vehicles.match.vehicles.unknown == 5)
        #expect(vehicles.match.routes == RealtimeInspectDTO.Tally(matched: 74, unknown: 1, unknownIds: ["halifax:sp6"]))
        let alerts = try decode(RealtimeInspectDTO.self, OnwardExecutable.run([
            "rt", "inspect", folder.appendingPathComponent("Alerts-2025-11-06T2104Z.pb").path, "--feed", Self.feed, "--json", "--limit", "1",
        ]))
        #expect(alerts.counts.alerts == 46 && alerts.alerts.count == 1)
        let a = try #require(alerts.alerts.first)
        #expect(a.header == "Stop closure Barrington St After South St (6096) is closed for construction")
        #expect(a.cause == "construction" && a.informedEntities.first?.routeId == "halifax:7B" && a.informedEntities.first?.stopId == "halifax:6096")
        #expect(alerts.match.alertStops == RealtimeInspectDTO.Tally(matched: 179, unknown: 1, unknownIds: ["halifax:6611"]))
        #expect(alerts.match.routes == RealtimeInspectDTO.Tally(matched: 19, unknown: 1, unknownIds: ["halifax:hwst"]))
    }

    @Test("rt inspect on garbage or a missing file: a message naming it, exit 1")
    func inspectBadInput() throws {
        let dir = try Self.folderWithGarbage()
        defer { try? FileManager.default.removeItem(at: dir) }
        let garbage = dir.appendingPathComponent("garbage.pb").path
        let bad = try OnwardExecutable.run(["rt", "inspect", garbage, "--feed", Self.feed])
        #expect(bad.status == 1)
        #expect(bad.stdout.isEmpty)
        #expect(bad.stderr.contains("\(garbage) is not a valid GTFS-Realtime feed"))
        let missing = dir.appendingPathComponent("missing.pb").path
        let gone = try OnwardExecutable.run(["rt", "inspect", missing])
        #expect(gone.status == 1)
        #expect(gone.stderr.contains("no such file: \(missing)"))
    }

    @Test("rt inspect explains a malformed file in the words board uses, with no decoder's internal code")
    func inspectMalformedInBoardsWords() throws {
        let dir = try Self.folderWithGarbage()
        defer { try? FileManager.default.removeItem(at: dir) }
        let garbage = dir.appendingPathComponent("garbage.pb").path
        let rt = try OnwardExecutable.run(["rt", "inspect", garbage, "--feed", Self.feed])
        #expect(rt.status == 1)
        let why = "is not a valid GTFS-Realtime feed (33 bytes): "
        #expect(rt.stderr.contains("\(garbage) \(why)"), "\(rt.stderr)")
        #expect(!rt.stderr.contains("malformedProtobuf") && !rt.stderr.contains("BinaryDecodingError"))
        // board reads the same file as live data: the same sentence after the feed's name.
        let explained = try #require(rt.stderr.components(separatedBy: "\(garbage) ").last?.trimmingCharacters(in: .whitespacesAndNewlines))
        let board = try OnwardExecutable.run(["board", "halifax:6969", "--feed", Self.feed, "--realtime", "halifax=" + garbage,
                                              "--date", "2025-11-06", "--time", "17:00"])
        #expect(board.stderr.contains(explained), "board: \(board.stderr)\nrt inspect: \(rt.stderr)")
    }

    /// A new folder holding garbage.pb: 33 bytes of text, not a GTFS-Realtime feed.
    private static func folderWithGarbage() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("onward-rt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data("this is not a GTFS-Realtime feed\n".utf8).write(to: dir.appendingPathComponent("garbage.pb"))
        return dir
    }
}
