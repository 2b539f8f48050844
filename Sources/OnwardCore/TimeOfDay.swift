/// Parses and formats GTFS times: `H:MM:SS` or `HH:MM:SS`, hours may exceed 23
/// because a service day can run past midnight.
public enum GTFSTime {
    /// Seconds since "noon minus 12 hours" of the service day, or nil if malformed.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
        var i = 0
        let n = bytes.count
        var parts: (Int32, Int32, Int32) = (0, 0, 0)
        var index = 0
        var digits = 0
        var value: Int32 = 0
        while i < n {
            let c = bytes[i]
            if c >= 48 && c <= 57 {
                value = value * 10 + Int32(c - 48)
                digits += 1
                if digits > 3 { return nil }
            } else if c == 58 { // ':'
                // Hours may have one digit ("5:00:00"); minutes must have two.
                guard digits > 0, index < 2, index == 0 || digits == 2 else { return nil }
                if index == 0 { parts.0 = value } else { parts.1 = value }
                index += 1; value = 0; digits = 0
            } else {
                return nil
            }
            i += 1
        }
        guard index == 2, digits == 2 else { return nil }
        parts.2 = value
        guard parts.1 < 60, parts.2 < 60 else { return nil }
        return parts.0 * 3600 + parts.1 * 60 + parts.2
    }

    public static func parse(_ text: String) -> Int32? {
        var copy = text
        return copy.withUTF8 { parse($0) }
    }

    /// `HH:MM:SS`, with hours past 23 kept (e.g. `25:10:00`).
    public static func format(_ seconds: Int32) -> String {
        let s = Int(seconds)
        return pad(s / 3600, 2) + ":" + pad(s / 60 % 60, 2) + ":" + pad(s % 60, 2)
    }
}
