import Foundation
import OnwardCore
import SwiftProtobuf

/// Decodes a GTFS-Realtime `FeedMessage` from wire format: trip updates by
/// hand into `TripUpdateRecord`s (see `WireReader` for why), every other
/// entity with SwiftProtobuf. Field numbers are those of gtfs-realtime.proto.
/// Unknown fields and fields of an unexpected wire type are skipped, as
/// protobuf requires.
enum RealtimeWireDecoder {
    /// A message of at least this many bytes is decoded in two halves at once.
    static let splitBytes = 64 * 1024

    /// `parts`: how many threads decode a large message's entities (1 for a test's reference decode).
    static func decode(_ data: Data, parts: Int = 2) throws(WireReader.Failure) -> RealtimeMessage {
        do {
            return try data.withUnsafeBytes { raw in try decodeMessage(raw, parts: raw.count >= splitBytes ? parts : 1) }
        } catch let failure as WireReader.Failure {
            throw failure
        } catch {
            throw WireReader.Failure(reason: "\(error)", offset: 0)
        }
    }

    /// Reads the top level (the header, and where each entity lies), then the entities, in `parts`
    /// runs of consecutive entities at once, joined in order. Entities are independent, and on these
    /// two cores decoding was 40% of decode + apply (`onward-bench realtime`): halves cut it nearly in
    /// two. A failure is the one a front-to-back read meets first: an earlier run's before a later's,
    /// and an entity's before a fault in the framing after it.
    private static func decodeMessage(_ raw: UnsafeRawBufferPointer, parts: Int) throws -> RealtimeMessage {
        var header: TransitRealtime_FeedHeader?
        var entities: [Range<Int>] = []
        var framingFailure: (any Error)?
        var reader = WireReader(raw)
        do {
            while !reader.isAtEnd {
                let (field, type) = try reader.tag()
                switch (field, type) {
                case (1, .lengthDelimited):
                    let range = try reader.lengthDelimited()
                    header = try TransitRealtime_FeedHeader(serializedBytes: Data(raw[range]))
                case (2, .lengthDelimited): entities.append(try reader.lengthDelimited())
                default: try reader.skip(type)
                }
            }
        } catch {
            framingFailure = error
        }
        let runs = max(1, min(parts, entities.count / 32))
        var results = [Result<RealtimeMessage, any Error>](repeating: .success(RealtimeMessage()), count: runs)
        results.withUnsafeMutableBufferPointer { results in
            let runner = Runs(raw: raw, entities: entities, results: results)
            if runs == 1 { runner.decode(0) } else { DispatchQueue.concurrentPerform(iterations: runs) { runner.decode($0) } }
        }
        var message = try results[0].get()
        for result in results.dropFirst() {
            let part = try result.get()
            message.tripUpdates += part.tripUpdates
            message.others.entity += part.others.entity
        }
        if let framingFailure { throw framingFailure }
        message.entityCount = entities.count
        guard let header else { throw WireReader.Failure(reason: "no feed header", offset: 0) }
        message.others.header = header
        message.version = header.gtfsRealtimeVersion
        message.isFullDataset = header.incrementality == .fullDataset
        message.timestamp = header.hasTimestamp ? header.timestamp : nil
        return message
    }

    /// Runs of entities decoded at once. Unchecked: each run writes only its own result, and the bytes
    /// outlive the runs (`concurrentPerform` returns when every run has).
    private struct Runs: @unchecked Sendable {
        let raw: UnsafeRawBufferPointer
        let entities: [Range<Int>]
        let results: UnsafeMutableBufferPointer<Result<RealtimeMessage, any Error>>

        func decode(_ i: Int) {
            let run = entities.count * i / results.count..<entities.count * (i + 1) / results.count
            results[i] = Result {
                var part = RealtimeMessage()
                part.tripUpdates.reserveCapacity(run.count)
                for range in entities[run] {
                    var entity = WireReader(raw, from: range.lowerBound, to: range.upperBound)
                    try decodeEntity(&entity, raw: raw, into: &part)
                }
                return part
            }
        }
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
            // NO_DATA_AVAILABLE and values this version does not know leave it unset.
            case (7, .varint): stu.departureOccupancy = Occupancy.Level(gtfsRealtime: Int(try reader.int32()))
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
