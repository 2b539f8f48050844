import Foundation
import GTFS

/// A large feed made by replicating a real one: every copy's trips (and, unless
/// stops are shared, its stops) get the suffix `_r{k}`; agencies, routes and
/// the calendar are written once, so all copies run on the same days.
struct SyntheticFeed {
    enum StopMode: String {
        /// Each copy has its own stops (`6001_r3`): a bigger network, like many cities in one feed.
        case renamed
        /// All copies call at the same stops: denser boards, like a busier city.
        case shared
    }

    struct Summary {
        var folder: URL
        var replicas: Int
        var stopTimes: Int
        var trips: Int
        var stops: Int
        var bytes: Int
        var seconds: Double
    }

    let base: URL
    let stopMode: StopMode
    /// false: one plain copy of the feed, IDs unchanged (only line ends cleaned).
    var renameIDs = true

    /// Files the importer reads, with the columns that carry IDs each copy renames.
    private func plan() -> [(file: String, replicate: Bool, rename: Set<String>)] {
        let renamedStops = stopMode == .renamed
        guard renameIDs else {
            return ["agency.txt", "routes.txt", "calendar.txt", "calendar_dates.txt", "feed_info.txt", "shapes.txt",
                    "stops.txt", "trips.txt", "stop_times.txt", "frequencies.txt", "transfers.txt"].map { ($0, false, []) }
        }
        return [
            ("agency.txt", false, []),
            ("routes.txt", false, []),
            ("calendar.txt", false, []),
            ("calendar_dates.txt", false, []),
            ("feed_info.txt", false, []),
            // Shapes are written once: every copy's trips draw with the base feed's shapes.
            ("shapes.txt", false, []),
            ("stops.txt", renamedStops, renamedStops ? ["stop_id", "parent_station"] : []),
            ("trips.txt", true, ["trip_id", "block_id"]),
            ("stop_times.txt", true, renamedStops ? ["trip_id", "stop_id"] : ["trip_id"]),
            ("frequencies.txt", true, ["trip_id"]),
            ("transfers.txt", true, renamedStops ? ["from_stop_id", "to_stop_id", "from_trip_id", "to_trip_id"]
                                                 : ["from_trip_id", "to_trip_id"]),
        ]
    }

    /// How many copies give at least `rows` stop_times.
    static func replicas(forRows rows: Int, baseRows: Int) -> Int { max(1, (rows + baseRows - 1) / max(baseRows, 1)) }

    /// Counts the base feed's stop_times rows.
    func baseStopTimeRows() throws -> Int {
        let source = try openGTFSSource(base)
        var lines = 0
        var last: UInt8 = 0x0A
        try source.read("stop_times.txt") { chunk in
            for b in chunk where b == 0x0A { lines += 1 }
            if let l = chunk.last { last = l }
        }
        if last != 0x0A { lines += 1 }
        return lines - 1
    }

    /// Writes `replicas` copies into `folder` (created if needed), streaming each file.
    func write(replicas: Int, to folder: URL) throws -> Summary {
        let start = Stopwatch.nanos()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = try openGTFSSource(base)
        var summary = Summary(folder: folder, replicas: replicas, stopTimes: 0, trips: 0, stops: 0, bytes: 0, seconds: 0)
        for (file, replicate, rename) in plan() where source.contains(file) {
            var bytes: [UInt8] = []
            try source.read(file) { bytes.append(contentsOf: $0) }
            let copies = replicate ? replicas : 1
            let template = CSVTemplate(bytes, rename: rename)
            bytes = []
            let written = try Self.write(template, copies: copies, to: folder.appendingPathComponent(file))
            summary.bytes += written
            let rows = template.recordCount * copies
            switch file {
            case "stop_times.txt": summary.stopTimes = rows
            case "trips.txt": summary.trips = rows
            case "stops.txt": summary.stops = rows
            default: break
            }
        }
        summary.seconds = Double(Stopwatch.nanos() - start) / 1e9
        return summary
    }

    /// Streams the header once and then every record `copies` times, with the copy's suffix at each insertion point.
    private static func write(_ t: CSVTemplate, copies: Int, to url: URL) throws -> Int {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let flushAt = 1 << 20
        var buffer: [UInt8] = []
        buffer.reserveCapacity(flushAt + 4096)
        var total = 0
        func flush() throws {
            guard !buffer.isEmpty else { return }
            total += buffer.count
            try buffer.withUnsafeBytes { try handle.write(contentsOf: $0) }
            buffer.removeAll(keepingCapacity: true)
        }
        try t.bytes.withUnsafeBufferPointer { src in
            buffer.append(contentsOf: src[t.header])
            buffer.append(0x0A)
            for k in 0..<copies {
                let suffix = Array("_r\(k)".utf8)
                for r in 0..<t.recordCount {
                    var from = t.recordStart[r]
                    for j in t.insertStart[r]..<t.insertStart[r + 1] {
                        let at = t.inserts[j]
                        buffer.append(contentsOf: src[from..<at])
                        buffer.append(contentsOf: suffix)
                        from = at
                    }
                    buffer.append(contentsOf: src[from..<t.recordEnd[r]])
                    buffer.append(0x0A)
                    if buffer.count >= flushAt { try flush() }
                }
            }
        }
        try flush()
        return total
    }
}
