import Foundation
import GTFS
import GTFSRealtime
import OnwardCore
import OnwardTesting
import Testing
import Timetable

// Each rule of the point 3, as a small feed built inline. The feed is in
// UTC so every expected instant is plain arithmetic: day + hh:mm:ss.

/// The service date every inline update names (a Monday).
private let rulesDate = ServiceDate(iso: "2025-06-02")!

/// Epoch seconds of a wall-clock time on `rulesDate` (UTC), worked out by hand, not by the code under test.
private func at(_ hhmmss: String) -> Int64 {
    let p = hhmmss.split(separator: ":").map { Int64($0)! }
    return Int64(rulesDate.dayNumber) * 86_400 + p[0] * 3600 + p[1] * 60 + (p.count > 2 ? p[2] : 0)
}

/// Station STN with platforms P1 ("1") and P2 ("2"); stops A–D; loop stop L.
/// T1: P1 08:00, A 08:10, B 08:20, C 08:30, D 08:40 (sequences 1–5).
/// T2: P1 09:00, A 09:10, B 09:20 (sequences 10, 20, 30).
/// LOOP: L 10:00, A 10:10, L 10:20, B 10:30 (visits L twice).
/// F1: frequency-based, A then B 5 minutes later, every 10 minutes 06:00–07:00, exact times.
private let rulesFiles = [
    "stops.txt": """
        stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,platform_code
        STN,Central,40.0,-74.0,1,,
        P1,Central,40.0,-74.0,0,STN,1
        P2,Central,40.0,-74.0,0,STN,2
        A,Alpha,40.01,-74.0,0,,
        B,Bravo,40.02,-74.0,0,,
        C,Charlie,40.03,-74.0,0,,
        D,Delta,40.04,-74.0,0,,
        L,Loop,40.05,-74.0,0,,
        """,
    "routes.txt": """
        route_id,agency_id,route_short_name,route_long_name,route_type
        R,A,1,Line One,3
        """,
    "trips.txt": """
        route_id,service_id,trip_id
        R,DAILY,T1
        R,DAILY,T2
        R,DAILY,LOOP
        R,DAILY,F1
        """,
    "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        T1,08:00:00,08:00:00,P1,1
        T1,08:10:00,08:10:00,A,2
        T1,08:20:00,08:20:00,B,3
        T1,08:30:00,08:30:00,C,4
        T1,08:40:00,08:40:00,D,5
        T2,09:00:00,09:00:00,P1,10
        T2,09:10:00,09:10:00,A,20
        T2,09:20:00,09:20:00,B,30
        LOOP,10:00:00,10:00:00,L,1
        LOOP,10:10:00,10:10:00,A,2
        LOOP,10:20:00,10:20:00,L,3
        LOOP,10:30:00,10:30:00,B,4
        F1,06:00:00,06:00:00,A,1
        F1,06:05:00,06:05:00,B,2
        """,
    "frequencies.txt": """
        trip_id,start_time,end_time,headway_secs,exact_times
        F1,06:00:00,07:00:00,600,1
        """,
    "calendar.txt": """
        service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
        DAILY,1,1,1,1,1,1,1,20250101,20251231
        """,
]

private func rulesTimetable() throws -> Timetable { try InlineFeed.load(timeZone: "UTC", rulesFiles).timetable }

// MARK: Building messages with the generated types

private func stu(seq: UInt32? = nil, stop: String? = nil, delay: Int32? = nil, time: Int64? = nil,
                 _ relationship: TransitRealtime_TripUpdate.StopTimeUpdate.ScheduleRelationship? = nil,
                 assigned: String? = nil) -> TransitRealtime_TripUpdate.StopTimeUpdate {
    var u = TransitRealtime_TripUpdate.StopTimeUpdate()
    if let seq { u.stopSequence = seq }
    if let stop { u.stopID = stop }
    if delay != nil || time != nil {
        var e = TransitRealtime_TripUpdate.StopTimeEvent()
        if let delay { e.delay = delay }
        if let time { e.time = time }
        u.arrival = e
        u.departure = e
    }
    if let relationship { u.scheduleRelationship = relationship }
    if let assigned {
        var p = TransitRealtime_TripUpdate.StopTimeUpdate.StopTimeProperties()
        p.assignedStopID = assigned
        u.stopTimeProperties = p
    }
    return u
}

private func trip(_ id: String, _ relationship: TransitRealtime_TripDescriptor.ScheduleRelationship? = nil,
                  startDate: String? = "20250602", startTime: String? = nil,
                  _ updates: [TransitRealtime_TripUpdate.StopTimeUpdate] = []) -> TransitRealtime_TripUpdate {
    var d = TransitRealtime_TripDescriptor()
    d.tripID = id
    if let relationship { d.scheduleRelationship = relationship }
    if let startDate { d.startDate = startDate }
    if let startTime { d.startTime = startTime }
    var u = TransitRealtime_TripUpdate()
    u.trip = d
    u.stopTimeUpdate = updates
    return u
}

private func trip(_ id: String, startDate: String? = "20250602", startTime: String? = nil,
                  _ updates: [TransitRealtime_TripUpdate.StopTimeUpdate]) -> TransitRealtime_TripUpdate {
    trip(id, nil, startDate: startDate, startTime: startTime, updates)
}

private func message(_ updates: [TransitRealtime_TripUpdate], timestamp: Int64? = at("07:30"),
                     incrementality: TransitRealtime_FeedHeader.Incrementality = .fullDataset) -> TransitRealtime_FeedMessage {
    var m = TransitRealtime_FeedMessage()
    m.header.gtfsRealtimeVersion = "2.0"
    m.header.incrementality = incrementality
    if let timestamp { m.header.timestamp = UInt64(timestamp) }
    m.entity = updates.enumerated().map { i, u in
        var e = TransitRealtime_FeedEntity()
        e.id = "e\(i)"
        e.tripUpdate = u
        return e
    }
    return m
}

private let morning = Instant(epochSeconds: at("07:30"))

private extension Timetable {
    func details(_ tripID: String, startTime: Int32? = nil, overlay: RealtimeOverlay, now: Instant = morning) throws -> ServiceDetails {
        let t = try #require(trip(id: tripID))
        return try liveService(t, on: rulesDate, startTime: startTime, overlay: overlay, now: now)
    }

    func live(_ kind: BoardRequest.Kind = .departures, at stopID: String, from: String, window: Int = 7200,
              overlay: RealtimeOverlay, now: Instant = morning) throws -> [BoardEntry] {
        let s = try #require(stop(id: stopID))
        return liveBoard(BoardRequest(kind: kind, stop: s, from: Instant(epochSeconds: at(from)), window: window), overlay: overlay, now: now)
    }
}

private func departures(_ d: ServiceDetails) -> [Int64?] { d.calls.map { $0.expectedDeparture?.epochSeconds } }

@Suite("GTFS-Realtime trip update rules, inline")
struct TripUpdateRuleTests {
    // MARK: Matching

    @Test("stop_sequence matches first; a stop_sequence the trip lacks falls back to stop_id")
    func sequenceThenStopID() throws {
        let tt = try rulesTimetable()
        // seq 3 is B (+120 s); seq 99 does not exist, so stop_id D decides (+300 s).
        let m = message([trip("T1", [stu(seq: 3, stop: "B", delay: 120), stu(seq: 99, stop: "D", delay: 300)])])
        let (overlay, report) = TripUpdateApplier(timetable: tt).apply(m, now: morning)
        #expect(report.matchedTrips == 1)
        #expect(report.stopTimeUpdates == 2)
        #expect(report.matchedStopTimeUpdates == 2)
        #expect(report.unknownStops == 0)
        let d = try tt.details("T1", overlay: overlay)
        // P1 and A come before the first update: no times; B +120, C carries +120, D +300.
        #expect(departures(d) == [nil, nil, at("08:22"), at("08:32"), at("08:45")])
        #expect(d.calls.map(\.delaySeconds) == [nil, nil, 120, 120, 300])
        #expect(d.calls[2].status == .late)
        // Calls before the first update have been passed.
        #expect(d.calls[0].status == .departed)
    }

    @Test("a stop_time_update with only a stop_id matches it; stop_sequence wins over a different stop_id")
    func stopIDOnlyAndSequencePrecedence() throws {
        let tt = try rulesTimetable()
        let m = message([trip("T2", [stu(stop: "A", time: at("09:12")), stu(seq: 30, delay: -60)])])
        let (overlay, report) = TripUpdateApplier(timetable: tt).apply(m, now: morning)
        #expect(report.matchedStopTimeUpdates == 2)
        let d = try tt.details("T2", overlay: overlay)
        #expect(departures(d) == [nil, at("09:12"), at("09:19")])
        // More than 59 s either way is late or early (LiveStatus.onTimeTolerance).
        #expect(d.calls.map(\.status) == [.departed, .late, .early])
    }

    @Test("a loop trip matched by stop_id alone: the second update for L is the second visit")
    func loopByStopID() throws {
        let tt = try rulesTimetable()
        let m = message([trip("LOOP", [stu(stop: "L", delay: 60), stu(stop: "A", delay: 120), stu(stop: "L", delay: 180)])])
        let (overlay, report) = TripUpdateApplier(timetable: tt).apply(m, now: morning)
        #expect(report.matchedStopTimeUpdates == 3)
        let d = try tt.details("LOOP", overlay: overlay)
        #expect(departures(d) == [at("10:01"), at("10:12"), at("10:23"), at("10:33")])
    }

    @Test("a loop trip matched by stop_sequence: an update for the second visit leaves the first alone")
    func loopBySequence() throws {
        let tt = try rulesTimetable()
        let m = message([trip("LOOP", [stu(seq: 3, stop: "L", time: at("10:25"))])])
        let (overlay, _) = TripUpdateApplier(timetable: tt).apply(m, now: Instant(epochSeconds: at("10:15")))
        let d = try tt.details("LOOP", overlay: overlay, now: Instant(epochSeconds: at("10:15")))
        #expect(departures(d) == [nil, nil, at("10:25"), at("10:35")])
        // The board at L shows both visits: the first passed, the second 5 minutes late.
        let board = try tt.live(at: "L", from: "09:55", overlay: overlay, now: Instant(epochSeconds: at("09:55")))
        let loop = board.filter { $0.tripID == "test:LOOP" }
        #expect(loop.map(\.scheduled.epochSeconds) == [at("10:00"), at("10:20")])
        #expect(loop.map { $0.expected?.epochSeconds } == [nil, at("10:25")])
        #expect(loop.map(\.status) == [.departed, .late])
        #expect(loop.map(\.delaySeconds) == [nil, 300])
    }

    @Test("IDs resolved by one message and kept for the next match exactly as a fresh start does")
    func keptIDsMatchLikeAFreshStart() throws {
        let tt = try rulesTimetable()
        // T1: P2 for sequence 1 (another platform of the same station: the sequence's call stands),
        // C for sequence 3 (the sequence disagrees: stop_id decides), a sequence and stop the feed lacks, then D by stop_id alone.
        let first = message([trip("T1", [stu(seq: 1, stop: "P2", delay: 30), stu(seq: 3, stop: "C", delay: 60),
                                         stu(seq: 9, stop: "NOWHERE", delay: 90), stu(stop: "D", delay: 120)]),
                             trip("GHOST", [stu(seq: 1, stop: "A", delay: 10)])])
        // The next poll names the same IDs the other way round: the kept answers must not leak across calls.
        let second = message([trip("T1", [stu(seq: 1, stop: "P1", delay: 40), stu(seq: 3, stop: "B", delay: 70),
                                          stu(stop: "C", delay: 80), stu(seq: 5, stop: "P2", delay: 100)]),
                              trip("GHOST", [stu(seq: 1, stop: "A", delay: 10)])], timestamp: at("07:31"))
        let applier = TripUpdateApplier(timetable: tt)
        var kept = FeedIDs()
        for m in [first, second] {
            let (keptOverlay, keptReport) = applier.apply(RealtimeMessage(m), now: morning, ids: &kept)
            let (freshOverlay, freshReport) = applier.apply(m, now: morning)
            #expect(keptReport == freshReport)
            #expect(departures(try tt.details("T1", overlay: keptOverlay)) == departures(try tt.details("T1", overlay: freshOverlay)))
        }
        // And the answers themselves, for the first message: P1 kept (+30), B carried (+30), C +60 by stop_id, D +120.
        let (overlay, report) = applier.apply(RealtimeMessage(first), now: morning, ids: &kept)
        #expect(report.sequenceStopMismatches == 1)
        #expect(report.unknownStops == 1)
        #expect(report.unknownTrips == 1)
        #expect(departures(try tt.details("T1", overlay: overlay)) == [at("08:00:30"), at("08:10:30"), at("08:20:30"), at("08:31"), at("08:42")])
    }

    // MARK: Propagation

    @Test("a delay propagates to later stops until the next update")
    func propagation() throws {
        let tt = try rulesTimetable()
        // A at 08:13 (absolute time: +180 s), then D +60: B and C carry +180.
        let m = message([trip("T1", [stu(seq: 2, stop: "A", time: at("08:13")), stu(seq: 5, stop: "D", delay: 60)])])
        let (overlay, _) = TripUpdateApplier(timetable: tt).apply(m, now: morning)
        let d = try tt.details("T1", overlay: overlay)
        #expect(departures(d) == [nil, at("08:13"), at("08:23"), at("08:33"), at("08:41")])
        #expect(d.calls.map(\.delaySeconds) == [nil, 180, 180, 180, 60])
        #expect(d.calls.map(\.status) == [.departed, .late, .late, .late, .late])
        // The board at C orders and times T1 by its propagated expected time.
        let board = try tt.live(at: "C", from: "08:00", overlay: overlay)
        let row = try #require(board.first { $0.tripID == "test:T1" })
        #expect(row.expected?.epochSeconds == at("08:33"))
        #expect(row.delaySeconds == 180)
        #expect(row.status == .late)
    }

    @Test("an early update propagates as well")
    func earlyPropagation() throws {
        let tt = try rulesTimetable()
        let m = message([trip("T1", [stu(seq: 3, delay: -120)])])
        let (overlay, _) = TripUpdateApplier(timetable: tt).apply(m, now: morning)
        let d = try tt.details("T1", overlay: overlay)
        #expect(departures(d) == [nil, nil, at("08:18"), at("08:28"), at("08:38")])
        #expect(d.calls[4].status == .early)
    }

    @Test("NO_DATA stops propagation: that stop and the ones after it have no live time")
    func noDataStopsPropagation() throws {
        let tt = try rulesTimetable()
        let m = message([trip("T1", [stu(seq: 2, delay: 180), stu(seq: 3, .noData)])])
        let (overlay, report) = TripUpdateApplier(timetable: tt).apply(m, now: morning)
        #expect(report.noDataStops == 1)
        #expect(report.matchedStopTimeUpdates == 2)
        let d = try tt.details("T1", overlay: overlay)
        #expect(departures(d) == [nil, at("08:13"), nil, nil, nil])
        #expect(d.calls.map(\.status) == [.departed, .late, .noLiveData, .noLiveData, .noLiveData])
        let board = try tt.live(at: "C", from: "08:00", overlay: overlay)
        let row = try #require(board.first { $0.tripID == "test:T1" })
        #expect(row.expected == nil)
        #expect(row.status == .noLiveData)
        #expect(row.scheduled.epochSeconds == at("08:30"))
    }

    @Test("NO_DATA then a later update: propagation resumes from that update")
    func noDataThenUpdate() throws {
        let tt = try rulesTimetable()
        let m = message([trip("T1", [stu(seq: 2, delay: 180), stu(seq: 3, .noData), stu(seq: 5, delay: 30)])])
        let (overlay, _) = TripUpdateApplier(timetable: tt).apply(m, now: morning)
        let d = try tt.details("T1", overlay: overlay)
        #expect(departures(d) == [nil, at("08:13"), nil, nil, at("08:40:30")])
    }

    @Test("SKIPPED is shown as skipped, not hidden, and the delay goes on past it")
    func skipped() throws {
        let tt = try rulesTimetable()
        let m = message([trip("T1", [stu(seq: 2, delay: 120), stu(seq: 3, stop: "B", .skipped)])])
        let (overlay, report) = TripUpdateApplier(timetable: tt).apply(m, now: morning)
        #expect(report.skippedStops == 1)
        let d = try tt.details("T1", overlay: overlay)
        #expect(d.calls.map(\.status) == [.departed, .late, .skipped, .late, .late])
        #expect(d.calls[3].expectedDeparture?.epochSeconds == at("08:32"))
        #expect(d.calls[4].expectedDeparture?.epochSeconds == at("08:42"))
        // The board at B still lists T1, marked skipped at its scheduled time.
        let board = try tt.live(at: "B", from: "08:00", overlay: overlay)
        let row = try #require(board.first { $0.tripID == "test:T1" })
        #expect(row.status == .skipped)
        #expect(row.scheduled.epochSeconds == at("08:20"))
        #expect(row.expected == nil)
    }

    // MARK: Trips

    @Test("a CANCELED trip is shown as cancelled on boards and its service, not hidden")
    func cancelled() throws {
        let tt = try rulesTimetable()
        let m = message([trip("T1", .canceled), trip("T2", [stu(seq: 10, delay: 0)])])
        let (overlay, report) = TripUpdateApplier(timetable: tt).apply(m, now: morning)
        #expect(report.matchedTrips == 2)
        #expect(report.cancelledTrips == 1)
        let board = try tt.live(at: "A", from: "08:00", overlay: overlay)
        #expect(board.map(\.tripID) == ["test:T1", "test:T2"])
        #expect(board.map(\.status) == [.cancelled, .onTime])
        #expect(board[0].scheduled.epochSeconds == at("08:10"))
        #expect(board[0].expected == nil)
        let d = try tt.details("T1", overlay: overlay)
        #expect(d.isCancelled)
        #expect(d.calls.allSatisfy { $0.status == .cancelled })
    }

    @Test("ADDED and NEW trips appear on boards, with times from their updates", arguments: [
        TransitRealtime_TripDescriptor.ScheduleRelationship.added, .new,
    ])
    func addedTrip(_ relationship: TransitRealtime_TripDescriptor.ScheduleRelationship) throws {
        let tt = try rulesTimetable()
        let extra = trip("X1", relationship, [stu(stop: "A", time: at("08:50")), stu(stop: "C", time: at("09:05"))])
        let (overlay, report) = TripUpdateApplier(timetable: tt).apply(message([extra]), now: morning)
        #expect(report.addedTrips == 1)
        #expect(report.unknownTrips == 0)
        #expect(report.matchedStopTimeUpdates == 2)
        let board = try tt.live(at: "A", from: "08:00", overlay: overlay)
        #expect(board.map(\.tripID) == ["test:T1", "test:X1", "test:T2"])
        let row = try #require(board.first { $0.tripID == "test:X1" })
        #expect(row.isAddedTrip)
        #expect(row.scheduled.epochSeconds == at("08:50"))
        #expect(row.expected?.epochSeconds == at("08:50"))
        #expect(row.status == .onTime)
        #expect(row.headsign == "Charlie")
        // Not a departure from its last stop.
        #expect(try tt.live(at: "C", from: "08:00", overlay: overlay).allSatisfy { $0.tripID != "X1" })
    }

    @Test("a frequency-based trip is matched by trip_id + start_time + start_date")
    func frequencyTrip() throws {
        let tt = try rulesTimetable()
        let m = message([trip("F1", startTime: "06:20:00", [stu(seq: 1, delay: 120)])], timestamp: at("06:00"))
        let (overlay, report) = TripUpdateApplier(timetable: tt).apply(m, now: Instant(epochSeconds: at("06:00")))
        #expect(report.matchedTrips == 1)
        #expect(report.unmatchedInstances == 0)
        let board = try tt.live(at: "A", from: "06:00", window: 3000, overlay: overlay, now: Instant(epochSeconds: at("06:00")))
        let runs = board.filter { $0.tripID == "test:F1" }
        #expect(runs.map(\.scheduled.epochSeconds) == [at("06:00"), at("06:10"), at("06:20"), at("06:30"), at("06:40"), at("06:50")])
        // Only the 06:20 run is late; the others have no live data.
        #expect(runs.map(\.status) == [.noLiveData, .noLiveData, .late, .noLiveData, .noLiveData, .noLiveData])
        #expect(runs[2].expected?.epochSeconds == at("06:22"))
        #expect(runs[2].delaySeconds == 120)
        // The service of that run, by its start time, carries the delay to B.
        let d = try tt.details("F1", startTime: 6 * 3600 + 20 * 60, overlay: overlay, now: Instant(epochSeconds: at("06:00")))
        #expect(departures(d) == [at("06:22"), at("06:27")])
    }

    @Test("a frequency-based trip without a start_time, or one outside its runs, is not matched (and counted)", arguments: [
        String?.none, "07:30:00", "05:50:00",
    ])
    func frequencyTripUnmatched(_ startTime: String?) throws {
        let tt = try rulesTimetable()
        let m = message([trip("F1", startTime: startTime, [stu(seq: 1, delay: 120)])], timestamp: at("06:00"))
        let (overlay, report) = TripUpdateApplier(timetable: tt).apply(m, now: Instant(epochSeconds: at("06:00")))
        #expect(report.matchedTrips == 0)
        #expect(report.unmatchedInstances == 1)
        #expect(overlay.trips.isEmpty)
    }

    @Test("the same frequency trip on another start_date is another instance")
    func frequencyTripOtherDate() throws {
        let tt = try rulesTimetable()
        let m = message([trip("F1", startDate: "20250603", startTime: "06:20:00", [stu(seq: 1, delay: 120)])], timestamp: at("06:00"))
        let (overlay, report) = TripUpdateApplier(timetable: tt).apply(m, now: Instant(epochSeconds: at("06:00")))
        #expect(report.matchedTrips == 1)
        let board = try tt.live(at: "A", from: "06:00", window: 3000, overlay: overlay, now: Instant(epochSeconds: at("06:00")))
        #expect(board.filter { $0.tripID == "test:F1" }.allSatisfy { $0.status == .noLiveData })
    }

    // MARK: Platforms

    @Test("assigned_stop_id moves the call to the new platform on the station's board and in the service")
    func assignedStop() throws {
        let tt = try rulesTimetable()
        let m = message([trip("T1", [stu(seq: 1, stop: "P1", delay: 60, assigned: "P2")])])
        let (overlay, report) = TripUpdateApplier(timetable: tt).apply(m, now: morning)
        #expect(report.platformChanges == 1)
        let board = try tt.live(at: "STN", from: "07:45", window: 1800, overlay: overlay)
        let row = try #require(board.first { $0.tripID == "test:T1" })
        #expect(row.stopID == "test:P2")
        #expect(row.platform == "2")
        #expect(row.platformChanged)
        #expect(row.expected?.epochSeconds == at("08:01"))
        let d = try tt.details("T1", overlay: overlay)
        #expect(d.calls[0].stopID == "test:P2")
        #expect(d.calls[0].platform == "2")
        #expect(d.calls[0].platformChanged)
        #expect(d.calls[1...].allSatisfy { !$0.platformChanged })
        // T2 keeps its platform.
        let t2 = try #require(try tt.live(at: "STN", from: "08:45", window: 1800, overlay: overlay).first { $0.tripID == "test:T2" })
        #expect(t2.stopID == "test:P1")
        #expect(!t2.platformChanged)
    }

    @Test("assigned_stop_id: the new platform's own board lists the call and the old platform's does not")
    func assignedStopPlatformBoards() throws {
        let tt = try rulesTimetable()
        let m = message([trip("T1", [stu(seq: 1, stop: "P1", delay: 60, assigned: "P2")])])
        let (overlay, _) = TripUpdateApplier(timetable: tt).apply(m, now: morning)
        let p2 = try tt.live(at: "P2", from: "07:45", window: 1800, overlay: overlay)
        #expect(p2.map(\.tripID) == ["test:T1"])
        #expect(p2.first?.platformChanged == true)
        let p1 = try tt.live(at: "P1", from: "07:45", window: 1800, overlay: overlay)
        #expect(!p1.contains { $0.tripID == "test:T1" })
    }

    @Test("an assigned_stop_id the static feed lacks is counted as an unknown stop and moves nothing")
    func assignedStopUnknown() throws {
        let tt = try rulesTimetable()
        let m = message([trip("T1", [stu(seq: 1, stop: "P1", delay: 0, assigned: "P9")])])
        let (overlay, report) = TripUpdateApplier(timetable: tt).apply(m, now: morning)
        #expect(report.platformChanges == 0)
        #expect(report.unknownStops == 1)
        #expect(report.unknownStopExamples == ["test:P9"])
        let d = try tt.details("T1", overlay: overlay)
        #expect(d.calls[0].stopID == "test:P1")
        #expect(!d.calls[0].platformChanged)
    }

    // MARK: Feeds over time

    @Test("a FULL_DATASET feed replaces the previous one: a trip missing from it loses its realtime data")
    func fullDatasetReplaces() throws {
        let tt = try rulesTimetable()
        let applier = TripUpdateApplier(timetable: tt)
        let first = message([trip("T1", [stu(seq: 1, delay: 240)]), trip("T2", [stu(seq: 10, delay: 30)]),
                             trip("X1", .added, [stu(stop: "A", time: at("08:50")), stu(stop: "C", time: at("09:05"))])],
                            timestamp: at("07:30"))
        let (o1, _) = applier.apply(first, now: morning)
        #expect(try tt.live(at: "A", from: "08:00", overlay: o1).map(\.tripID) == ["test:T1", "test:X1", "test:T2"])
        #expect(try tt.live(at: "A", from: "08:00", overlay: o1).map(\.status) == [.late, .onTime, .onTime])
        let second = message([trip("T2", [stu(seq: 10, delay: 120)])], timestamp: at("07:31"))
        let (o2, report) = applier.apply(second, to: o1, now: morning)
        #expect(report.ignoredBecause == nil)
        #expect(o2.added.isEmpty)
        let board = try tt.live(at: "A", from: "08:00", overlay: o2)
        #expect(board.map(\.tripID) == ["test:T1", "test:T2"])
        #expect(board.map(\.status) == [.noLiveData, .late])
        #expect(board.map { $0.expected?.epochSeconds } == [nil, at("09:12")])
        #expect(o2.tripUpdatesTimestamp?.epochSeconds == at("07:31"))
    }

    @Test("a DIFFERENTIAL feed updates the trips it names and keeps the others")
    func differentialKeeps() throws {
        let tt = try rulesTimetable()
        let applier = TripUpdateApplier(timetable: tt)
        let (o1, _) = applier.apply(message([trip("T1", [stu(seq: 1, delay: 240)]), trip("T2", [stu(seq: 10, delay: 60)])]), now: morning)
        let (o2, _) = applier.apply(message([trip("T2", [stu(seq: 10, delay: 120)])], timestamp: at("07:31"), incrementality: .differential),
                                    to: o1, now: morning)
        let board = try tt.live(at: "A", from: "08:00", overlay: o2)
        #expect(board.map { $0.expected?.epochSeconds } == [at("08:14"), at("09:12")])
    }

    @Test("updates for unknown trips or stops are counted and reported, never fatal")
    func unknownTripsAndStops() throws {
        let tt = try rulesTimetable()
        let m = message([
            trip("NOPE", [stu(seq: 1, delay: 60)]),
            trip("T1", [stu(seq: 2, delay: 60), stu(stop: "ZZZ", delay: 90), stu(seq: 77, delay: 90), stu(seq: 4, delay: 120)]),
            // An ADDED trip with a single known stop cannot be placed.
            trip("X2", .added, [stu(stop: "A", time: at("08:50")), stu(stop: "QQQ", time: at("09:00"))]),
        ])
        let (overlay, report) = TripUpdateApplier(timetable: tt).apply(m, now: morning)
        #expect(report.tripUpdates == 3)
        #expect(report.matchedTrips == 1)
        #expect(report.unknownTrips == 2)
        #expect(report.unknownTripExamples == ["test:NOPE", "test:X2"])
        #expect(report.stopTimeUpdates == 7)
        // ZZZ, stop_sequence 77 (no stop_id) and QQQ.
        #expect(report.unknownStops == 3)
        #expect(report.unknownStopExamples == ["test:ZZZ", "stop_sequence 77", "test:QQQ"])
        #expect(report.matchedStopTimeUpdates == 3)
        #expect(report.addedTrips == 0)
        // T1 is still applied around the unknown updates.
        let d = try tt.details("T1", overlay: overlay)
        #expect(departures(d) == [nil, at("08:11"), at("08:21"), at("08:32"), at("08:42")])
    }

    @Test("a feed whose header timestamp goes backwards is ignored")
    func timestampBackwards() throws {
        let tt = try rulesTimetable()
        let applier = TripUpdateApplier(timetable: tt)
        let (o1, _) = applier.apply(message([trip("T1", [stu(seq: 1, delay: 240)])], timestamp: at("07:30")), now: morning)
        let (o2, report) = applier.apply(message([trip("T1", [stu(seq: 1, delay: 600)])], timestamp: at("07:29:59")), to: o1, now: morning)
        #expect(report.ignoredBecause != nil)
        #expect(report.matchedTrips == 0)
        #expect(o2.tripUpdatesTimestamp?.epochSeconds == at("07:30"))
        #expect(try tt.details("T1", overlay: o2).calls[0].expectedDeparture?.epochSeconds == at("08:04"))
        // A newer one is applied.
        let (o3, r3) = applier.apply(message([trip("T1", [stu(seq: 1, delay: 600)])], timestamp: at("07:30:01")), to: o2, now: morning)
        #expect(r3.ignoredBecause == nil)
        #expect(try tt.details("T1", overlay: o3).calls[0].expectedDeparture?.epochSeconds == at("08:10"))
    }

    @Test("data older than the configurable age (default 120 s past its timestamp) is stale but still shown as last known")
    func stale() throws {
        let tt = try rulesTimetable()
        let (overlay, _) = TripUpdateApplier(timetable: tt).apply(message([trip("T1", [stu(seq: 2, delay: 300)])], timestamp: at("07:30")),
                                                                  now: morning)
        #expect(!overlay.isStale(now: Instant(epochSeconds: at("07:32"))))
        #expect(overlay.isStale(now: Instant(epochSeconds: at("07:32:01"))))
        #expect(!overlay.isStale(now: Instant(epochSeconds: at("07:35")), maxAge: 300))
        #expect(overlay.isStale(now: Instant(epochSeconds: at("07:30:31")), maxAge: 30))
        // Stale data is still on the board, as last known.
        let later = Instant(epochSeconds: at("07:50"))
        let row = try #require(try tt.live(at: "A", from: "08:00", overlay: overlay, now: later).first { $0.tripID == "test:T1" })
        #expect(row.expected?.epochSeconds == at("08:15"))
        #expect(row.status == .late)
    }

    @Test("a feed without a header timestamp is dated by the time it was applied")
    func noTimestamp() throws {
        let tt = try rulesTimetable()
        let (overlay, _) = TripUpdateApplier(timetable: tt).apply(message([trip("T1", [stu(seq: 2, delay: 300)])], timestamp: nil), now: morning)
        #expect(overlay.tripUpdatesTimestamp == morning)
        #expect(overlay.isStale(now: morning.adding(seconds: 121)))
    }

    // MARK: Vehicle positions

    @Test("a vehicle position is attached to its trip instance; an unknown trip is counted")
    func vehiclePosition() throws {
        let tt = try rulesTimetable()
        var m = TransitRealtime_FeedMessage()
        m.header.gtfsRealtimeVersion = "2.0"
        m.header.timestamp = UInt64(at("08:15"))
        for (i, id) in ["T1", "GHOST"].enumerated() {
            var v = TransitRealtime_VehiclePosition()
            v.trip.tripID = id
            v.trip.startDate = "20250602"
            v.vehicle.id = "bus-\(i)"
            v.vehicle.label = "Bus \(i)"
            v.position.latitude = 40.025
            v.position.longitude = -74.0
            v.currentStopSequence = 3
            v.currentStatus = .incomingAt
            v.timestamp = UInt64(at("08:14:50"))
            var e = TransitRealtime_FeedEntity()
            e.id = "v\(i)"
            e.vehicle = v
            m.entity.append(e)
        }
        let (overlay, report) = VehiclePositionApplier(timetable: tt).apply(m, now: Instant(epochSeconds: at("08:15")))
        #expect(report.vehiclePositions == 2)
        #expect(report.matchedVehicles == 1)
        #expect(report.unknownVehicleTrips == 1)
        #expect(report.unknownTripExamples == ["test:GHOST"])
        let d = try tt.details("T1", overlay: overlay)
        let v = try #require(d.vehicle)
        #expect(v.vehicleID == "bus-0")
        #expect(v.label == "Bus 0")
        #expect(v.callIndex == 2)
        #expect(v.stopID == "test:B")
        #expect(v.stopStatus == .incomingAt)
        #expect(v.reportedAt?.epochSeconds == at("08:14:50"))
    }
}
