/// Reads protobuf wire format (varints, length-delimited fields) from a byte
/// buffer. Written by hand rather than using SwiftProtobuf's decoder for the
/// trip-update hot path: the benchmark (`onward-bench realtime`) showed
/// SwiftProtobuf's generic decoding took ~14 ms of an 18 ms decode-and-apply of
/// Halifax's capture, against a 5 ms target.
struct WireReader {
    enum WireType: UInt8 { case varint = 0, fixed64 = 1, lengthDelimited = 2, fixed32 = 5 }

    struct Failure: Error {
        var reason: String
        var offset: Int
    }

    let bytes: UnsafeRawBufferPointer
    /// Absolute offsets into `bytes`: where reading is, and where this message ends.
    private(set) var position: Int
    let end: Int

    init(_ bytes: UnsafeRawBufferPointer, from start: Int = 0, to end: Int? = nil) {
        self.bytes = bytes
        position = start
        self.end = end ?? bytes.count
    }

    var isAtEnd: Bool { position >= end }

    /// The next field's number and wire type.
    @inline(__always)
    mutating func tag() throws(Failure) -> (field: UInt32, type: WireType) {
        let start = position
        // Every field number of GTFS-Realtime below 16 fits a one-byte key.
        if position < end, bytes[position] < 0x80, let type = WireType(rawValue: bytes[position] & 7), bytes[position] >> 3 != 0 {
            position += 1
            return (UInt32(bytes[start] >> 3), type)
        }
        let key = try varint()
        guard let type = WireType(rawValue: UInt8(key & 7)) else {
            throw Failure(reason: "unsupported wire type \(key & 7)", offset: start)
        }
        let field = UInt32(truncatingIfNeeded: key >> 3)
        guard field > 0 else { throw Failure(reason: "field number 0", offset: start) }
        return (field, type)
    }

    @inline(__always)
    mutating func varint() throws(Failure) -> UInt64 {
        if position < end, bytes[position] < 0x80 {
            position += 1
            return UInt64(bytes[position - 1])
        }
        return try longVarint()
    }

    private mutating func longVarint() throws(Failure) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while position < end {
            let byte = bytes[position]
            position += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
            if shift >= 64 { throw Failure(reason: "varint longer than 10 bytes", offset: position) }
        }
        throw Failure(reason: "truncated varint", offset: position)
    }

    /// A length-delimited field's extent, as absolute offsets; reading moves past it.
    mutating func lengthDelimited() throws(Failure) -> Range<Int> {
        let length = try varint()
        guard length <= UInt64(end - position) else {
            throw Failure(reason: "a field of \(length) bytes runs past the end of its message", offset: position)
        }
        let start = position
        position += Int(length)
        return start..<position
    }

    mutating func string() throws(Failure) -> String {
        let range = try lengthDelimited()
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    mutating func uint32() throws(Failure) -> UInt32 { UInt32(truncatingIfNeeded: try varint()) }
    /// int32 and enums are sign-extended to 64 bits on the wire.
    mutating func int32() throws(Failure) -> Int32 { Int32(truncatingIfNeeded: try varint()) }
    mutating func int64() throws(Failure) -> Int64 { Int64(bitPattern: try varint()) }

    /// A reader over a nested message.
    mutating func message() throws(Failure) -> WireReader {
        let range = try lengthDelimited()
        return WireReader(bytes, from: range.lowerBound, to: range.upperBound)
    }

    mutating func skip(_ type: WireType) throws(Failure) {
        switch type {
        case .varint: _ = try varint()
        case .lengthDelimited: _ = try lengthDelimited()
        case .fixed64: try advance(8)
        case .fixed32: try advance(4)
        }
    }

    private mutating func advance(_ n: Int) throws(Failure) {
        guard end - position >= n else { throw Failure(reason: "truncated fixed-width field", offset: position) }
        position += n
    }
}
