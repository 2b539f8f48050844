import DataSources
import Foundation
import OnwardCore
import GTFSRealtime
import OnwardTesting
import SwiftProtobuf
import Testing

// The hand-written wire decoder must read exactly what SwiftProtobuf reads.

/// What the fast decoder gives, next to SwiftProtobuf's message converted to the same records.
private func bothWays(_ bytes: Data) throws -> (wire: RealtimeMessage, reference: RealtimeMessage) {
    (try RealtimeFeed.decode(bytes, source: "test"), RealtimeMessage(try TransitRealtime_FeedMessage(serializedBytes: bytes)))
}

private func expectSame(_ a: RealtimeMessage, _ b: RealtimeMessage, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    #expect(a.version == b.version, sourceLocation: sourceLocation)
    #expect(a.isFullDataset == b.isFullDataset, sourceLocation: sourceLocation)
    #expect(a.timestamp == b.timestamp, sourceLocation: sourceLocation)
    #expect(a.entityCount == b.entityCount, sourceLocation: sourceLocation)
    #expect(a.tripUpdates == b.tripUpdates, sourceLocation: sourceLocation)
    #expect(a.others == b.others, sourceLocation: sourceLocation)
}

/// A protobuf key: field number and wire type.
private func key(_ field: UInt64, _ type: UInt64) -> [UInt8] { varint(field << 3 | type) }

private func varint(_ v: UInt64) -> [UInt8] {
    var v = v, out: [UInt8] = []
    while v >= 0x80 { out.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
    out.append(UInt8(v))
    return out
}

/// A field of every wire type, with numbers no GTFS-Realtime message uses.
private let unknownFields: [UInt8] = key(900, 0) + varint(300) + key(901, 1) + [UInt8](repeating: 7, count: 8)
    + key(902, 2) + varint(3) + Array("abc".utf8) + key(903, 5) + [1, 2, 3, 4]

private func header() -> TransitRealtime_FeedHeader {
    var h = TransitRealtime_FeedHeader()
    h.gtfsRealtimeVersion = "2.0"
    h.incrementality = .differential
    h.timestamp = 1_762_463_054
    return h
}

@Suite("GTFS-Realtime wire decoder")
struct WireDecoderTests {
    @Test("every real capture reads the same as with SwiftProtobuf", arguments: [
        "halifax/TripUpdates-2025-11-06T2104Z.pb", "halifax/VehiclePositions-2025-11-06T2102Z.pb", "halifax/Alerts-2025-11-06T2104Z.pb",
        "caltrain/ct-trip-updates-2023-11-08T0105Z.pb", "caltrain/ct-vehicle-positions-2023-11-08T0105Z.pb",
        "caltrain/ct-service-alerts-2023-11-08T0105Z-empty.pb",
        "bart/bart-trip-updates-2019-08-07T1745Z.pb", "bart/bart-trip-updates-2019-05-28T0202Z.pb", "bart/bart-alerts-2019-08-07T1745Z.pb",
    ])
    func captures(path: String) throws {
        let url = Fixtures.sharedData.appendingPathComponent("gtfs-rt").appendingPathComponent(path)
        try #require(FileManager.default.fileExists(atPath: url.path), "needs ../shared/data")
        let (wire, reference) = try bothWays(try Data(contentsOf: url))
        expectSame(wire, reference)
        if path.hasPrefix("halifax/TripUpdates") {
            #expect(wire.tripUpdates.count == 511)
            #expect(wire.tripUpdates.reduce(0) { $0 + $1.stopTimeUpdates.count } == 17_041)
            #expect(wire.others.entity.isEmpty)
        }
    }

    @Test("every field the applier reads, including negative delays, platform changes and trip properties")
    func everyField() throws {
        var m = TransitRealtime_FeedMessage()
        m.header = header()
        var u = TransitRealtime_TripUpdate()
        u.trip.tripID = "T1"; u.trip.routeID = "R"; u.trip.directionID = 1
        u.trip.startTime = "25:10:00"; u.trip.startDate = "20251106"; u.trip.scheduleRelationship = .added
        u.vehicle.id = "V9"; u.vehicle.label = "Bus 9"
        u.timestamp = 1_762_463_000
        u.delay = -45
        u.tripProperties.tripHeadsign = "Bridge Terminal"
        var s1 = TransitRealtime_TripUpdate.StopTimeUpdate()
        s1.stopSequence = 3; s1.stopID = "A"
        s1.arrival.delay = -120; s1.arrival.uncertainty = 30
        s1.departure.time = 1_762_463_100
        s1.stopTimeProperties.assignedStopID = "A2"
        var s2 = TransitRealtime_TripUpdate.StopTimeUpdate()
        s2.stopID = "Ünïcode stop"; s2.scheduleRelationship = .skipped
        var s3 = TransitRealtime_TripUpdate.StopTimeUpdate()
        s3.stopSequence = 9; s3.scheduleRelationship = .noData
        u.stopTimeUpdate = [s1, s2, s3]
        var e = TransitRealtime_FeedEntity()
        e.id = "e1"; e.tripUpdate = u
        var deleted = TransitRealtime_FeedEntity()
        deleted.id = "gone"; deleted.isDeleted = true; deleted.tripUpdate.trip.tripID = "T2"
        m.entity = [e, deleted]
        let (wire, reference) = try bothWays(try m.serializedData())
        expectSame(wire, reference)
        let r = try #require(wire.tripUpdates.first)
        #expect(r.relationship == .added)
        #expect(r.delay == -45)
        #expect(r.stopTimeUpdates[0].arrival?.delay == -120)
        #expect(r.stopTimeUpdates[0].assignedStopID == "A2")
        #expect(r.stopTimeUpdates[1].stopID == "Ünïcode stop")
        #expect(r.stopTimeUpdates[2].relationship == .noData)
        #expect(wire.tripUpdates[1].isDeleted)
    }

    @Test("unknown fields of every wire type are skipped, at the top and inside a stop time update")
    func unknownFieldsSkipped() throws {
        var stu = TransitRealtime_TripUpdate.StopTimeUpdate()
        stu.stopSequence = 1; stu.departure.delay = 60
        // SwiftProtobuf keeps unknown fields, so the nested ones go back on the wire.
        stu = try TransitRealtime_TripUpdate.StopTimeUpdate(serializedBytes: try stu.serializedData() + Data(unknownFields))
        var m = TransitRealtime_FeedMessage()
        m.header = header()
        var e = TransitRealtime_FeedEntity()
        e.id = "e"; e.tripUpdate.trip.tripID = "T1"; e.tripUpdate.stopTimeUpdate = [stu]
        m.entity = [e]
        let bytes = try m.serializedData() + Data(unknownFields)
        let wire = try RealtimeFeed.decode(bytes, source: "unknown")
        #expect(wire.tripUpdates.count == 1)
        #expect(wire.tripUpdates[0].stopTimeUpdates == [StopTimeUpdateRecord(TransitRealtime_TripUpdate.StopTimeUpdate(stopSequence: 1, departureDelay: 60))])
    }

    @Test("a known field number with an unexpected wire type is skipped, not misread")
    func wrongWireType() throws {
        var m = TransitRealtime_FeedMessage()
        m.header = header()
        // Entity field 2 (is_deleted, a varint) sent length-delimited; trip_update field 3 as a varint.
        let entity: [UInt8] = key(1, 2) + varint(1) + Array("e".utf8) + key(2, 2) + varint(1) + [1] + key(3, 0) + varint(5)
        let bytes = try m.serializedData() + Data(key(2, 2) + varint(UInt64(entity.count)) + entity)
        let wire = try RealtimeFeed.decode(bytes, source: "odd")
        #expect(wire.entityCount == 1)
        #expect(wire.tripUpdates.isEmpty)
    }

    @Test("an entity with a trip update and a vehicle gives both")
    func mixedEntity() throws {
        var m = TransitRealtime_FeedMessage()
        m.header = header()
        var e = TransitRealtime_FeedEntity()
        e.id = "both"; e.tripUpdate.trip.tripID = "T1"; e.vehicle.trip.tripID = "T1"; e.vehicle.position.latitude = 44.6; e.vehicle.position.longitude = -63.6
        var alert = TransitRealtime_FeedEntity()
        alert.id = "a"; alert.alert.headerText.translation = [.with { $0.text = "Detour" }]
        m.entity = [e, alert]
        let (wire, reference) = try bothWays(try m.serializedData())
        expectSame(wire, reference)
        #expect(wire.tripUpdates.count == 1)
        #expect(wire.hasVehicles && wire.hasAlerts)
    }

    @Test("bad bytes say what is wrong and where", arguments: [
        ("no header", key(2, 2) + varint(0)),
        ("header without a version", key(1, 2) + varint(2) + key(3, 0) + varint(5)),
        ("truncated varint", key(1, 2) + [0x80]),
        ("a length past the end", key(1, 2) + varint(50) + [1, 2]),
        ("a group (wire type 3)", key(1, 3)),
        ("field number 0", [0x00]),
    ] as [(String, [UInt8])])
    func badBytes(name: String, bytes: [UInt8]) {
        do {
            _ = try RealtimeFeed.decode(Data(bytes), source: "bad.pb")
            Issue.record("\(name): decoded")
        } catch {
            #expect(error.code == .undecodable, "\(name)")
            #expect(error.message.contains("bad.pb"), "\(name): \(error.message)")
        }
    }

    @Test("a truncated real capture fails at every cut, never crashes")
    func truncatedCapture() throws {
        let url = Fixtures.sharedData.appendingPathComponent("gtfs-rt/caltrain/ct-trip-updates-2023-11-08T0105Z.pb")
        try #require(FileManager.default.fileExists(atPath: url.path), "needs ../shared/data")
        let bytes = try Data(contentsOf: url)
        var failures = 0
        for cut in stride(from: 1, to: bytes.count, by: 7) {
            do { _ = try RealtimeFeed.decode(bytes.prefix(cut), source: "cut") } catch { failures += 1 }
        }
        // A cut that lands exactly between two entities is a valid, shorter message; most cuts are not.
        #expect(failures > bytes.count / 7 * 9 / 10)
    }
}

private extension TransitRealtime_TripUpdate.StopTimeUpdate {
    init(stopSequence: UInt32, departureDelay: Int32) {
        self.init()
        self.stopSequence = stopSequence
        departure.delay = departureDelay
    }
}
