import Foundation
import GTFS
import OnwardCore
import OnwardTesting
import Testing
import Timetable

/// Feeds as they really are: byte-order marks, CRLF, odd column orders,
/// unsorted stop_times, gaps in sequences, late-night times.
@Suite("Import of real-world-shaped feeds")
struct ImportTests {
    @Test func baseFeedLoads() throws {
        let result = try InlineFeed.load(BaseFeed.files)
        let tt = result.timetable
        #expect(result.notices.isEmpty)
        #expect(tt.stopCount == 3)
        #expect(tt.tripCount == 2)
        #expect(tt.stopTimeCount == 6)
        #expect(result.rowCounts["stops.txt"] == 3)
        #expect(result.rowCounts["trips.txt"] == 2)
        #expect(result.rowCounts["stop_times.txt"] == 6)
        #expect(result.rowCounts["routes.txt"] == 1)
        #expect(result.rowCounts["calendar.txt"] == 1)
        #expect(result.rowCounts["agency.txt"] == 1)
        #expect(try calls(tt, "T1") == [
            Call(stop: "test:S1", sequence: 1, arrival: "08:00:00", departure: "08:00:00"),
            Call(stop: "test:S2", sequence: 2, arrival: "08:10:00", departure: "08:11:00"),
            Call(stop: "test:S3", sequence: 3, arrival: "08:20:00", departure: "08:20:00"),
        ])
    }

    @Test func byteOrderMarkAndCRLFInEveryFile() throws {
        func dos(_ s: String) -> String { "\u{FEFF}" + s.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n" }
        var files = BaseFeed.files.mapValues(dos)
        files["agency.txt"] = dos(defaultAgency.trimmingCharacters(in: .newlines))
        #expect(files["stops.txt"]!.utf8.starts(with: [0xEF, 0xBB, 0xBF, 0x73]))
        let result = try GTFSImporter.load([InMemoryGTFSSource(name: "dos", files: files)])
        let tt = result.timetable
        #expect(result.rowCounts["stops.txt"] == 3)
        let s1 = try #require(tt.stop(id: "S1"))
        let place = tt.place(s1)
        #expect(place.name == "One")
        #expect(place.longitude == -74.0)
        #expect(tt.stop(id: "S3") != nil)
        #expect(try calls(tt, "T2").map(\.departure) == ["09:00:00", "09:10:00", "09:20:00"])
        #expect(tt.timeZoneIdentifier(of: s1) == "America/New_York")
    }

    @Test func columnsInAnyOrderWithUnknownExtraColumns() throws {
        let result = try InlineFeed.load(BaseFeed.with([
            "stops.txt": """
                zone_id,stop_lon,stop_name,wheelchair_boarding,stop_id,stop_lat,my_extra
                Z,-74.0,One,1,S1,40.0,x
                Z,-74.1,Two,0,S2,40.1,y
                Z,-74.2,Three,,S3,40.2,
                """,
            "trips.txt": """
                shape_id,trip_id,service_id,route_id,bikes_allowed
                SH,T1,WK,R1,1
                SH,T2,WK,R1,1
                """,
            "stop_times.txt": """
                stop_sequence,stop_id,departure_time,arrival_time,trip_id,fare_zone
                1,S1,08:00:00,08:00:00,T1,a
                2,S2,08:11:00,08:10:00,T1,b
                3,S3,08:20:00,08:20:00,T1,c
                1,S1,09:00:00,09:00:00,T2,a
                2,S2,09:10:00,09:10:00,T2,b
                """,
        ]))
        let tt = result.timetable
        let s2 = tt.place(try #require(tt.stop(id: "S2")))
        #expect(s2.name == "Two")
        #expect(s2.latitude == 40.1)
        #expect(s2.longitude == -74.1)
        #expect(try calls(tt, "T1") == [
            Call(stop: "test:S1", sequence: 1, arrival: "08:00:00", departure: "08:00:00"),
            Call(stop: "test:S2", sequence: 2, arrival: "08:10:00", departure: "08:11:00"),
            Call(stop: "test:S3", sequence: 3, arrival: "08:20:00", departure: "08:20:00"),
        ])
        #expect(try calls(tt, "T2").map(\.stop) == ["test:S1", "test:S2"])
    }

    @Test func headerNamesAreMatchedIgnoringCaseAndSpaces() throws {
        let result = try InlineFeed.load(BaseFeed.with([
            "stops.txt": """
                Stop_ID , STOP_NAME,stop_lat,stop_lon
                S1,One,40.0,-74.0
                S2,Two,40.1,-74.1
                S3,Three,40.2,-74.2
                """,
        ]))
        #expect(result.timetable.place(try #require(result.timetable.stop(id: "S3"))).name == "Three")
    }

    @Test func stopTimesInterleavedAndShuffledComeOutSortedBySequence() throws {
        let result = try InlineFeed.load(BaseFeed.with([
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T2,09:20:00,09:20:00,S3,3
                T1,08:10:00,08:11:00,S2,2
                T2,09:00:00,09:00:00,S1,1
                T1,08:20:00,08:20:00,S3,3
                T2,09:10:00,09:10:00,S2,2
                T1,08:00:00,08:00:00,S1,1
                """,
        ]))
        #expect(result.notices.isEmpty)
        let tt = result.timetable
        #expect(try calls(tt, "T1") == [
            Call(stop: "test:S1", sequence: 1, arrival: "08:00:00", departure: "08:00:00"),
            Call(stop: "test:S2", sequence: 2, arrival: "08:10:00", departure: "08:11:00"),
            Call(stop: "test:S3", sequence: 3, arrival: "08:20:00", departure: "08:20:00"),
        ])
        #expect(try calls(tt, "T2").map(\.stop) == ["test:S1", "test:S2", "test:S3"])
        #expect(try calls(tt, "T2").map(\.arrival) == ["09:00:00", "09:10:00", "09:20:00"])
    }

    @Test func stopSequenceWithGaps() throws {
        let tt = try InlineFeed.load(BaseFeed.with([
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T1,08:20:00,08:20:00,S3,10
                T1,08:00:00,08:00:00,S1,1
                T1,08:10:00,08:10:00,S2,5
                T2,09:00:00,09:00:00,S1,0
                T2,09:10:00,09:10:00,S3,4294967295
                """,
        ])).timetable
        #expect(try calls(tt, "T1").map(\.sequence) == [1, 5, 10])
        #expect(try calls(tt, "T1").map(\.stop) == ["test:S1", "test:S2", "test:S3"])
        #expect(try calls(tt, "T2").map(\.sequence) == [0, 4_294_967_295])
    }

    @Test func singleDigitHoursAndTimesPastMidnight() throws {
        let tt = try InlineFeed.load(BaseFeed.with([
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T1,8:05:00,8:05:30,S1,1
                T1, 9:00:00 ,9:01:00,S2,2
                T1,10:00:00,10:00:00,S3,3
                T2,23:50:00,23:55:00,S1,1
                T2,24:00:00,24:00:00,S2,2
                T2,25:10:05,25:10:05,S3,3
                """,
        ])).timetable
        #expect(try calls(tt, "T1") == [
            Call(stop: "test:S1", sequence: 1, arrival: "08:05:00", departure: "08:05:30"),
            Call(stop: "test:S2", sequence: 2, arrival: "09:00:00", departure: "09:01:00"),
            Call(stop: "test:S3", sequence: 3, arrival: "10:00:00", departure: "10:00:00"),
        ])
        let trip = try #require(tt.trip(id: "T2"))
        let details = try tt.service(trip, on: monday)
        let last = LocalTime(details.calls[2].scheduledArrival, in: newYork)
        #expect(last.hhmmss == "01:10:05")
        #expect(last.date == ServiceDate(iso: "2025-01-07"))
        let midnight = LocalTime(details.calls[1].scheduledArrival, in: newYork)
        #expect(midnight.hhmmss == "00:00:00")
        #expect(midnight.date == ServiceDate(iso: "2025-01-07"))
        #expect(details.calls[2].scheduledArrival.epochSeconds - details.calls[0].scheduledDeparture.epochSeconds == 4_505)
    }

    @Test func onlyCalendarDatesWithoutCalendar() throws {
        let result = try InlineFeed.load(BaseFeed.with([
            "calendar_dates.txt": """
                service_id,date,exception_type
                WK,20250106,1
                WK,20250108,1
                """,
        ], removing: ["calendar.txt"]))
        let tt = result.timetable
        #expect(result.rowCounts["calendar_dates.txt"] == 2)
        #expect(result.rowCounts["calendar.txt"] == nil)
        let t1 = try #require(tt.trip(id: "T1"))
        #expect(tt.runs(t1, on: monday))
        #expect(!tt.runs(t1, on: ServiceDate(iso: "2025-01-07")!))
        #expect(tt.runs(t1, on: ServiceDate(iso: "2025-01-08")!))
        #expect(tt.serviceDates(of: t1) == [monday, ServiceDate(iso: "2025-01-08")!])
        #expect(try calls(tt, "T1").count == 3)
        #expect(throws: ServiceLookupError.self) { try tt.service(t1, on: ServiceDate(iso: "2025-01-07")!) }
    }

    @Test func calendarDatesRemoveAndAddDays() throws {
        let tt = try InlineFeed.load(BaseFeed.with([
            "calendar_dates.txt": """
                service_id,date,exception_type
                WK,20250106,2
                WK,20250111,1
                """,
        ])).timetable
        let t1 = try #require(tt.trip(id: "T1"))
        #expect(!tt.runs(t1, on: monday))
        #expect(tt.runs(t1, on: ServiceDate(iso: "2025-01-07")!))
        #expect(tt.runs(t1, on: ServiceDate(iso: "2025-01-11")!)) // a Saturday, added
        #expect(!tt.runs(t1, on: ServiceDate(iso: "2025-01-12")!))
    }

    @Test func optionalFilesMayBeAbsent() throws {
        // No feed_info, shapes, frequencies or transfers: only the required files plus calendar.
        let result = try InlineFeed.load(BaseFeed.files)
        #expect(Set(result.rowCounts.keys) == ["agency.txt", "stops.txt", "routes.txt", "calendar.txt", "trips.txt", "stop_times.txt"])
    }

    @Test func stopTimesWithOnlyDepartureTimeColumn() throws {
        let tt = try InlineFeed.load(BaseFeed.with([
            "stop_times.txt": """
                trip_id,departure_time,stop_id,stop_sequence
                T1,08:00:00,S1,1
                T1,08:10:00,S2,2
                T2,09:00:00,S1,1
                T2,09:10:00,S3,2
                """,
        ])).timetable
        #expect(try calls(tt, "T1") == [
            Call(stop: "test:S1", sequence: 1, arrival: "08:00:00", departure: "08:00:00"),
            Call(stop: "test:S2", sequence: 2, arrival: "08:10:00", departure: "08:10:00"),
        ])
    }

    @Test func quotedFieldsWithCommasAndNewlinesInStopNames() throws {
        let result = try InlineFeed.load(BaseFeed.with([
            "stops.txt": """
                stop_id,stop_name,stop_lat,stop_lon
                S1,"Main St, ""North"" Side",40.0,-74.0
                S2,"Two
                Lines",40.1,-74.1
                S3,Three,40.2,-74.2
                """,
        ]))
        let tt = result.timetable
        #expect(tt.place(try #require(tt.stop(id: "S1"))).name == "Main St, \"North\" Side")
        #expect(tt.place(try #require(tt.stop(id: "S2"))).name == "Two\nLines")
        #expect(tt.place(try #require(tt.stop(id: "S3"))).name == "Three")
        #expect(result.rowCounts["stops.txt"] == 3)
    }

    @Test func quotedAgencyWithPaddingAfterTheClosingQuote() throws {
        // As WMATA writes it: every field quoted, a space after the last one, no BOM.
        let result = try InlineFeed.load(BaseFeed.with([
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone,agency_lang\n"
                + "\"A\",\"WMATA\",\"http://www.wmata.com\",\"America/Chicago\",\"en\" \n",
        ]))
        let s1 = try #require(result.timetable.stop(id: "S1"))
        #expect(result.timetable.timeZoneIdentifier(of: s1) == "America/Chicago")
        #expect(result.rowCounts["agency.txt"] == 1)
    }

    @Test func pickupDropOffAndHeadsignsAreKept() throws {
        let tt = try InlineFeed.load(BaseFeed.with([
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,drop_off_type,stop_headsign
                T1,08:00:00,08:00:00,S1,1,0,1,Downtown
                T1,08:10:00,08:10:00,S2,2,2,3,
                T1,08:20:00,08:20:00,S3,3,1,0,
                T2,09:00:00,09:00:00,S1,1,,,
                T2,09:10:00,09:10:00,S2,2,,,
                """,
        ])).timetable
        let details = try tt.service(try #require(tt.trip(id: "T1")), on: monday)
        #expect(details.calls.map(\.pickup) == [.regular, .phoneAgency, BoardingRule.none])
        #expect(details.calls.map(\.dropOff) == [BoardingRule.none, .coordinateWithDriver, .regular])
        #expect(details.calls.map(\.stopHeadsign) == ["Downtown", nil, nil])
        let t2 = try tt.service(try #require(tt.trip(id: "T2")), on: monday)
        #expect(t2.calls.map(\.pickup) == [.regular, .regular])
    }

    @Test func directoryAndZipSourcesOpen() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gtfs-dir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var files = BaseFeed.files
        files["agency.txt"] = defaultAgency
        for (name, content) in files {
            try Data((content + "\n").utf8).write(to: dir.appendingPathComponent(name))
        }
        let source = try openGTFSSource(dir)
        #expect(source is DirectoryGTFSSource)
        #expect(source.name == dir.lastPathComponent)
        #expect(source.contains("stops.txt"))
        #expect(!source.contains("shapes.txt"))
        #expect(source.size(of: "routes.txt") == BaseFeed.routes.utf8.count + 1)
        let result = try GTFSImporter.load(paths: [dir])
        #expect(result.rowCounts["stop_times.txt"] == 6)
        #expect(result.timetable.trip(id: "T2") != nil)
    }

    @Test func missingPathIsUnreadable() throws {
        let url = URL(fileURLWithPath: "/nonexistent/feed-\(UUID().uuidString).zip")
        let error = try #require(throws: FeedError.self) { try openGTFSSource(url) }
        #expect(error.code == "unreadable")
        #expect(error.location.file == url.path)
    }

    @Test func aFileThatIsNotAZipIsUnreadable() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-zip-\(UUID().uuidString).zip")
        try Data("stop_id\nS1\n".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let error = try #require(throws: FeedError.self) { try GTFSImporter.load(paths: [url]) }
        #expect(error.code == "unreadable")
        #expect(error.location.file == url.path)
    }

    @Test func progressReachesTheEndOfEachReportedFile() throws {
        var reports: [GTFSImporter.Progress] = []
        let source = InlineFeed.source(BaseFeed.files)
        _ = try GTFSImporter.load([source]) { reports.append($0) }
        let last = try #require(reports.last { $0.file == "stop_times.txt" })
        #expect(last.feed == "test")
        #expect(last.bytesRead == source.size(of: "stop_times.txt"))
        #expect(last.totalBytes == last.bytesRead)
    }
}
