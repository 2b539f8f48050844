/// A CSV file held as bytes, split into records, with the byte offsets where a
/// replica's ID suffix goes (the end of each non-empty renamed field, inside its quotes).
/// Blanks at the end of a line are dropped (WMATA's agency.txt has one after a closing quote).
struct CSVTemplate {
    let bytes: [UInt8]
    let header: Range<Int>
    /// Header field names, without quotes.
    let columns: [String]
    var recordStart: [Int] = []
    var recordEnd: [Int] = []
    /// Insertion offsets of record `i` are `inserts[insertStart[i]..<insertStart[i + 1]]`.
    var insertStart: [Int] = [0]
    var inserts: [Int] = []
    /// Raw field ranges of record `i` are kept only for the columns asked for in `keep`.
    var kept: [[Range<Int>]] = []

    var recordCount: Int { recordStart.count }

    /// Splits `bytes` into records; `rename` names the columns whose values get a suffix.
    init(_ input: [UInt8], rename: Set<String>, keep: [String] = []) {
        // A UTF-8 byte order mark would stick to the first column's name.
        bytes = input.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(input.dropFirst(3)) : input
        var i = 0
        let n = bytes.count
        // First record: the header.
        let source = bytes
        let (headerRange, headerFields, afterHeader) = CSVTemplate.record(in: source, from: 0)
        header = headerRange
        columns = headerFields.map { r in
            var s = String(decoding: source[r], as: UTF8.self).trimmingSpaces()
            if s.hasPrefix("\"") && s.hasSuffix("\"") && s.count >= 2 { s = String(s.dropFirst().dropLast()) }
            return s
        }
        let renameIndices = Set(columns.indices.filter { rename.contains(columns[$0]) })
        let keepIndices = keep.map { columns.firstIndex(of: $0) }
        i = afterHeader
        while i < n {
            let (range, fields, next) = CSVTemplate.record(in: bytes, from: i)
            i = next
            if range.isEmpty { continue }
            recordStart.append(range.lowerBound)
            recordEnd.append(range.upperBound)
            for c in renameIndices.sorted() where c < fields.count {
                let f = fields[c]
                var end = f.upperBound
                var start = f.lowerBound
                while start < end, bytes[start] == 0x20 { start += 1 }
                while end > start, bytes[end - 1] == 0x20 { end -= 1 }
                if end > start, bytes[end - 1] == 0x22, bytes[start] == 0x22 { end -= 1; start += 1 }
                if end > start { inserts.append(end) }
            }
            insertStart.append(inserts.count)
            if !keep.isEmpty {
                kept.append(keepIndices.map { k in k.flatMap { $0 < fields.count ? fields[$0] : nil } ?? (0..<0) })
            }
        }
    }

    /// The value of a kept field, unquoted and trimmed.
    func keptValue(record: Int, _ k: Int) -> String {
        var s = String(decoding: bytes[kept[record][k]], as: UTF8.self).trimmingSpaces()
        if s.hasPrefix("\"") && s.hasSuffix("\"") && s.count >= 2 { s = String(s.dropFirst().dropLast()) }
        return s
    }

    /// One record starting at `start`: its range (without line ending), field ranges, and where the next begins.
    static func record(in bytes: [UInt8], from start: Int) -> (Range<Int>, [Range<Int>], Int) {
        var fields: [Range<Int>] = []
        var fieldStart = start
        var inQuotes = false
        var i = start
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if inQuotes {
                if b == 0x22 { inQuotes = false }
            } else if b == 0x22 {
                inQuotes = true
            } else if b == 0x2C {
                fields.append(fieldStart..<i)
                fieldStart = i + 1
            } else if b == 0x0A {
                var end = i
                while end > start, bytes[end - 1] == 0x0D || bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
                fields.append(fieldStart..<Swift.max(fieldStart, end))
                return (start..<end, fields, i + 1)
            }
            i += 1
        }
        var end = n
        while end > start, bytes[end - 1] == 0x0D || bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 || bytes[end - 1] == 0x0A { end -= 1 }
        fields.append(fieldStart..<Swift.max(fieldStart, end))
        return (start..<end, fields, n)
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
