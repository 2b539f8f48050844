import Foundation
import GTFS
import OnwardCore
import OnwardTesting
import Testing
import Timetable

/// Feeds loaded alone or side by side: every ID is prefixed with the feed's name.
@Suite("Several feeds side by side")
struct MultiFeedTests {
    static func source(_ name: String, _ replaced: [String: String] = [:], timeZone: String = "America/New_York") -> InMemoryGTFSSource {
        InlineFeed.source(name: name, timeZone: timeZone, BaseFeed.with(replaced))
    }

    @Test func sameIDsInTwoFeedsDoNotClash() throws {
        let result = try GTFSImporter.load([Self.source("a"), Self.source("b", timeZone: "America/Chicago")])
        let tt = result.timetable
        #expect(result.notices.isEmpty)
        #expect(tt.stopCount == 6)
        #expect(tt.tripCount == 4)
        #expect(tt.stopTimeCount == 12)
        #expect(result.rowCounts["stops.txt"] == 6)
        #expect(result.rowCounts["stop_times.txt"] == 12)
        #expect(result.rowCounts["agency.txt"] == 2)
        for id in ["a:S1", "a:S2", "a:S3", "b:S1", "b:S2", "b:S3"] { #expect(tt.stop(id: id) != nil, "\(id)") }
        #expect(tt.stop(id: "S1") == nil)
        #expect(tt.trip(id: "T1") == nil)
        #expect(tt.stop(id: "a:S1") != tt.stop(id: "b:S1"))
        #expect(try calls(tt, "a:T1").map(\.stop) == ["a:S1", "a:S2", "a:S3"])
        #expect(try calls(tt, "a:T1").first?.departure == "08:00:00")
        // Feed b runs in Chicago: its 08:00 is 09:00 in New York.
        #expect(try calls(tt, "b:T1", zone: TimeZone(identifier: "America/Chicago")!).first?.departure == "08:00:00")
        #expect(try calls(tt, "b:T1").first?.departure == "09:00:00")
        let b1 = try #require(tt.stop(id: "b:S1"))
        #expect(tt.timeZoneIdentifier(of: b1) == "America/Chicago")
        #expect(tt.place(b1).name == "One")
    }

    @Test func oneFeedIsPrefixedToo() throws {
        let tt = try GTFSImporter.load([Self.source("a")]).timetable
        #expect(tt.feeds.map(\.name) == ["a"])
        #expect(tt.stop(id: "a:S1") != nil)
        // Unprefixed IDs are accepted on input when one feed has them, and resolve to the same stop.
        #expect(tt.stop(id: "S1") == tt.stop(id: "a:S1"))
        #expect(tt.trip(id: "T1") == tt.trip(id: "a:T1"))
        #expect(try calls(tt, "T1").map(\.stop) == ["a:S1", "a:S2", "a:S3"])
        #expect(tt.place(try #require(tt.stop(id: "S1"))).id == "a:S1")
    }

    @Test func unprefixedIDsOfSeveralFeedsListTheCandidates() throws {
        let tt = try GTFSImporter.load([Self.source("a"), Self.source("b")]).timetable
        guard case .ambiguous(let ids) = tt.lookupStop(id: "S1") else { Issue.record("S1 should be ambiguous"); return }
        #expect(ids == ["a:S1", "b:S1"])
        guard case .ambiguous(let trips) = tt.lookupTrip(id: "T1") else { Issue.record("T1 should be ambiguous"); return }
        #expect(trips == ["a:T1", "b:T1"])
        // A prefix that names a feed resolves within that feed only.
        #expect(tt.stop(id: "b:S1") != nil)
        #expect(tt.stop(id: "b:NOPE") == nil)
        #expect(tt.route(id: "a:R1") != nil && tt.route(id: "R1") == nil)
    }

    @Test func namesComeFromConfigurationNotLoadOrder() throws {
        let tt = try GTFSImporter.load([Self.source("first.zip"), Self.source("second")], names: ["north", nil]).timetable
        #expect(tt.feeds.map(\.name) == ["north", "second"])
        #expect(tt.stop(id: "north:S1") != nil && tt.stop(id: "second:S1") != nil)
        // The same feeds in the other order keep their IDs.
        let swapped = try GTFSImporter.load([Self.source("second"), Self.source("first.zip")], names: [nil, "north"]).timetable
        #expect(swapped.place(try #require(swapped.stop(id: "north:S1"))).id == "north:S1")
        // Without a name, the file's name is made a source name.
        #expect(try GTFSImporter.load([Self.source("Caltrain 2023_09.zip")]).timetable.feeds.map(\.name) == ["caltrain-2023-09"])
    }

    @Test func feedsWithTheSameNameAreRefused() throws {
        let error = try #require(throws: FeedError.self) { try GTFSImporter.load([Self.source("x"), Self.source("x")]) }
        #expect(error.code == "duplicateName")
        #expect(error.message.contains("two feeds are named 'x'"))
        let named = try #require(throws: FeedError.self) {
            try GTFSImporter.load([Self.source("a"), Self.source("b")], names: ["same", "same"])
        }
        #expect(named.code == "duplicateName")
        let invalid = try #require(throws: FeedError.self) { try GTFSImporter.load([Self.source("a")], names: ["Not A Name"]) }
        #expect(invalid.code == "invalidName")
    }

    @Test func errorInTheSecondFeedNamesThatFeedsFile() throws {
        let broken = Self.source("b", ["stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon
            S1,One,40.0,-74.0
            S1,Again,40.0,-74.0
            """])
        let error = try #require(throws: FeedError.self) { try GTFSImporter.load([Self.source("a"), broken]) }
        #expect(error.code == "duplicateKey")
        #expect(error.location == FeedLocation(file: "b/stops.txt", line: 3, field: "stop_id"))
    }

    @Test func missingFileInTheSecondFeedNamesThatFeed() throws {
        var broken = Self.source("b")
        broken.files["trips.txt"] = nil
        let error = try #require(throws: FeedError.self) { try GTFSImporter.load([Self.source("a"), broken]) }
        #expect(error.code == "missingFile")
        #expect(error.location.file == "b/trips.txt")
    }

    @Test func duplicateSequenceFoundAtBuildNamesTheFeedsFile() throws {
        let broken = Self.source("b", ["stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,08:00:00,08:00:00,S1,1
            T1,08:10:00,08:10:00,S2,1
            """])
        let error = try #require(throws: FeedError.self) { try GTFSImporter.load([Self.source("a"), broken]) }
        #expect(error.code == "duplicateKey")
        #expect(error.location == FeedLocation(file: "b/stop_times.txt", line: 3, field: "stop_sequence"))
    }

    @Test func noticesNameTheFeedsFile() throws {
        let short = Self.source("b", ["stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,08:00:00,08:00:00,S1,1
            T1,08:10:00,08:10:00,S2,2
            T2,09:00:00,09:00:00,S1,1
            """])
        let result = try GTFSImporter.load([Self.source("a"), short])
        #expect(result.notices.map(\.kind) == ["tripTooShort"])
        #expect(result.notices.first?.location == FeedLocation(file: "b/stop_times.txt", line: 4, field: "trip_id"))
        #expect(result.notices.first?.message.contains("'b:T2'") == true)
        let t2 = try #require(result.timetable.trip(id: "b:T2"))
        #expect(throws: ServiceLookupError.skippedAtImport("b:T2")) { try result.timetable.service(t2, on: monday) }
        #expect(try calls(result.timetable, "a:T2").count == 3)
    }

    @Test
    func tripWithoutStopTimesNoticeNamesTheFeedsFile() throws {
        let empty = Self.source("b", ["trips.txt": "route_id,service_id,trip_id\nR1,WK,T1\nR1,WK,T2\nR1,WK,T3\n"])
        let result = try GTFSImporter.load([Self.source("a"), empty])
        let notice = try #require(result.notices.first)
        #expect(notice.kind == "tripWithoutStopTimes")
        #expect(notice.location.file == "b/trips.txt")
        #expect(notice.location.line == 4) // T3, the trip with no stop times, is on line 4
    }
}
