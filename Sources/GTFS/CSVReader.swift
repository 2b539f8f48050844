/// A streaming CSV reader (RFC 4180, and CSV as feeds really are): fed chunks
/// of bytes of any size, it hands out complete records. Handles a UTF-8 BOM,
/// CRLF and LF line ends, quoted fields holding commas, quotes ("") or line
/// breaks, and blank lines. Works on bytes, never on `String`s, because
/// stop_times.txt has millions of rows and import speed is a feature.
public struct CSVReader {
    public struct MalformedError: Error, Sendable, Hashable {
        public var line: Int
        public var message: String
    }

    private var pending: [UInt8] = []
    private var atStart = true
    /// The physical line the next record starts on (1-based; counted from where the reader started).
    public private(set) var line = 1
    /// Field boundaries of the record being parsed. Plain buffers rather than
    /// arrays: appending to arrays here cost an allocation check per field.
    private let spans = FieldSpans()

    public init() {}

    /// A reader for bytes that start partway through a file, at the start of a record: no byte-order mark is looked for,
    /// and lines are counted from 1 there.
    public init(midFile: Bool) { atStart = !midFile }

    /// Whether everything fed so far ended with a complete record (nothing is held for the next chunk).
    public var isBetweenRecords: Bool { pending.isEmpty }

    /// Parses as many complete records as `chunk` finishes; keeps the rest for the next call.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (CSVRecord) throws -> Void) throws {
        var rest = chunk[...]
        // The record the last chunk left unfinished is completed a line at a time, so that the rest of the chunk is
        // parsed where it lies: appending each whole chunk to it copied every file once more (15% of an import).
        while !pending.isEmpty, !rest.isEmpty {
            let end = rest.firstIndex(of: 10).map { $0 + 1 } ?? rest.endIndex
            pending.append(contentsOf: rest[..<end])
            rest = rest[end...]
            try consumePending(final: false, body)
        }
        guard !rest.isEmpty else { return }
        // Parse straight from the caller's chunk, copying only the unfinished tail.
        let tail = UnsafeRawBufferPointer(rebasing: rest)
        let used = try parse(UnsafeBufferPointer(start: tail.baseAddress?.assumingMemoryBound(to: UInt8.self), count: tail.count),
                             final: false, mutable: false, body)
        pending.append(contentsOf: tail[used...])
    }

    /// Parses whatever is left at the end of the input.
    public mutating func finish(_ body: (CSVRecord) throws -> Void) throws {
        try consumePending(final: true, body)
    }

    private mutating func consumePending(final: Bool, _ body: (CSVRecord) throws -> Void) throws {
        var buffer = pending
        pending = []
        let used = try buffer.withUnsafeMutableBufferPointer { b in
            try parse(UnsafeBufferPointer(b), final: final, mutable: true, body)
        }
        if used < buffer.count { pending = Array(buffer[used...]) }
    }

    /// Returns how many bytes were consumed (complete records only, unless `final`).
    private mutating func parse(_ b: UnsafeBufferPointer<UInt8>, final: Bool, mutable: Bool,
                                _ body: (CSVRecord) throws -> Void) throws -> Int {
        guard let base = b.baseAddress else { return 0 }
        let n = b.count
        var pos = 0
        if atStart {
            if n < 3 && !final { return 0 }
            if n >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF { pos = 3 }
            atStart = false
        }
        let comma: UInt8 = 44, lf: UInt8 = 10, cr: UInt8 = 13, quote: UInt8 = 34
        while pos < n {
            let recordStart = pos
            var newlines = 0
            spans.count = 0
            var complete = false
            fields: while true {
                if pos < n && b[pos] == quote {
                    let openLine = line + newlines // where this quoted field opens, for the error below
                    var i = pos + 1
                    var hasEscapes = false
                    var closed = false
                    while i < n {
                        let c = b[i]
                        if c == quote {
                            if i + 1 < n && b[i + 1] == quote { hasEscapes = true; i += 2; continue }
                            if i + 1 >= n && !final { break } // cannot tell "" from " yet
                            closed = true
                            break
                        }
                        if c == lf { newlines += 1 }
                        i += 1
                    }
                    if !closed {
                        if final { throw MalformedError(line: openLine, message: "a quoted field that starts on line \(openLine) is never closed") }
                        return recordStart
                    }
                    spans.append(pos + 1, i, hasEscapes)
                    pos = i + 1
                    // Spaces or tabs after the closing quote are padding, as real feeds write (WMATA's agency.txt).
                    while pos < n && (b[pos] == 32 || b[pos] == 9) { pos += 1 }
                    // After the closing quote: a delimiter, a line end, or the end of input.
                    if pos < n && b[pos] == cr && (pos + 1 >= n || b[pos + 1] == lf) { pos += 1 }
                    if pos >= n {
                        if final { complete = true; break fields }
                        return recordStart
                    }
                    if b[pos] == comma { pos += 1; continue fields }
                    if b[pos] == lf { pos += 1; newlines += 1; complete = true; break fields }
                    throw MalformedError(line: line + newlines, message: "unexpected character after a closing quote")
                } else {
                    var i = pos
                    while i < n {
                        let c = b[i]
                        if c == comma || c == lf { break }
                        i += 1
                    }
                    if i >= n && !final { return recordStart }
                    var end = i
                    if end > pos && b[end - 1] == cr { end -= 1 }
                    spans.append(pos, end, false)
                    if i >= n { pos = n; complete = true; break fields }
                    pos = i + 1
                    if b[i] == comma {
                        if pos >= n && !final { return recordStart }
                        if pos >= n { spans.append(pos, pos, false); complete = true; break fields }
                        continue fields
                    }
                    newlines += 1
                    complete = true
                    break fields
                }
            }
            _ = complete
            let recordLine = line
            line += newlines
            // Unescape "" inside quoted fields, in place (the text only shrinks).
            if spans.anyEscaped {
                let m = mutable ? UnsafeMutablePointer(mutating: base) : nil
                for f in 0..<spans.count where spans.escaped[f] {
                    if let m {
                        var w = spans.starts[f], r = spans.starts[f]
                        while r < spans.ends[f] {
                            m[w] = m[r]
                            r += (m[r] == quote && r + 1 < spans.ends[f] && m[r + 1] == quote) ? 2 : 1
                            w += 1
                        }
                        spans.ends[f] = w
                    } else {
                        // The caller's chunk is read-only: parse this record again from our own copy.
                        pending.append(contentsOf: UnsafeBufferPointer(rebasing: b[recordStart..<n]))
                        line = recordLine
                        try consumePending(final: final, body)
                        return n
                    }
                }
            }
            // A blank line is no record.
            if spans.count == 1 && b[recordStart] != quote && isBlank(b, spans.starts[0], spans.ends[0]) { continue }
            try body(CSVRecord(base: base, starts: UnsafeBufferPointer(start: spans.starts, count: spans.count),
                               ends: UnsafeBufferPointer(start: spans.ends, count: spans.count), line: recordLine))
        }
        return pos
    }
}

/// A line of only spaces and tabs is a blank line, not a record with one empty field.
@inline(__always)
private func isBlank(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
    var i = start
    while i < end { if b[i] != 32 && b[i] != 9 { return false }; i += 1 }
    return true
}

/// Growable storage for one record's field boundaries.
final class FieldSpans {
    private(set) var starts: UnsafeMutablePointer<Int>
    private(set) var ends: UnsafeMutablePointer<Int>
    private(set) var escaped: UnsafeMutablePointer<Bool>
    private var capacity = 64
    var count = 0 { didSet { if count == 0 { anyEscaped = false } } }
    private(set) var anyEscaped = false

    init() {
        starts = .allocate(capacity: capacity); ends = .allocate(capacity: capacity); escaped = .allocate(capacity: capacity)
    }

    deinit { starts.deallocate(); ends.deallocate(); escaped.deallocate() }

    @inline(__always)
    func append(_ start: Int, _ end: Int, _ isEscaped: Bool) {
        if count == capacity { grow() }
        starts[count] = start; ends[count] = end; escaped[count] = isEscaped
        anyEscaped = anyEscaped || isEscaped
        count += 1
    }

    private func grow() {
        let newCapacity = capacity * 2
        func moved<T>(_ old: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<T> {
            let p = UnsafeMutablePointer<T>.allocate(capacity: newCapacity)
            p.moveInitialize(from: old, count: capacity)
            old.deallocate()
            return p
        }
        starts = moved(starts); ends = moved(ends); escaped = moved(escaped)
        capacity = newCapacity
    }
}

/// One record, valid only inside the closure it is passed to.
public struct CSVRecord {
    let base: UnsafePointer<UInt8>
    let starts: UnsafeBufferPointer<Int>
    let ends: UnsafeBufferPointer<Int>
    /// The physical line the record starts on (1 = the header).
    public let line: Int

    public var count: Int { starts.count }

    /// The field's bytes with surrounding spaces trimmed; empty if the row has fewer fields.
    @inline(__always)
    public func bytes(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        guard i >= 0 && i < starts.count else { return UnsafeBufferPointer(start: base, count: 0) }
        var lo = starts[i], hi = ends[i]
        while lo < hi && (base[lo] == 32 || base[lo] == 9) { lo += 1 }
        while hi > lo && (base[hi - 1] == 32 || base[hi - 1] == 9) { hi -= 1 }
        return UnsafeBufferPointer(start: base + lo, count: hi - lo)
    }

    public func string(_ i: Int) -> String { String(decoding: bytes(i), as: UTF8.self) }

    public func isEmpty(_ i: Int) -> Bool { bytes(i).isEmpty }
}
