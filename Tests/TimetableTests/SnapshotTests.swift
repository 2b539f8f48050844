import Foundation
import GTFS
import OnwardCore
import OnwardTesting
import Testing
import Timetable

@Suite("Snapshots")
struct SnapshotTests {
    static func frequencyFeed() throws -> Timetable {
        try InlineFeed.load([
            "stops.txt": Feed.stops, "routes.txt": Feed.routes, "calendar.txt": Feed.daily,
            "trips.txt": "route_id,service_id,trip_id,trip_headsign\nR,DAILY,F,Délta\nR,DAILY,P,\n",
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign
                F,00:00:00,00:00:00,A,1,
                F,00:05:00,00:05:00,B,2,Via Bravo
                F,00:09:00,00:09:00,D,3,
                P,25:00:00,25:00:00,A,1,
                P,25:10:00,25:10:00,C,2,
                """,
            "frequencies.txt": "trip_id,start_time,end_time,headway_secs,exact_times\nF,06:00:00,09:00:00,900,1\n",
        ]).timetable
    }

    /// The bytes before the first array of a real snapshot (magic, version and whatever else the
    /// header holds), found from where the feed-summary JSON starts: it is written as a string table,
    /// an offsets array (count, two UInt32) then the text (count, bytes), each count a UInt64.
    static func validHeader() throws -> [UInt8] {
        let bytes = try frequencyFeed().snapshotData()
        let json = Array("[{\"".utf8)
        let start = try #require((0..<bytes.count - json.count).first { Array(bytes[$0..<$0 + json.count]) == json })
        return Array(bytes[0..<(start - 24)])
    }

    @Test func inlineFeedRoundTrip() throws {
        let tt = try Self.frequencyFeed()
        let copy = try Timetable(snapshot: tt.snapshotData())
        #expect(copy.stopCount == 4 && copy.tripCount == 2)
        for (stop, kind) in [("A", BoardRequest.Kind.departures), ("B", .departures), ("D", .arrivals), ("C", .arrivals)] {
            let a = try tt.board(kind, at: stop, from: Clock.est("2025-01-10", "00:00"), window: 2 * 86_400)
            let b = try copy.board(kind, at: stop, from: Clock.est("2025-01-10", "00:00"), window: 2 * 86_400)
            #expect(!a.isEmpty)
            #expect(a == b)
        }
        // Values that must survive: stop headsigns, frequency runs, after-midnight times.
        let atB = try copy.board(at: "B", from: Clock.est("2025-01-10", "06:00"), limit: 2)
        #expect(atB.map(\.headsign) == ["Via Bravo", "Via Bravo"])
        #expect(atB.map(\.scheduled) == [Clock.est("2025-01-10", "06:05"), Clock.est("2025-01-10", "06:20")])
        let atA = try copy.board(at: "A", from: Clock.est("2025-01-11", "00:30"), window: 3600)
        #expect(atA.map(\.tripID) == ["test:P"])
        #expect(atA.map(\.serviceDate.isoString) == ["2025-01-10"])
        #expect(atA.map(\.headsign) == ["Charlie"])
        let f = try #require(copy.trip(id: "F"))
        #expect(try copy.service(f, on: ServiceDate(iso: "2025-01-10")!, startTime: 7 * 3600)
                == tt.service(try #require(tt.trip(id: "F")), on: ServiceDate(iso: "2025-01-10")!, startTime: 7 * 3600))
        #expect(copy.calendarRange == tt.calendarRange)
        #expect(copy.feeds == tt.feeds)
        // The copy writes a snapshot of the same size.
        #expect(copy.snapshotData().count == tt.snapshotData().count)
    }

    /// Snapshots should be reproducible: the same timetable writes the same bytes, so a rebuilt
    /// snapshot can be compared or cached by hash. The feed summaries are JSON-encoded without
    /// sorted keys, and Swift's dictionary-backed key order varies between encodings.
    @Test
    func snapshotBytesAreDeterministic() throws {
        let tt = try Self.frequencyFeed()
        let first = tt.snapshotData()
        var same = true
        for _ in 0..<20 where tt.snapshotData() != first { same = false }
        #expect(same)
        let copy = try Timetable(snapshot: first)
        #expect(copy.snapshotData() == first)
    }

    @Test(.enabled(if: Fixtures.hasSharedData, "needs ../shared/data"))
    func realFeedRoundTripThroughAFile() throws {
        let tt = try RealFeeds.caltrain.get()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("onward-tt-\(UUID().uuidString).snapshot")
        defer { try? FileManager.default.removeItem(at: url) }
        try tt.writeSnapshot(to: url)
        let copy = try Timetable.loadSnapshot(from: url)
        #expect(copy.stopCount == tt.stopCount && copy.tripCount == tt.tripCount && copy.stopTimeCount == tt.stopTimeCount)
        let from = Clock.local("2023-11-07", "05:00", offsetHours: -8)
        for station in ["22nd_street", "san_francisco", "70261"] {
            for kind in [BoardRequest.Kind.departures, .arrivals] {
                let a = try tt.board(kind, at: station, from: from, window: 20 * 3600)
                #expect(!a.isEmpty)
                let b = try copy.board(kind, at: station, from: from, window: 20 * 3600)
                #expect(a == b)
            }
        }
        let via = try copy.board(at: "22nd_street", from: from, window: 6 * 3600, via: "san_francisco")
        let viaOriginal = try tt.board(at: "22nd_street", from: from, window: 6 * 3600, via: "san_francisco")
        #expect(!via.isEmpty)
        #expect(via == viaOriginal)
        let date = try #require(ServiceDate(iso: "2023-11-07"))
        for trip in ["501", "105", "704"] {
            let s1 = try tt.service(try #require(tt.trip(id: trip)), on: date)
            let s2 = try copy.service(try #require(copy.trip(id: trip)), on: date)
            #expect(s1 == s2)
        }
        #expect(copy.searchStops("san") == tt.searchStops("san"))
        #expect(copy.nearbyStops(latitude: 37.7764, longitude: -122.3949, radius: 3000)
                == tt.nearbyStops(latitude: 37.7764, longitude: -122.3949, radius: 3000))
    }


    /// Halifax's arrays of 328,000 stop times are handed from their own storage to the file, the small ones between
    /// through a buffer: the file must hold exactly the bytes of the snapshot made in memory.
    @Test(.enabled(if: Fixtures.hasSharedData, "needs ../shared/data"))
    func writtenFileIsTheSnapshotsBytes() throws {
        let tt = try RealFeeds.halifax.get()
        #expect(tt.stopTimeCount * 4 > 1 << 20)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("onward-tt-\(UUID().uuidString).snapshot")
        defer { try? FileManager.default.removeItem(at: url) }
        try tt.writeSnapshot(to: url)
        let written = try Data(contentsOf: url)
        #expect(written == Data(tt.snapshotData()))
        let copy = try Timetable.loadSnapshot(from: url)
        #expect(copy.stopTimeCount == tt.stopTimeCount)
    }
    @Test func truncatedSnapshotsThrow() throws {
        let bytes = try Self.frequencyFeed().snapshotData()
        // The timetable's arrays end where the shapes section starts (a UInt64 at byte 16 of the
        // header, which only ShapeTable reads). Every cut that removes timetable data must throw.
        // (The last array is followed by up to 7 alignment bytes, whose loss the reader tolerates.)
        let end = Int(bytes[16..<24].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        try #require(end > 100 && end <= bytes.count)
        var cuts = Array(stride(from: 0, to: end - 8, by: 7))
        cuts += [end - 8, end - 9, 8, 12, 16, 23]
        for cut in cuts {
            #expect(throws: SnapshotError.self, "cut at \(cut) of \(bytes.count)") {
                try Timetable(snapshot: Array(bytes.prefix(cut)))
            }
        }
    }

    @Test func garbageThrows() throws {
        #expect(throws: SnapshotError.self) { try Timetable(snapshot: []) }
        #expect(throws: SnapshotError.self) { try Timetable(snapshot: Array("PK\u{3}\u{4} not a snapshot".utf8)) }
        var rng = SplitMix(seed: 42)
        for length in [8, 64, 1000] {
            let random = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            #expect(throws: SnapshotError.self) { try Timetable(snapshot: random) }
        }
        // The right magic, then a version this build does not read.
        #expect(throws: SnapshotError.self) { try Timetable(snapshot: Array("ONWARDTT".utf8) + [99] + [UInt8](repeating: 0, count: 31)) }
        // A valid header and nothing after it.
        #expect(throws: SnapshotError.self) { try Timetable(snapshot: try Self.validHeader()) }
        // Another format version is refused with a message that says so.
        var future = try Self.frequencyFeed().snapshotData()
        future[8] = 99
        #expect {
            try Timetable(snapshot: future)
        } throws: { error in
            (error as? SnapshotError)?.message.contains("version 99") == true
        }
    }

    /// A valid header, then noise: the first array length read is noise (trapped before 45de910).
    @Test func noiseAfterAValidHeaderThrows() throws {
        let header = try Self.validHeader()
        var rng = SplitMix(seed: 42)
        for length in [64, 1000] {
            let random = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let prefixed = header + random
            #expect(throws: SnapshotError.self) { try Timetable(snapshot: prefixed) }
        }
    }

    /// An array length near UInt64.max after a valid header must throw, not trap in `Int(_:)` or in
    /// the length × stride multiplication (it trapped before commit 45de910).
    @Test func hugeArrayCountThrows() throws {
        let header = try Self.validHeader()
        for count: UInt64 in [UInt64.max, UInt64(Int.max), UInt64(Int.max) / 2 + 1] {
            var bytes = header
            withUnsafeBytes(of: count.littleEndian) { bytes += $0 }
            bytes += [UInt8](repeating: 0, count: 64)
            #expect(throws: SnapshotError.self) { try Timetable(snapshot: bytes) }
        }
    }

    @Test func loadingAMissingFileThrows() {
        #expect(throws: SnapshotError.self) {
            try Timetable.loadSnapshot(from: URL(fileURLWithPath: "/nonexistent/onward.snapshot"))
        }
    }
}

/// A small deterministic generator so failures reproduce.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
