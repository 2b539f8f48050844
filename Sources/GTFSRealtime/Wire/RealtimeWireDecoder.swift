import Foundation
import SwiftProtobuf

/// Decodes a GTFS-Realtime `FeedMessage` from wire format: trip updates by
/// hand into `TripUpdateRecord`s (see `WireReader` for why), every other
/// entity with SwiftProtobuf. Field numbers are those of gtfs-realtime.proto.
/// Unknown fields and fields of an unexpected wire type are skipped, as
/// protobuf requires.
enum RealtimeWireDecoder {
    static func decode(_ data: Data) throws(WireReader.Failure) -> RealtimeMessage {
        do {
            return try data.withUnsafeBytes { raw in try decodeMessage(raw) }
        } catch let failure as WireReader.Failure {
            throw failure
        } catch {
            throw WireReader.Failure(reason: "\(error)", offset: 0)
        }
    }

    private static func decodeMessage(_ raw: UnsafeRawBufferPointer) throws -> RealtimeMessage {
        var message = RealtimeMessage()
        var reader = WireReader(raw)
        var sawHeader = false
        while !reader.isAtEnd {
            let (field, type) = try reader.tag()
            switch (field, type) {
            case (1, .lengthDelimited):
                let range = try reader.lengthDelimited()
                message.others.header = try TransitRealtime_FeedHeader(serializedBytes: Data(raw[range]))
                sawHeader = true
            case (2, .lengthDelimited):
                var entity = try reader.message()
                message.entityCount += 1
                try decodeEntity(&entity, raw: raw, into: &message)
            default:
                try reader.skip(type)
            }
        }
        guard sawHeader else { throw WireReader.Failure(reason: "no feed header", offset: 0) }
        let header = message.others.header
        message.version = header.gtfsRealtimeVersion
        message.isFullDataset = header.incrementality == .fullDataset
        message.timestamp = header.hasTimestamp ? header.timestamp : nil
        return message
    }

    /// A trip-update entity is read by hand; any other (or one that also
    /// carries a vehicle or an alert) is handed whole to SwiftProtobuf.
    private static func decodeEntity(_ reader: inout WireReader, raw: UnsafeRawBufferPointer,
                                     into message: inout RealtimeMessage) throws {
        let whole = reader.position..<reader.end
        var record = TripUpdateRecord()
        var hasTripUpdate = false, hasOther = false
        while !reader.isAtEnd {
            let (field, type) = try reader.tag()
            switch (field, type) {
            case (1, .lengthDelimited): record.entityID = try reader.string()
            case (2, .varint): record.isDeleted = try reader.varint() != 0
            case (3, .lengthDelimited):
                var update = try reader.message()
                try decodeTripUpdate(&update, into: &record)
                hasTripUpdate = true
            default:
                hasOther = true
                try reader.skip(type)
            }
        }
        if hasTripUpdate { message.tripUpdates.append(record) }
        if hasOther || !hasTripUpdate {
            message.others.entity.append(try TransitRealtime_FeedEntity(serializedBytes: Data(raw[whole])))
        }
    }

    private static func decodeTripUpdate(_ reader: inout WireReader, into record: inout TripUpdateRecord) throws(WireReader.Failure) {
        // Counting the stop time updates first (skipping is cheap) saves growing the array as they come.
        var counter = reader, count = 0
        while !counter.isAtEnd {
            let (field, type) = try counter.tag()
            if field == 2 && type == .lengthDelimited { count += 1 }
            try counter.skip(type)
        }
        record.stopTimeUpdates.reserveCapacity(count)
        while !reader.isAtEnd {
            let (field, type) = try reader.tag()
            switch (field, type) {
            case (1, .lengthDelimited):
                var trip = try reader.message()
                try decodeTripDescriptor(&trip, into: &record)
            case (2, .lengthDelimited):
                var stu = try reader.message()
                // Decoded in place: returning a record and appending it copied it, and its strings'
                // retains and releases were a tenth of the decode.
                record.stopTimeUpdates.append(StopTimeUpdateRecord())
                try decodeStopTimeUpdate(&stu, into: &record.stopTimeUpdates[record.stopTimeUpdates.count - 1])
            case (3, .lengthDelimited):
                var vehicle = try reader.message()
                while !vehicle.isAtEnd {
                    let (f, t) = try vehicle.tag()
                    switch (f, t) {
                    case (1, .lengthDelimited): record.vehicleID = try vehicle.string()
                    case (2, .lengthDelimited): record.vehicleLabel = try vehicle.string()
                    default: try vehicle.skip(t)
                    }
                }
            case (4, .varint): record.timestamp = try reader.varint()
            case (5, .varint): record.delay = try reader.int32()
            case (6, .lengthDelimited):
                var properties = try reader.message()
                while !properties.isAtEnd {
                    let (f, t) = try properties.tag()
                    if f == 5, t == .lengthDelimited { record.tripHeadsign = try properties.string() } else { try properties.skip(t) }
                }
            default: try reader.skip(type)
            }
        }
    }

    private static func decodeTripDescriptor(_ reader: inout WireReader, into record: inout TripUpdateRecord) throws(WireReader.Failure) {
        while !reader.isAtEnd {
            let (field, type) = try reader.tag()
            switch (field, type) {
            case (1, .lengthDelimited): record.tripID = try reader.string()
            case (2, .lengthDelimited): record.startTime = try reader.string()
            case (3, .lengthDelimited): record.startDate = try reader.string()
            // An enum value this version does not know leaves the field unset, as in SwiftProtobuf's proto2 decoding.
            case (4, .varint): record.relationship = .init(rawValue: Int(try reader.int32())) ?? .scheduled
            case (5, .lengthDelimited): record.routeID = try reader.string()
            case (6, .varint): record.directionID = try reader.uint32()
            default: try reader.skip(type)
            }
        }
    }

    private static func decodeStopTimeUpdate(_ reader: inout WireReader, into stu: inout StopTimeUpdateRecord) throws(WireReader.Failure) {
        while !reader.isAtEnd {
            let (field, type) = try reader.tag()
            switch (field, type) {
            case (1, .varint): stu.stopSequence = try reader.uint32()
            case (2, .lengthDelimited):
                var event = try reader.message()
                stu.arrival = try decodeEvent(&event)
            case (3, .lengthDelimited):
                var event = try reader.message()
                stu.departure = try decodeEvent(&event)
            case (4, .lengthDelimited): stu.stopID = try reader.string()
            case (5, .varint): stu.relationship = .init(rawValue: Int(try reader.int32())) ?? .scheduled
            case (6, .lengthDelimited):
                var properties = try reader.message()
                while !properties.isAtEnd {
                    let (f, t) = try properties.tag()
                    if f == 1, t == .lengthDelimited { stu.assignedStopID = try properties.string() } else { try properties.skip(t) }
                }
            default: try reader.skip(type)
            }
        }
    }

    private static func decodeEvent(_ reader: inout WireReader) throws(WireReader.Failure) -> StopTimeEventRecord {
        var event = StopTimeEventRecord()
        while !reader.isAtEnd {
            let (field, type) = try reader.tag()
            switch (field, type) {
            case (1, .varint): event.delay = try reader.int32()
            case (2, .varint): event.time = try reader.int64()
            default: try reader.skip(type)
            }
        }
        return event
    }
}
