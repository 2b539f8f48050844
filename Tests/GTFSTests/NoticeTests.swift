import GTFS
import OnwardCore
import OnwardTesting
import Testing
import Timetable

/// Problems confined to one trip: the import succeeds, the trip is skipped and
/// a notice names the kind and the row.
@Suite("Row-level notices")
struct NoticeTests {
    static let trips = """
        route_id,service_id,trip_id
        R1,WK,T1
        R1,WK,T2
        R1,WK,T3
        R1,WK,T4
        R1,WK,T5
        R1,WK,T6
        R1,WK,T7
        R1,WK,T8
        R1,WK,T9
        """

    /// T1 is good; every other trip has one problem. Physical lines in comments.
    static let stopTimes = """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        T1,08:00:00,08:00:00,S1,1
        T1,08:10:00,08:10:00,S2,2
        T1,08:20:00,08:20:00,S3,3
        T2,09:00:00,09:00:00,S1,1
        T3,10:00:00,10:00:00,S1,1
        T3,09:50:00,09:50:00,S2,2
        T3,10:20:00,10:20:00,S3,3
        T5,,,S1,1
        T5,11:10:00,11:10:00,S2,2
        T6,12:00:00,12:00:00,S3,5
        T7,13:00:00,13:00:00,S1,1
        T7,,,S2,2
        T8,14:00:00,14:00:00,S1,1
        T8,14:10:00,14:05:00,S2,2
        T9,15:00:00,15:00:00,S2,7
        """
    // Lines: T1 2–4, T2 5, T3 6–8 (back in time on 7), T4 none, T5 9–10 (blank first),
    // T6 11, T7 12–13 (blank last), T8 14–15 (departs before it arrives on 15), T9 16.

    static func load() throws -> GTFSImporter.Result {
        try InlineFeed.load(BaseFeed.with(["trips.txt": trips, "stop_times.txt": stopTimes]))
    }

    @Test func eachProblemTripGivesOneNoticeWithItsLocation() throws {
        let result = try Self.load()
        let got = result.notices.map { "\($0.kind) \($0.location)" }
        #expect(got == [
            "tripTooShort stop_times.txt:5 (trip_id)",
            "timeTravel stop_times.txt:7 (arrival_time)",
            "tripWithoutStopTimes trips.txt:5 (trip_id)",
            "missingEndpointTime stop_times.txt:9 (arrival_time)",
            "tripTooShort stop_times.txt:11 (trip_id)",
            "missingEndpointTime stop_times.txt:13 (arrival_time)",
            "timeTravel stop_times.txt:15 (arrival_time)",
            "tripTooShort stop_times.txt:16 (trip_id)",
        ])
        // Each message names its trip.
        let trips = ["T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9"]
        for (notice, trip) in zip(result.notices, trips) {
            #expect(notice.message.contains("'test:\(trip)'"), "\(notice.message)")
        }
        #expect(result.notices[1].message.contains("stop_sequence 2"))
    }

    @Test func tripTooShort() throws {
        let notice = try #require(try Self.load().notices.first { $0.message.contains("\'test:T2\'") })
        #expect(notice.kind == "tripTooShort")
        #expect(notice.location == FeedLocation(file: "stop_times.txt", line: 5, field: "trip_id"))
    }

    @Test func timeTravel() throws {
        let notice = try #require(try Self.load().notices.first { $0.message.contains("\'test:T3\'") })
        #expect(notice.kind == "timeTravel")
        #expect(notice.location == FeedLocation(file: "stop_times.txt", line: 7, field: "arrival_time"))
    }

    @Test func tripWithoutStopTimes() throws {
        let notice = try #require(try Self.load().notices.first { $0.message.contains("\'test:T4\'") })
        #expect(notice.kind == "tripWithoutStopTimes")
        #expect(notice.location.file == "trips.txt")
        #expect(notice.location.field == "trip_id")
    }

    @Test func missingEndpointTime() throws {
        let notices = try Self.load().notices
        let first = try #require(notices.first { $0.message.contains("\'test:T5\'") })
        #expect(first.kind == "missingEndpointTime")
        #expect(first.location == FeedLocation(file: "stop_times.txt", line: 9, field: "arrival_time"))
        let last = try #require(notices.first { $0.message.contains("\'test:T7\'") })
        #expect(last.kind == "missingEndpointTime")
        #expect(last.location.line == 13)
    }

    @Test func skippedTripsThrowSkippedAtImportAndGoodTripsRemain() throws {
        let tt = try Self.load().timetable
        #expect(tt.tripCount == 9)
        #expect(tt.stopTimeCount == 3)
        for id in ["T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9"] {
            let trip = try #require(tt.trip(id: id))
            #expect(throws: ServiceLookupError.skippedAtImport("test:" + id)) { try tt.service(trip, on: monday) }
        }
        #expect(try calls(tt, "T1").map(\.arrival) == ["08:00:00", "08:10:00", "08:20:00"])
    }

    @Test func noticeSummaryCountsPerKind() throws {
        let summary = NoticeSummary(try Self.load().notices)
        #expect(summary.total == 8)
        #expect(summary.groups.map(\.kind) == ["tripTooShort", "missingEndpointTime", "timeTravel", "tripWithoutStopTimes"])
        #expect(summary.groups.map(\.count) == [3, 2, 2, 1])
        #expect(summary.groups[0].examples.map(\.location.line) == [5, 11, 16])
    }

    @Test func noticeSummaryKeepsOnlyTheFirstExamples() throws {
        let summary = NoticeSummary(try Self.load().notices, examplesPerKind: 1)
        #expect(summary.groups.map(\.examples.count) == [1, 1, 1, 1])
        #expect(summary.groups[0].examples[0].location.line == 5)
        #expect(summary.groups[0].count == 3)
    }

    @Test func emptyNoticeSummary() {
        let summary = NoticeSummary([])
        #expect(summary.total == 0)
        #expect(summary.groups.isEmpty)
    }

    @Test func equalConsecutiveTimesAreNotTimeTravel() throws {
        let result = try InlineFeed.load(BaseFeed.with([
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T1,08:00:00,08:00:00,S1,1
                T1,08:00:00,08:00:00,S2,2
                T1,08:00:00,08:01:00,S3,3
                T2,09:00:00,09:00:00,S1,1
                T2,09:10:00,09:10:00,S2,2
                """,
        ]))
        #expect(result.notices.isEmpty)
        #expect(try calls(result.timetable, "T1").map(\.departure) == ["08:00:00", "08:00:00", "08:01:00"])
    }

    @Test func timeTravelFoundAfterSortingBySequence() throws {
        // In file order the times rise; sorted by stop_sequence, S3 (seq 2) comes before S2 (seq 3) and goes back.
        let result = try InlineFeed.load(BaseFeed.with([
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T1,08:00:00,08:00:00,S1,1
                T1,08:10:00,08:10:00,S2,3
                T1,08:20:00,08:20:00,S3,2
                T2,09:00:00,09:00:00,S1,1
                T2,09:10:00,09:10:00,S2,2
                """,
        ]))
        #expect(result.notices.map(\.kind) == ["timeTravel"])
        #expect(result.notices.first?.location.line == 3)
        #expect(try calls(result.timetable, "T2").count == 2)
    }
}
