import Foundation
import OnwardCore
import Timetable

extension FeedImport {
    /// The hot loop of an import: millions of rows, parsed from bytes, in pieces on every core where the source allows.
    mutating func readStopTimes(_ b: inout TimetableBuilder) throws {
        let lookups = StopTimePiece.Lookups(trips: trips, stops: ByteKeyIndex(stops.mapValues(\.raw)), stopsByID: stops,
                                            file: b.fileIndex(qualifiesFiles ? "\(name)/stop_times.txt" : "stop_times.txt"))
        var pieces = try GTFSTable.readInPieces(source, "stop_times.txt", progress: report("stop_times.txt"), piece: { t, bytes in
            try StopTimePiece(t, reserving: bytes / 40)
        }) { piece, t, row in try piece.read(t, row, lookups) }
        var rows = 0
        // Taken out of the array one by one, so that each piece's columns are changed and handed on without a copy.
        pieces.reverse()
        while let (piece, lineOffset) = pieces.popLast() {
            rows += piece.rows.count
            piece.merge(into: &b, lineOffset: lineOffset)
        }
        rowCounts["stop_times.txt"] = rows
    }

    mutating func readFrequencies(_ b: inout TimetableBuilder) throws {
        guard source.contains("frequencies.txt") else { return }
        let trips = self.trips
        var n = 0
        var seen: Set<String> = []
        try GTFSTable.read(source, "frequencies.txt", required: ["trip_id", "start_time", "end_time", "headway_secs"]) { t, row in
            let tripC = try t.required("trip_id"), startC = try t.required("start_time")
            let endC = try t.required("end_time"), headwayC = try t.required("headway_secs")
            let id = row.string(tripC)
            guard let trip = trips[id] else {
                throw t.error("unknownReference", line: row.line, field: "trip_id", "trip_id '\(id)' is not in trips.txt")
            }
            guard let start = GTFSTime.parse(row.string(startC)) else {
                throw t.error("invalidValue", line: row.line, field: "start_time", "'\(row.string(startC))' is not a time (H:MM:SS)")
            }
            guard let end = GTFSTime.parse(row.string(endC)) else {
                throw t.error("invalidValue", line: row.line, field: "end_time", "'\(row.string(endC))' is not a time (H:MM:SS)")
            }
            guard let headway = FieldParsing.int(row.bytes(headwayC)), headway > 0 else {
                throw t.error("invalidValue", line: row.line, field: "headway_secs", "'\(row.string(headwayC))' must be a positive number of seconds")
            }
            guard end > start else { throw t.error("invalidValue", line: row.line, field: "end_time", "end_time is not after start_time") }
            guard seen.insert(id + "\u{0}" + row.string(startC)).inserted else {
                throw t.error("duplicateKey", line: row.line, field: "start_time", "trip '\(id)' has two frequencies starting at \(row.string(startC))")
            }
            var exact = false
            if let c = t.column("exact_times"), !row.isEmpty(c) {
                guard let v = FieldParsing.int(row.bytes(c)), v == 0 || v == 1 else {
                    throw t.error("invalidValue", line: row.line, field: "exact_times", "'\(row.string(c))' must be 0 or 1")
                }
                exact = v == 1
            }
            b.addFrequency(trip: trip, start: start, end: end, headway: Int32(clamping: headway), exactTimes: exact)
            n += 1
        }
        rowCounts["frequencies.txt"] = n
    }

    /// Transfers are kept for the journey planner; boards do not use them.
    mutating func readTransfers(_ b: inout TimetableBuilder) throws {
        guard source.contains("transfers.txt") else { return }
        let stops = self.stops, trips = self.trips
        var n = 0
        try GTFSTable.read(source, "transfers.txt", required: ["transfer_type"]) { t, row in
            func reference<Index>(_ field: String, in table: [String: Index], _ file: String) throws -> Index? {
                guard let c = t.column(field), !row.isEmpty(c) else { return nil }
                let id = row.string(c)
                guard let index = table[id] else {
                    throw t.error("unknownReference", line: row.line, field: field, "\(field) '\(id)' is not in \(file)")
                }
                return index
            }
            let from = try reference("from_stop_id", in: stops, "stops.txt"), to = try reference("to_stop_id", in: stops, "stops.txt")
            let fromTrip = try reference("from_trip_id", in: trips, "trips.txt"), toTrip = try reference("to_trip_id", in: trips, "trips.txt")
            let typeC = try t.required("transfer_type")
            var type = 0
            if !row.isEmpty(typeC) {
                guard let v = FieldParsing.int(row.bytes(typeC)), (0...5).contains(v) else {
                    throw t.error("invalidValue", line: row.line, field: "transfer_type", "'\(row.string(typeC))' must be 0 to 5")
                }
                type = v
            }
            var minTime: Int32 = -1
            if let c = t.column("min_transfer_time"), !row.isEmpty(c) {
                guard let v = FieldParsing.int(row.bytes(c)), v >= 0 else {
                    throw t.error("invalidValue", line: row.line, field: "min_transfer_time", "'\(row.string(c))' must be a non-negative number of seconds")
                }
                minTime = Int32(clamping: v)
            }
            b.addTransfer(from: from, to: to, fromTrip: fromTrip, toTrip: toTrip, type: UInt8(type), minimumSeconds: minTime)
            n += 1
        }
        rowCounts["transfers.txt"] = n
    }
}

/// One piece of stop_times.txt, read on a thread of its own: its rows, and the stop headsigns it met, kept apart
/// until `merge` because the builder's strings are not shared between threads.
struct StopTimePiece {
    /// What every piece reads from: the IDs of the feed's trips and stops, and the file's index for messages.
    struct Lookups {
        var trips: [String: TripIndex]
        var stops: ByteKeyIndex
        var stopsByID: [String: StopIndex]
        var file: UInt16
    }

    // Column positions, found once from the header: the per-row loop does no name lookups.
    private let tripC: Int, stopC: Int, seqC: Int
    private let arrC: Int?, depC: Int?, pickupC: Int?, dropOffC: Int?, timepointC: Int?, headsignC: Int?, distanceC: Int?
    private(set) var rows = TimetableBuilder.StopTimeRows()
    /// Headsigns by this piece's own numbers (0: none), turned into the builder's strings by `merge`.
    private var headsigns: [String] = [""]
    private var headsignNumbers: [String: UInt32] = ["": 0]
    private var trip = Remembered<TripIndex>()
    private var headsign = Remembered<UInt32>()

    init(_ t: GTFSTable, reserving capacity: Int) throws {
        tripC = try t.required("trip_id"); stopC = try t.required("stop_id"); seqC = try t.required("stop_sequence")
        arrC = t.column("arrival_time"); depC = t.column("departure_time")
        guard arrC != nil || depC != nil else {
            throw t.error("missingColumn", line: 1, field: "arrival_time", "stop_times.txt needs arrival_time and departure_time columns")
        }
        pickupC = t.column("pickup_type"); dropOffC = t.column("drop_off_type"); timepointC = t.column("timepoint")
        headsignC = t.column("stop_headsign"); distanceC = t.column("shape_dist_traveled")
        rows.reserve(capacity)
    }

    /// `lookups` is a parameter, not kept in the piece: read through `self` in this mutating method, it was copied
    /// (its arrays retained and released) for every row, a tenth of reading a zipped feed's stop_times (perf).
    @inline(__always)
    mutating func read(_ t: GTFSTable, _ row: CSVRecord, _ lookups: borrowing Lookups) throws {
        let tripBytes = row.bytes(tripC)
        let trip: TripIndex
        if let same = self.trip.value(ifSame: tripBytes) {
            trip = same
        } else {
            let id = row.string(tripC)
            guard let found = lookups.trips[id] else {
                throw t.error("unknownReference", line: row.line, field: "trip_id", "trip_id '\(id)' is not in trips.txt")
            }
            trip = found
            self.trip.remember(found, for: tripBytes)
        }
        // By bytes; then as a string, which also matches an ID written in another Unicode normal form.
        guard let stop = lookups.stops.value(row.bytes(stopC)).map(StopIndex.init) ?? lookups.stopsByID[row.string(stopC)] else {
            throw t.error("unknownReference", line: row.line, field: "stop_id", "stop_id '\(row.string(stopC))' is not in stops.txt")
        }
        guard let seq = FieldParsing.int(row.bytes(seqC)), seq >= 0, seq <= Int(UInt32.max) else {
            throw t.error("invalidValue", line: row.line, field: "stop_sequence", "'\(row.string(seqC))' is not a non-negative whole number")
        }
        func time(_ c: Int?, _ field: String) throws -> Int32 {
            guard let c else { return -1 }
            let bytes = row.bytes(c)
            if bytes.isEmpty { return -1 }
            guard let v = GTFSTime.parse(bytes) else {
                throw t.error("invalidValue", line: row.line, field: field, "'\(row.string(c))' is not a time (H:MM:SS)")
            }
            return v
        }
        let arrival = try time(arrC, "arrival_time"), departure = try time(depC, "departure_time")
        func rule(_ column: Int?, _ field: String) throws -> UInt8 {
            guard let c = column else { return 0 }
            let bytes = row.bytes(c)
            if bytes.isEmpty { return 0 }
            guard let v = FieldParsing.int(bytes), (0...3).contains(v) else {
                throw t.error("invalidValue", line: row.line, field: field, "'\(row.string(c))' must be 0, 1, 2 or 3")
            }
            return UInt8(v)
        }
        var flags = try rule(pickupC, "pickup_type") | (try rule(dropOffC, "drop_off_type") << 2)
        var exact = arrival >= 0 || departure >= 0
        if let c = timepointC, !row.isEmpty(c) {
            guard let v = FieldParsing.int(row.bytes(c)), v == 0 || v == 1 else {
                throw t.error("invalidValue", line: row.line, field: "timepoint", "'\(row.string(c))' must be 0 or 1")
            }
            exact = exact && v == 1
        }
        if exact { flags |= 0x10 }
        var headsign: UInt32 = 0
        if let c = headsignC {
            let bytes = row.bytes(c)
            if let same = self.headsign.value(ifSame: bytes) {
                headsign = same
            } else {
                let text = row.string(c)
                if let n = headsignNumbers[text] {
                    headsign = n
                } else {
                    headsign = UInt32(headsigns.count)
                    headsigns.append(text)
                    headsignNumbers[text] = headsign
                }
                self.headsign.remember(headsign, for: bytes)
            }
        }
        var distance = Float.nan
        if let c = distanceC, let d = FieldParsing.double(row.bytes(c)) { distance = Float(d) }
        rows.trip.append(trip)
        rows.sequence.append(UInt32(seq))
        rows.stop.append(stop)
        rows.arrival.append(arrival)
        rows.departure.append(departure)
        rows.flags.append(flags)
        rows.headsign.append(headsign)
        rows.distance.append(distance)
        rows.line.append(UInt32(clamping: row.line))
        rows.file.append(lookups.file)
    }

    /// Adds the rows to the builder's, after those already there: lines counted from the file's start, headsigns as the
    /// builder's strings. The first piece's columns are taken over rather than copied.
    consuming func merge(into b: inout TimetableBuilder, lineOffset: Int) {
        if lineOffset != 0 {
            rows.line.withUnsafeMutableBufferPointer { lines in
                for i in lines.indices { lines[i] = UInt32(clamping: Int(lines[i]) + lineOffset) }
            }
        }
        if headsigns.count > 1 {
            let strings = headsigns.map { b.intern($0) }
            rows.headsign.withUnsafeMutableBufferPointer { h in for i in h.indices { h[i] = strings[Int(h[i])] } }
        }
        b.stopTimes.append(rows)
    }
}
