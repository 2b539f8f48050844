import Foundation

/// Appends plain arrays to a byte buffer, little-endian as the machine stores
/// them. Numeric arrays are copied with one `memcpy`, so a snapshot loads at
/// memory speed rather than being parsed.
///
/// Made with a `sink`, it hands the bytes on as it goes instead of keeping them: a big array straight from its own
/// storage, the small things between in a buffer of a megabyte. A national snapshot (380 MB) was first built whole
/// in memory and then written, which took a third more time than writing it and held its size in memory once more.
struct BinaryWriter {
    private(set) var bytes: [UInt8] = []
    private let sink: ((UnsafeRawBufferPointer) throws -> Void)?
    private var handedOn = 0
    /// The sink's first error; nothing is handed on after it.
    private(set) var failure: (any Error)?

    init() { sink = nil }

    init(sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.sink = sink
        bytes.reserveCapacity(Self.buffered + (1 << 16))
    }

    private static let buffered = 1 << 20

    /// Bytes written so far, handed on or not.
    var count: Int { handedOn + bytes.count }

    /// Room for about this many bytes at once: a big snapshot's array otherwise grew by doubling, copying itself each time.
    mutating func reserve(_ n: Int) { if sink == nil { bytes.reserveCapacity(n) } }

    mutating func write<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func write<T: BitwiseCopyable>(_ array: [T]) {
        write(UInt64(array.count))
        array.withUnsafeBytes { raw in
            if sink != nil && raw.count >= Self.buffered {
                flush()
                handOn(raw)
            } else {
                bytes.append(contentsOf: raw)
            }
        }
        // Keep the next array 8-byte aligned.
        while count % 8 != 0 { bytes.append(0) }
        if sink != nil && bytes.count >= Self.buffered { flush() }
    }

    mutating func write(_ strings: [String]) {
        var offsets: [UInt32] = [0]
        var blob: [UInt8] = []
        offsets.reserveCapacity(strings.count + 1)
        for s in strings {
            blob.append(contentsOf: s.utf8)
            offsets.append(UInt32(blob.count))
        }
        write(offsets)
        write(blob)
    }

    mutating func write(_ string: String) { write([string]) }

    /// Hands on what the buffer holds (with a sink; without one, the bytes stay in `bytes`).
    mutating func flush() {
        guard let sink, !bytes.isEmpty else { return }
        handedOn += bytes.count
        if failure == nil {
            do { try bytes.withUnsafeBytes { try sink($0) } } catch { failure = error }
        }
        bytes.removeAll(keepingCapacity: true)
    }

    private mutating func handOn(_ raw: UnsafeRawBufferPointer) {
        handedOn += raw.count
        guard let sink, failure == nil else { return }
        do { try sink(raw) } catch { failure = error }
    }
}

/// Reads what `BinaryWriter` wrote; every read is bounds-checked, so a
/// truncated or corrupt file throws rather than crashing.
struct BinaryReader {
    struct Truncated: Error {}
    /// Valid only while the caller keeps the underlying storage alive (a mapped file or an array).
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    init(_ bytes: UnsafeRawBufferPointer, offset: Int = 0) { self.bytes = bytes; self.offset = offset }

    mutating func read<T: FixedWidthInteger>(_: T.Type = T.self) throws -> T {
        let size = MemoryLayout<T>.size
        guard offset + size <= bytes.count else { throw Truncated() }
        var value = T.zero
        _ = withUnsafeMutableBytes(of: &value) { dst in memcpy(dst.baseAddress!, bytes.baseAddress! + offset, size) }
        offset += size
        return T(littleEndian: value)
    }

    mutating func read<T: BitwiseCopyable>(_: [T].Type = [T].self) throws -> [T] {
        let rawCount = try read(UInt64.self)
        guard rawCount <= UInt64(bytes.count) else { throw Truncated() }
        let count = Int(rawCount)
        let size = count * MemoryLayout<T>.stride
        guard offset + size <= bytes.count else { throw Truncated() }
        let result = [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            if size > 0 { memcpy(UnsafeMutableRawPointer(buffer.baseAddress!), bytes.baseAddress! + offset, size) }
            initialized = count
        }
        offset += size
        while offset % 8 != 0 { offset += 1 }
        return result
    }

    mutating func readStrings() throws -> [String] {
        let offsets: [UInt32] = try read()
        let blob: [UInt8] = try read()
        guard let last = offsets.last, Int(last) <= blob.count else { throw Truncated() }
        // Every offset must lie in the blob and never go backwards, or a corrupt file would slice past it.
        for i in 1..<offsets.count where offsets[i] < offsets[i - 1] { throw Truncated() }
        var result: [String] = []
        result.reserveCapacity(max(offsets.count - 1, 0))
        blob.withUnsafeBufferPointer { b in
            for i in 0..<max(offsets.count - 1, 0) {
                let lo = Int(offsets[i]), hi = Int(offsets[i + 1])
                result.append(lo < hi ? String(decoding: UnsafeBufferPointer(rebasing: b[lo..<hi]), as: UTF8.self) : "")
            }
        }
        return result
    }

    mutating func readString() throws -> String {
        guard let s = try readStrings().first else { throw Truncated() }
        return s
    }
}
