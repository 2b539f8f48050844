/// Small byte-level parsers for GTFS field values. They read the bytes the CSV
/// reader hands out, so the hot loop over stop_times makes no `String`s.
enum FieldParsing {
    @inline(__always)
    static func int(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !b.isEmpty else { return nil }
        var i = 0
        var negative = false
        if b[0] == 45 { negative = true; i = 1 } else if b[0] == 43 { i = 1 }
        guard i < b.count, b.count - i <= 18 else { return nil }
        var v = 0
        while i < b.count {
            let c = b[i]
            guard c >= 48 && c <= 57 else { return nil }
            v = v * 10 + Int(c - 48)
            i += 1
        }
        return negative ? -v : v
    }

    /// Decimal numbers as feeds write them ("12.5", "-6.28", "1e3"); nil if malformed.
    static func double(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        guard !b.isEmpty else { return nil }
        var i = 0
        var negative = false
        if b[0] == 45 { negative = true; i = 1 } else if b[0] == 43 { i = 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        var seenDot = false
        while i < b.count {
            let c = b[i]
            if c >= 48 && c <= 57 {
                if digits < 18 { mantissa = mantissa * 10 + UInt64(c - 48); digits += 1; if seenDot { scale += 1 } }
                else if !seenDot { scale -= 1 }
            } else if c == 46 && !seenDot {
                seenDot = true
            } else {
                // Exponents and anything unusual: let the standard library decide.
                return Double(String(decoding: b, as: UTF8.self))
            }
            i += 1
        }
        guard digits > 0 else { return nil }
        var v = Double(mantissa)
        if scale > 0 { v /= pow10(scale) } else if scale < 0 { v *= pow10(-scale) }
        return negative ? -v : v
    }

    private static let powers: [Double] = (0...22).map { p in (0..<p).reduce(1.0) { r, _ in r * 10 } }
    @inline(__always) static func pow10(_ n: Int) -> Double { n < powers.count ? powers[n] : (0..<n).reduce(1.0) { r, _ in r * 10 } }

    @inline(__always)
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: [UInt8]) -> Bool {
        a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b, a.count) == 0)
    }
}

import Foundation
