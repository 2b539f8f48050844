import Foundation
import GTFS
import OnwardTesting
import Testing
import Timetable
import ZIPFoundation

/// A zip whose stop_times.txt is big enough (over 8 MB) to be inflated on a thread of its own
/// while the importer parses: the same result as a folder, and errors that stop both sides.
@Suite("big zipped feeds", .timeLimit(.minutes(2)))
struct BigZipTests {
    static let trips = 75_000

    /// The base feed with `trips` trips of four calls each: about 8.8 MB of stop_times.
    /// `unknownStopAt`: a row (counted from 0) whose stop_id is not in stops.txt.
    static func files(unknownStopAt bad: Int? = nil) -> [String: String] {
        var trips = "route_id,service_id,trip_id\n", stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for t in 0..<Self.trips {
            trips += "R1,WK,T\(t)\n"
            let h = 5 + t % 18
            for (k, stop) in ["S1", "S2", "S3", "S1"].enumerated() {
                stopTimes += "T\(t),\(h):\(10 + k * 10):00,\(h):\(10 + k * 10):30,\(t * 4 + k == bad ? "NOWHERE" : stop),\(k + 1)\n"
            }
        }
        var files = BaseFeed.with(["trips.txt": trips, "stop_times.txt": stopTimes])
        files["agency.txt"] = defaultAgency
        return files
    }

    static func zip(_ files: [String: String], in folder: TemporaryFolder) throws -> URL {
        let url = URL(fileURLWithPath: folder.path).appendingPathComponent("big.zip")
        let archive = try Archive(url: url, accessMode: .create)
        for (name, text) in files.sorted(by: { $0.key < $1.key }) {
            let data = Data(text.utf8)
            try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return url
    }

    @Test("imported from the zip exactly as from the same files in memory")
    func sameAsUnzipped() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let files = Self.files()
        #expect(files["stop_times.txt"]!.utf8.count > 8 << 20)
        let zipped = try GTFSImporter.load(paths: [try Self.zip(files, in: folder)])
        let plain = try GTFSImporter.load([InMemoryGTFSSource(name: "big", files: files)])
        #expect(zipped.rowCounts["stop_times.txt"] == Self.trips * 4)
        #expect(zipped.timetable.stopTimeCount == plain.timetable.stopTimeCount)
        #expect(zipped.timetable.snapshotData() == plain.timetable.snapshotData())
    }

    @Test("an error on the first or the last line stops the import with that line, and the inflating with it", arguments: [0, 75_000 * 4 - 1])
    func errorStopsBoth(row: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let error = try #require(throws: FeedError.self) { try GTFSImporter.load(paths: [try Self.zip(Self.files(unknownStopAt: row), in: folder)]) }
        #expect(error.code == "unknownReference")
        #expect(error.location.line == row + 2)  // after the header, counted from 1
    }

    @Test("damaged compressed bytes are an error, not a crash or a hang")
    func damaged() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = try Self.zip(Self.files(), in: folder)
        var bytes = try Data(contentsOf: url)
        // stop_times.txt is the biggest entry by far: the middle of the file is inside it.
        for i in stride(from: bytes.count / 2, to: bytes.count / 2 + 64, by: 1) { bytes[i] ^= 0x5A }
        try bytes.write(to: url)
        #expect(throws: (any Error).self) { try GTFSImporter.load(paths: [url]) }
    }
}
