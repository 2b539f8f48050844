import Foundation

/// IDs looked up by their bytes, as the CSV reader hands them over: no `String` is made and no
/// SipHash computed per row. Written here rather than using `Dictionary<String, UInt32>` because
/// the import benchmark (`perf` over `onward import` of a 1.3-million-row feed) showed making a
/// string of each row's stop_id and hashing it into the dictionary was a fifth of the import.
/// Open addressing with linear probing, FNV-1a over the bytes; built once, then only read.
struct ByteKeyIndex: Sendable {
    private var slots: [Int32]          // index into `entries`, or -1
    private var entries: [(start: Int, count: Int, value: UInt32)] = []
    private var bytes: [UInt8] = []
    private let mask: Int

    init(_ dictionary: [String: UInt32]) {
        var capacity = 16
        while capacity < dictionary.count * 2 { capacity <<= 1 }
        mask = capacity - 1
        slots = [Int32](repeating: -1, count: capacity)
        entries.reserveCapacity(dictionary.count)
        for (key, value) in dictionary {
            let start = bytes.count
            bytes.append(contentsOf: key.utf8)
            let count = bytes.count - start
            var slot = bytes.withUnsafeBufferPointer { Self.hash(UnsafeBufferPointer(rebasing: $0[start..<start + count])) } & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(entries.count)
            entries.append((start, count, value))
        }
    }

    /// The value stored for these bytes, or nil.
    func value(_ key: UnsafeBufferPointer<UInt8>) -> UInt32? {
        var slot = Self.hash(key) & mask
        return bytes.withUnsafeBufferPointer { stored -> UInt32? in
            while true {
                let e = slots[slot]
                if e < 0 { return nil }
                let entry = entries[Int(e)]
                if entry.count == key.count && (key.isEmpty || memcmp(stored.baseAddress! + entry.start, key.baseAddress!, key.count) == 0) {
                    return entry.value
                }
                slot = (slot + 1) & mask
            }
        }
    }

    @inline(__always)
    private static func hash(_ key: UnsafeBufferPointer<UInt8>) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }
}
