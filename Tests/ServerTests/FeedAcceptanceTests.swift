import Foundation
import GTFS
import GTFSSource
import OnwardCore
import OnwardTesting
import Testing
import Timetable
import TransitSources

/// The checks a new version of a static feed passes before it replaces the one in service, and
/// what health says of a timetable's end, on small feeds written here.
@Suite("feed versions: acceptance and end dates")
struct FeedAcceptanceTests {
    /// `stops` stops and one trip per stop pair, running every day of `from`…`to` (YYYYMMDD), in Halifax's zone.
    /// A line of `stops` stops with one trip between each two (`trip` + n, leaving at 08:00, arriving at 08:`minute`).
    static func feed(stops: Int, from: String = "20251101", to: String = "20251231", feedInfoEnd: String? = nil,
                     trip: String = "T", minute: Int = 10) throws -> Timetable {
        var files = [
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\n" + (0..<stops).map { "S\($0),Stop \($0),44.6\($0),-63.5\($0)" }.joined(separator: "\n"),
            "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nR,A,1,One,3",
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nALL,1,1,1,1,1,1,1,\(from),\(to)",
            "trips.txt": "route_id,service_id,trip_id\n" + (1..<stops).map { "R,ALL,\(trip)\($0)" }.joined(separator: "\n"),
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                + (1..<stops).map { "\(trip)\($0),08:00:00,08:00:00,S\($0 - 1),1\n\(trip)\($0),08:\(minute):00,08:\(minute):00,S\($0),2" }
                .joined(separator: "\n"),
        ]
        if let feedInfoEnd {
            files["feed_info.txt"] = "feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date,feed_end_date,feed_version\nHT,https://example.org,en,\(from),\(feedInfoEnd),v7"
        }
        return try InlineFeed.load(name: "halifax", timeZone: "America/Halifax", files).timetable
    }

    static let today = ServiceDate(iso: "2025-11-27")!

    @Test("anything that imports is taken when nothing is in service, even a timetable that has ended")
    func firstVersion() throws {
        let ended = try Self.feed(stops: 10, to: "20251120")
        #expect(FeedAcceptance().refusal(of: "halifax", in: ended, replacing: nil, today: Self.today) == nil)
    }

    @Test("a new version whose service ended before today is refused, with the dates")
    func ended() throws {
        let old = try Self.feed(stops: 10)
        let refusal = FeedAcceptance().refusal(of: "halifax", in: try Self.feed(stops: 10, to: "20251126"), replacing: old, today: Self.today)
        #expect(refusal == "its service ends on 2025-11-26, before today (2025-11-27)")
        // Ending today is still good: today's trips run.
        #expect(FeedAcceptance().refusal(of: "halifax", in: try Self.feed(stops: 10, to: "20251127"), replacing: old, today: Self.today) == nil)
        // feed_info's end date is the one that counts, when the feed gives one.
        #expect(FeedAcceptance().refusal(of: "halifax", in: try Self.feed(stops: 10, feedInfoEnd: "20251101"), replacing: old, today: Self.today) != nil)
    }

    @Test("a version that lost more than the allowed share of stops or trips is refused; at the share exactly, taken")
    func shrink() throws {
        // 21 stops and 20 trips; then 11 and 10 (half the trips: the most allowed), then 10 and 9.
        let old = try Self.feed(stops: 21)
        let half = try Self.feed(stops: 11), fewer = try Self.feed(stops: 10)
        #expect(FeedAcceptance(maxShrink: 0.5).refusal(of: "halifax", in: half, replacing: old, today: Self.today) == nil)
        #expect(FeedAcceptance(maxShrink: 0.5).refusal(of: "halifax", in: fewer, replacing: old, today: Self.today)
                == "it has 10 stops where the version in service has 21: 52% fewer, more than the 50% allowed (feed_max_shrink)")
        #expect(FeedAcceptance(maxShrink: 0.6).refusal(of: "halifax", in: fewer, replacing: old, today: Self.today) == nil)
        // A feed that grows is always taken.
        #expect(FeedAcceptance(maxShrink: 0).refusal(of: "halifax", in: try Self.feed(stops: 30), replacing: old, today: Self.today) == nil)
    }

    /// The `halifax/timetable` upstream of a network serving `tt`, at `now`.
    static func status(_ tt: Timetable, at now: Instant, problem: String? = nil) -> SourceStatus? {
        let dates = tt.serviceDates(of: "halifax")
        let version = FeedVersion(feed: "halifax", location: "agency.example/gtfs.zip", hash: String(repeating: "0123456789ab", count: 5) + "cdef",
                                  fetchedAt: now.adding(seconds: -3600), firstDate: dates?.first, lastDate: dates?.last)
        var state = NetworkState(served: ServedTimetable(timetable: tt, versions: [version]))
        if let problem {
            var check = FeedCheckHealth(feed: "halifax")
            check.problem = problem
            check.refusals = 1
            state.feedChecks["halifax"] = check
        }
        return GTFSNetworkSource(store: LiveStore(state), displayName: "Halifax").status(now: now).first { $0.name == "halifax/timetable" }
    }

    @Test("health: fresh with days to go, a warning in the last week, stale once ended, failing while a version is refused")
    func endDates() throws {
        let tt = try Self.feed(stops: 5, to: "20251203")
        // 27 November at noon in Halifax: 6 days to go.
        let noon = Instant(epochSeconds: 1_764_259_200)
        let warned = try #require(Self.status(tt, at: noon))
        #expect(warned.state == .fresh)
        #expect(warned.warning == "the timetable ends on 2025-12-03, in 6 days")
        #expect(warned.measures.first { $0.name == "feed_days_left" }?.value == 6)
        #expect(warned.ageSeconds == 3600 && warned.version?.lastDate == ServiceDate(iso: "2025-12-03"))
        #expect(warned.measures.first { $0.name == "feed_version" }?.value == Double(0x0123_4567_89ab))
        let early = try #require(Self.status(tt, at: noon.adding(seconds: -86_400 * 7)))
        #expect(early.state == .fresh && early.warning == nil)
        let ended = try #require(Self.status(tt, at: noon.adding(seconds: 86_400 * 7)))
        #expect(ended.state == .stale)
        #expect(ended.detail == "the timetable ended on 2025-12-03; no newer version has been accepted")
        let refused = try #require(Self.status(tt, at: noon, problem: "the new version of halifax was refused: stops.txt:3: …"))
        #expect(refused.state == .failing && refused.detail == "the new version of halifax was refused: stops.txt:3: …")
        #expect(refused.measures.first { $0.name == "feed_refusals" }?.value == 1)
    }

    @Test("the IDs a new version drops are remembered with the version, and forgotten when they come back")
    func retired() throws {
        let old = try Self.feed(stops: 5), new = try Self.feed(stops: 3)
        let version = FeedVersion(feed: "halifax", location: "x", hash: "2c5fb348f4415abae547", fetchedAt: Instant(epochSeconds: 1_764_259_200))
        let retired = RetiredIDs().adding(from: old, to: new, droppedBy: RetiredIDs.version(version))
        #expect(retired["halifax:S4"] != nil && retired["halifax:T4"] != nil && retired["halifax:S1"] == nil)
        #expect(RetiredIDs.describe(retired["halifax:T3"]!) == "halifax's version 2c5fb348f441 (fetched 2025-11-27T16:00:00+00:00)")
        let back = retired.adding(from: new, to: old, droppedBy: "2025-11-28T00:00:00+00:00 halifax ffffffffffff")
        #expect(back.count == 0)
    }

    @Test("a trip renamed by a new version (the same route, stops and times under another ID) is followed to its new ID, across versions")
    func renamed() throws {
        let v1 = try Self.feed(stops: 5), v2 = try Self.feed(stops: 5, trip: "N")
        let r2 = RetiredIDs().adding(from: v1, to: v2, droppedBy: "2025-11-27T00:00:00+00:00 halifax 222222222222")
        #expect(r2.successor(ofTrip: "halifax:T1") == "halifax:N1" && r2.successor(ofTrip: "halifax:T4") == "halifax:N4")
        // Stops are not renamed trips; a stop kept is not retired.
        #expect(r2.successor(ofTrip: "halifax:S1") == nil && r2["halifax:T1"] != nil)
        // Renamed again, running the same: the first name follows to the newest.
        let v3 = try Self.feed(stops: 5, trip: "M")
        let r3 = r2.adding(from: v2, to: v3, droppedBy: "2025-11-28T00:00:00+00:00 halifax 333333333333")
        #expect(r3.successor(ofTrip: "halifax:T1") == "halifax:M1" && r3.successor(ofTrip: "halifax:N1") == "halifax:M1")
        // Renamed with other times: not the same train; the old IDs are no longer scheduled, with nothing to follow.
        let v4 = try Self.feed(stops: 5, trip: "L", minute: 12)
        let r4 = r3.adding(from: v3, to: v4, droppedBy: "2025-11-29T00:00:00+00:00 halifax 444444444444")
        #expect(r4.successor(ofTrip: "halifax:T1") == nil && r4.successor(ofTrip: "halifax:M1") == nil && r4["halifax:M1"] != nil)
        // What a version before renames kept still reads.
        let kept = try JSONDecoder().decode(RetiredIDs.self, from: Data(#"{"dropped": {"halifax:T9": "2025-11-27T00:00:00+00:00 halifax 1"}}"#.utf8))
        #expect(kept["halifax:T9"] != nil && kept.successor(ofTrip: "halifax:T9") == nil)
    }
}
