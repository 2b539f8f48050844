import Foundation
import OnwardCore

/// A problem reading a snapshot file.
public struct SnapshotError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "\(path): \(message)" }
}

/// The snapshot file: a header, the timetable's arrays, then the shapes in a
/// section of their own that only `ShapeTable.loadSnapshot` reads.
///
/// Header: magic (8 bytes), layout version (UInt32), reserved (UInt32), offset of the shapes section (UInt64),
/// total length of the file (UInt64), so that a file cut short anywhere is refused.
enum SnapshotLayout {
    static let magic: [UInt8] = Array("ONWARDTT".utf8)
    /// Bump whenever the layout changes: an old snapshot is then refused with a clear message.
    /// 5: every ID is canonical (`feed:local`), even with one feed.
    static let version: UInt32 = 7
    static let headerSize = 32

    /// Maps the file (untouched sections cost no memory) and hands its bytes to `body`.
    static func withFile<R>(_ url: URL, _ body: (UnsafeRawBufferPointer) throws(SnapshotError) -> R) throws(SnapshotError) -> R {
        let data: Data
        do { data = try Data(contentsOf: url, options: .alwaysMapped) } catch {
            throw SnapshotError(path: url.path, message: "cannot read the file (\(error.localizedDescription))")
        }
        // withUnsafeBytes rethrows untyped errors, so the typed one travels out in a Result.
        let result = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Result<R, SnapshotError> in
            do throws(SnapshotError) { return .success(try body(raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Checks magic and version; returns the shapes section's offset.
    static func readHeader(_ bytes: UnsafeRawBufferPointer, path: String) throws(SnapshotError) -> Int {
        guard bytes.count >= headerSize, bytes.starts(with: magic) else {
            throw SnapshotError(path: path, message: "not an Onward timetable snapshot")
        }
        var r = BinaryReader(bytes, offset: magic.count)
        do {
            let version: UInt32 = try r.read()
            guard version == SnapshotLayout.version else {
                throw SnapshotError(path: path, message: "snapshot format version \(version); this build reads version \(SnapshotLayout.version). Run `onward import` again.")
            }
            _ = try r.read(UInt32.self)
            let shapes = try r.read(UInt64.self)
            let length = try r.read(UInt64.self)
            guard length == UInt64(bytes.count), shapes >= UInt64(headerSize), shapes <= length else { throw BinaryReader.Truncated() }
            return Int(shapes)
        } catch let e as SnapshotError { throw e } catch {
            throw SnapshotError(path: path, message: "the snapshot is truncated or corrupt; run `onward import` again")
        }
    }
}

extension Timetable {
    /// The compiled timetable (and optionally its shapes) as bytes, ready to be written to a file.
    public func snapshotData(shapes: ShapeTable = .empty) -> [UInt8] {
        var w = BinaryWriter()
        // The arrays' sizes, strings' bytes and the shapes' points, with some room: one allocation.
        w.reserve(approximateByteSize + shapes.approximateByteSize + (1 << 16))
        let lengths = writeSnapshot(&w, shapes: shapes)
        var bytes = w.bytes
        w = BinaryWriter()  // the only owner of the bytes now: patched in place, not copied
        bytes.replaceSubrange(16..<32, with: lengths)
        return bytes
    }

    /// Writes the snapshot whole or not at all: into a file beside `url`, renamed over it when complete. The arrays go
    /// from their own storage to the file (see `BinaryWriter`).
    public func writeSnapshot(to url: URL, shapes: ShapeTable = .empty) throws {
        let partial = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).partial")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
        }
        do {
            let handle = try FileHandle(forWritingTo: partial)
            defer { try? handle.close() }
            var w = BinaryWriter { try handle.write(contentsOf: $0) }
            let lengths = writeSnapshot(&w, shapes: shapes)
            w.flush()
            if let failure = w.failure { throw failure }
            try handle.seek(toOffset: 16)
            try handle.write(contentsOf: lengths)
            guard rename(partial.path, url.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
    }

    /// Writes the whole snapshot; returns the header's last 16 bytes (the shapes' offset and the total length), which
    /// are only known at the end and are written as zeros first.
    private func writeSnapshot(_ w: inout BinaryWriter, shapes: ShapeTable) -> [UInt8] {
        for b in SnapshotLayout.magic { w.write(b) }
        w.write(SnapshotLayout.version)
        w.write(UInt32(0))
        w.write(UInt64(0)) // shapes offset, filled in below
        w.write(UInt64(0)) // total length, filled in below
        // Sorted keys: the same timetable always makes the same bytes.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let feedJSON = (try? encoder.encode(feeds)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        w.write(feedJSON)
        w.write(zoneIDs)
        w.write(agencyID); w.write(agencyName); w.write(agencyZone)
        w.write(stopID); w.write(stopName); w.write(stopCode); w.write(stopLat); w.write(stopLon); w.write(stopKind)
        w.write(stopParent); w.write(stopPlatform); w.write(stopWheelchair); w.write(stopZone); w.write(stopFoldedName); w.write(stopOrder)
        w.write(stationChildren.start); w.write(stationChildren.values)
        w.write(routeID); w.write(routeShortName); w.write(routeLongName); w.write(routeType); w.write(routeAgency)
        w.write(routeColor); w.write(routeTextColor)
        w.write(tripID); w.write(tripRoute); w.write(tripService); w.write(tripHeadsign); w.write(tripShortName)
        w.write(tripDirection); w.write(tripWheelchair); w.write(tripBlock); w.write(tripShape); w.write(tripPattern); w.write(tripTimes)
        w.write(tripShift); w.write(tripZone); w.write(tripOrder)
        w.write(tripFrequencies.start); w.write(tripFrequencies.values)
        w.write(frequencyStart); w.write(frequencyEnd); w.write(frequencyHeadway); w.write(frequencyExact)
        w.write(patternStart); w.write(patternStop); w.write(patternFlags); w.write(patternSequence); w.write(patternHeadsign)
        w.write(arrivals); w.write(departures)
        for index in [departureIndex, arrivalIndex, frequencyDepartureIndex, frequencyArrivalIndex] {
            w.write(index.start); w.write(index.trip); w.write(index.position)
        }
        w.write(transfers.from); w.write(transfers.to); w.write(transfers.fromTrip); w.write(transfers.toTrip)
        w.write(transfers.type); w.write(transfers.minimumSeconds)
        w.write(serviceID); w.write(firstDay); w.write(dayCount); w.write(serviceWords); w.write(serviceBits); w.write(dayBase)
        w.write(maxTime)
        w.write(strings)
        let shapesOffset = UInt64(w.count)
        w.write(shapes.ids); w.write(shapes.start); w.write(shapes.latE7); w.write(shapes.lonE7); w.write(shapes.distance)
        var lengths: [UInt8] = []
        withUnsafeBytes(of: shapesOffset.littleEndian) { lengths.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt64(w.count).littleEndian) { lengths.append(contentsOf: $0) }
        return lengths
    }

    /// Whether these bytes start like a snapshot (as opposed to a zip or a folder).
    public static func isSnapshot(_ prefix: [UInt8]) -> Bool { prefix.starts(with: SnapshotLayout.magic) }

    public init(snapshot bytes: [UInt8], path: String = "snapshot") throws(SnapshotError) {
        let result = bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Result<Timetable, SnapshotError> in
            do throws(SnapshotError) { return .success(try Timetable(snapshotBytes: raw, path: path)) } catch { return .failure(error) }
        }
        self = try result.get()
    }

    public static func loadSnapshot(from url: URL) throws(SnapshotError) -> Timetable {
        try SnapshotLayout.withFile(url) { (raw) throws(SnapshotError) -> Timetable in try Timetable(snapshotBytes: raw, path: url.path) }
    }

    init(snapshotBytes bytes: UnsafeRawBufferPointer, path: String) throws(SnapshotError) {
        _ = try SnapshotLayout.readHeader(bytes, path: path)
        var r = BinaryReader(bytes, offset: SnapshotLayout.headerSize)
        do {
            let feedJSON = try r.readString()
            feeds = (try? JSONDecoder().decode([FeedSummary].self, from: Data(feedJSON.utf8))) ?? []
            zoneIDs = try r.readStrings()
            zones = try zoneIDs.map { id in
                guard let z = TimeZone(identifier: id) else { throw SnapshotError(path: path, message: "unknown time zone '\(id)' on this system") }
                return z
            }
            agencyID = try r.readStrings(); agencyName = try r.readStrings(); agencyZone = try r.read()
            stopID = try r.readStrings(); stopName = try r.readStrings(); stopCode = try r.readStrings()
            stopLat = try r.read(); stopLon = try r.read(); stopKind = try r.read(); stopParent = try r.read()
            stopPlatform = try r.readStrings(); stopWheelchair = try r.read(); stopZone = try r.read(); stopFoldedName = try r.readStrings(); stopOrder = try r.read()
            stationChildren = Jagged(start: try r.read(), values: try r.read())
            routeID = try r.readStrings(); routeShortName = try r.readStrings(); routeLongName = try r.readStrings()
            routeType = try r.read(); routeAgency = try r.read(); routeColor = try r.readStrings(); routeTextColor = try r.readStrings()
            tripID = try r.readStrings(); tripRoute = try r.read(); tripService = try r.read(); tripHeadsign = try r.read()
            tripShortName = try r.read(); tripDirection = try r.read(); tripWheelchair = try r.read(); tripBlock = try r.read(); tripShape = try r.read()
            tripPattern = try r.read(); tripTimes = try r.read(); tripShift = try r.read(); tripZone = try r.read(); tripOrder = try r.read()
            tripFrequencies = Jagged(start: try r.read(), values: try r.read())
            frequencyStart = try r.read(); frequencyEnd = try r.read(); frequencyHeadway = try r.read(); frequencyExact = try r.read()
            patternStart = try r.read(); patternStop = try r.read(); patternFlags = try r.read()
            patternSequence = try r.read(); patternHeadsign = try r.read()
            arrivals = try r.read(); departures = try r.read()
            stopTimeCount = Self.stopTimes(tripPattern, patternStart)
            var indices: [EventIndex] = []
            for _ in 0..<4 { indices.append(EventIndex(start: try r.read(), trip: try r.read(), position: try r.read())) }
            departureIndex = indices[0]; arrivalIndex = indices[1]
            frequencyDepartureIndex = indices[2]; frequencyArrivalIndex = indices[3]
            transfers = TransferTable(from: try r.read(), to: try r.read(), fromTrip: try r.read(), toTrip: try r.read(),
                                      type: try r.read(), minimumSeconds: try r.read())
            serviceID = try r.readStrings(); firstDay = try r.read(); dayCount = try r.read(); serviceWords = try r.read()
            serviceBits = try r.read(); dayBase = try r.read(); maxTime = try r.read()
            strings = try r.readStrings()
        } catch let e as SnapshotError {
            throw e
        } catch {
            throw SnapshotError(path: path, message: "the snapshot is truncated or corrupt; run `onward import` again")
        }
        try validateSnapshot(path: path)
    }

    /// Cross-checks the arrays' sizes and the indices they hold, so a corrupt
    /// file fails here rather than with an out-of-range crash in a query.
    private func validateSnapshot(path: String) throws(SnapshotError) {
        let s = stopID.count, t = tripID.count
        let stopTimes = UInt32(arrivals.count)
        let ok = [stopName.count, stopCode.count, stopLat.count, stopLon.count, stopKind.count, stopParent.count,
                  stopPlatform.count, stopWheelchair.count, stopZone.count, stopFoldedName.count, stopOrder.count].allSatisfy { $0 == s }
            && [tripRoute.count, tripService.count, tripHeadsign.count, tripPattern.count, tripTimes.count, tripZone.count,
                tripOrder.count, tripShape.count, tripDirection.count, tripWheelchair.count, tripBlock.count, tripShortName.count].allSatisfy { $0 == t }
            && arrivals.count == departures.count
            && [departureIndex, arrivalIndex, frequencyDepartureIndex, frequencyArrivalIndex].allSatisfy {
                $0.start.count == s + 1 && $0.trip.count == $0.position.count && Int($0.start.last ?? 0) == $0.trip.count
                    && $0.trip.allSatisfy { Int($0) < t }
            }
            && dayBase.count == zoneIDs.count * Int(dayCount)
            && serviceBits.count == serviceID.count * Int(serviceWords)
            && patternStart.last.map { Int($0) == patternStop.count } ?? false
            && patternStop.allSatisfy { Int($0) < s }
            && tripShift.count == t
            && tripPattern.allSatisfy { $0 == Timetable.none || Int($0) < patternStart.count - 1 }
            && tripTimes.indices.allSatisfy { i in
                tripPattern[i] == Timetable.none || Int(tripTimes[i]) + Int(patternStart[Int(tripPattern[i]) + 1]) - Int(patternStart[Int(tripPattern[i])]) <= Int(stopTimes)
            }
            && tripService.allSatisfy { Int($0) < serviceID.count }
            && tripRoute.allSatisfy { Int($0) < routeID.count }
            && [transfers.to.count, transfers.fromTrip.count, transfers.toTrip.count, transfers.type.count, transfers.minimumSeconds.count].allSatisfy { $0 == transfers.from.count }
            && (transfers.from + transfers.to).allSatisfy { $0 == Timetable.none || Int($0) < s }
            && (transfers.fromTrip + transfers.toTrip).allSatisfy { $0 == Timetable.none || Int($0) < t }
            && stopZone.allSatisfy { Int($0) < zoneIDs.count } && tripZone.allSatisfy { Int($0) < zoneIDs.count }
        guard ok else { throw SnapshotError(path: path, message: "the snapshot's tables do not fit together; run `onward import` again") }
    }
}

extension ShapeTable {
    /// Reads only the shapes section of a snapshot file.
    public static func loadSnapshot(from url: URL) throws(SnapshotError) -> ShapeTable {
        try SnapshotLayout.withFile(url) { (bytes) throws(SnapshotError) -> ShapeTable in
            let offset = try SnapshotLayout.readHeader(bytes, path: url.path)
            var r = BinaryReader(bytes, offset: offset)
            do {
                let table = ShapeTable(ids: try r.readStrings(), start: try r.read(), latE7: try r.read(), lonE7: try r.read(), distance: try r.read())
                guard table.start.count == table.ids.count + 1, Int(table.start.last ?? 0) == table.latE7.count,
                      table.lonE7.count == table.latE7.count, table.distance.count == table.latE7.count else { throw BinaryReader.Truncated() }
                return table
            } catch {
                throw SnapshotError(path: url.path, message: "the snapshot's shapes are truncated or corrupt; run `onward import` again")
            }
        }
    }
}
