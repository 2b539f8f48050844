import Foundation
import OnwardCore

/// A problem reading a snapshot file.
public struct SnapshotError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "\(path): \(message)" }
}

extension Timetable {
    /// Identifies the file type and layout version; bump the version whenever the layout changes.
    static let snapshotMagic: [UInt8] = Array("ONWARDTT".utf8)
    static let snapshotVersion: UInt32 = 1

    /// The compiled timetable as bytes, ready to be written to a file.
    public func snapshotData() -> [UInt8] {
        var w = BinaryWriter()
        for b in Timetable.snapshotMagic { w.write(b) }
        w.write(Timetable.snapshotVersion)
        w.write(UInt32(0))
        let feedJSON = (try? JSONEncoder().encode(feeds)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        w.write(feedJSON)
        w.write(zoneIDs)
        w.write(agencyID); w.write(agencyName); w.write(agencyZone)
        w.write(stopID); w.write(stopName); w.write(stopCode); w.write(stopLat); w.write(stopLon); w.write(stopKind)
        w.write(stopParent); w.write(stopPlatform); w.write(stopZone); w.write(stopFoldedName); w.write(stopOrder)
        w.write(stationChildren.start); w.write(stationChildren.values)
        w.write(routeID); w.write(routeShortName); w.write(routeLongName); w.write(routeType); w.write(routeAgency)
        w.write(routeColor); w.write(routeTextColor)
        w.write(tripID); w.write(tripRoute); w.write(tripService); w.write(tripHeadsign); w.write(tripShortName)
        w.write(tripDirection); w.write(tripBlock); w.write(tripPattern); w.write(tripTimes); w.write(tripZone); w.write(tripOrder)
        w.write(tripFrequencies.start); w.write(tripFrequencies.values)
        w.write(frequencyStart); w.write(frequencyEnd); w.write(frequencyHeadway); w.write(frequencyExact)
        w.write(patternStart); w.write(patternStop); w.write(patternFlags); w.write(patternSequence); w.write(patternHeadsign)
        w.write(arrivals); w.write(departures)
        for index in [departureIndex, arrivalIndex, frequencyDepartureIndex, frequencyArrivalIndex] {
            w.write(index.start); w.write(index.trip); w.write(index.position)
        }
        w.write(serviceID); w.write(firstDay); w.write(dayCount); w.write(serviceWords); w.write(serviceBits); w.write(dayBase)
        w.write(maxTime)
        w.write(strings)
        return w.bytes
    }

    public func writeSnapshot(to url: URL) throws {
        let data = snapshotData()
        try Data(data).write(to: url, options: .atomic)
    }

    /// Whether these bytes start like a snapshot (as opposed to a zip or a folder).
    public static func isSnapshot(_ prefix: [UInt8]) -> Bool { prefix.starts(with: snapshotMagic) }

    public init(snapshot bytes: [UInt8], path: String = "snapshot") throws(SnapshotError) {
        guard Timetable.isSnapshot(bytes) else { throw SnapshotError(path: path, message: "not an Onward timetable snapshot") }
        var r = BinaryReader(bytes, offset: Timetable.snapshotMagic.count)
        do {
            let version: UInt32 = try r.read()
            guard version == Timetable.snapshotVersion else {
                throw SnapshotError(path: path, message: "snapshot format version \(version); this build reads version \(Timetable.snapshotVersion). Run `onward import` again.")
            }
            _ = try r.read(UInt32.self)
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
            stopPlatform = try r.readStrings(); stopZone = try r.read(); stopFoldedName = try r.readStrings(); stopOrder = try r.read()
            stationChildren = Jagged(start: try r.read(), values: try r.read())
            routeID = try r.readStrings(); routeShortName = try r.readStrings(); routeLongName = try r.readStrings()
            routeType = try r.read(); routeAgency = try r.read(); routeColor = try r.readStrings(); routeTextColor = try r.readStrings()
            tripID = try r.readStrings(); tripRoute = try r.read(); tripService = try r.read(); tripHeadsign = try r.read()
            tripShortName = try r.read(); tripDirection = try r.read(); tripBlock = try r.read(); tripPattern = try r.read()
            tripTimes = try r.read(); tripZone = try r.read(); tripOrder = try r.read()
            tripFrequencies = Jagged(start: try r.read(), values: try r.read())
            frequencyStart = try r.read(); frequencyEnd = try r.read(); frequencyHeadway = try r.read(); frequencyExact = try r.read()
            patternStart = try r.read(); patternStop = try r.read(); patternFlags = try r.read()
            patternSequence = try r.read(); patternHeadsign = try r.read()
            arrivals = try r.read(); departures = try r.read()
            var indices: [EventIndex] = []
            for _ in 0..<4 { indices.append(EventIndex(start: try r.read(), trip: try r.read(), position: try r.read())) }
            departureIndex = indices[0]; arrivalIndex = indices[1]
            frequencyDepartureIndex = indices[2]; frequencyArrivalIndex = indices[3]
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

    /// Cross-checks the arrays' sizes so a corrupt file fails here, not with an out-of-range crash in a query.
    private func validateSnapshot(path: String) throws(SnapshotError) {
        let s = stopID.count, t = tripID.count
        let ok = [stopName.count, stopCode.count, stopLat.count, stopLon.count, stopKind.count, stopParent.count,
                  stopPlatform.count, stopZone.count, stopFoldedName.count, stopOrder.count].allSatisfy { $0 == s }
            && [tripRoute.count, tripService.count, tripHeadsign.count, tripPattern.count, tripTimes.count, tripZone.count, tripOrder.count].allSatisfy { $0 == t }
            && arrivals.count == departures.count
            && [departureIndex, arrivalIndex, frequencyDepartureIndex, frequencyArrivalIndex].allSatisfy { $0.start.count == s + 1 && $0.trip.count == $0.position.count && Int($0.start.last ?? 0) == $0.trip.count }
            && dayBase.count == zoneIDs.count * Int(dayCount)
            && serviceBits.count == serviceID.count * Int(serviceWords)
            && patternStart.last.map { Int($0) == patternStop.count } ?? false
        guard ok else { throw SnapshotError(path: path, message: "the snapshot's tables do not fit together; run `onward import` again") }
    }

    public static func loadSnapshot(from url: URL) throws(SnapshotError) -> Timetable {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw SnapshotError(path: url.path, message: "cannot read the file (\(error.localizedDescription))")
        }
        return try Timetable(snapshot: [UInt8](data), path: url.path)
    }
}
