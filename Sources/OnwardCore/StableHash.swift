/// FNV-1a, 64 bits: a hash that is the same in every process and on every machine
/// (Swift's `Hasher` is seeded per run), for IDs made from text and content versions.
public enum StableHash {
    public static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// `fnv1a` as 16 lower-case hex digits.
    public static func hex(_ text: String) -> String {
        let hex = String(fnv1a(text), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
