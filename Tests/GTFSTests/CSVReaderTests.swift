import GTFS
import Testing

/// One record copied out of the reader's closure.
struct Row: Equatable, CustomStringConvertible {
    var line: Int
    var fields: [String]

    init(_ line: Int, _ fields: [String]) { self.line = line; self.fields = fields }

    var description: String { "\(line): \(fields)" }
}

/// Feeds `bytes` to a fresh reader in chunks of `chunkSize` bytes (all at once if nil).
func parseCSV(_ bytes: [UInt8], chunkSize: Int? = nil) throws -> [Row] {
    var reader = CSVReader()
    var rows: [Row] = []
    let collect: (CSVRecord) -> Void = { record in
        rows.append(Row(record.line, (0..<record.count).map { record.string($0) }))
    }
    let size = max(1, chunkSize ?? bytes.count)
    var start = 0
    while start < bytes.count {
        let end = min(start + size, bytes.count)
        try bytes[start..<end].withUnsafeBytes { try reader.feed($0, collect) }
        start = end
    }
    try reader.finish(collect)
    return rows
}

func parseCSV(_ text: String, chunkSize: Int? = nil) throws -> [Row] {
    try parseCSV(Array(text.utf8), chunkSize: chunkSize)
}

@Suite("CSVReader")
struct CSVReaderTests {
    @Test func lfLineEnds() throws {
        let rows = try parseCSV("a,b\n1,2\n3,4\n")
        #expect(rows == [Row(1, ["a", "b"]), Row(2, ["1", "2"]), Row(3, ["3", "4"])])
    }

    @Test func crlfLineEndsLeaveNoCarriageReturn() throws {
        let rows = try parseCSV("a,b\r\n1,2\r\n3,\r\n")
        #expect(rows == [Row(1, ["a", "b"]), Row(2, ["1", "2"]), Row(3, ["3", ""])])
        #expect(!rows.flatMap(\.fields).contains { $0.contains("\r") })
    }

    @Test func utf8ByteOrderMarkIsDropped() throws {
        let rows = try parseCSV([0xEF, 0xBB, 0xBF] + Array("stop_id,stop_name\nS1,Café\n".utf8))
        #expect(rows == [Row(1, ["stop_id", "stop_name"]), Row(2, ["S1", "Café"])])
        #expect(rows.first?.fields.first?.utf8.count == 7)
    }

    @Test func byteOrderMarkOnlyAtTheStartIsDropped() throws {
        // A BOM later in the file is data, not a marker.
        let rows = try parseCSV([0xEF, 0xBB, 0xBF] + Array("a\n\u{FEFF}b\n".utf8))
        #expect(rows == [Row(1, ["a"]), Row(2, ["\u{FEFF}b"])])
    }

    @Test func inputShorterThanAByteOrderMark() throws {
        #expect(try parseCSV("a") == [Row(1, ["a"])])
        #expect(try parseCSV("ab", chunkSize: 1) == [Row(1, ["ab"])])
        #expect(try parseCSV("") == [])
    }

    @Test func onlyAByteOrderMarkGivesNoRecords() throws {
        #expect(try parseCSV([0xEF, 0xBB, 0xBF]) == [])
        #expect(try parseCSV([0xEF, 0xBB, 0xBF], chunkSize: 1) == [])
        #expect(try parseCSV([0xEF, 0xBB, 0xBF, 0x0A, 0x78], chunkSize: 2) == [Row(2, ["x"])])
    }

    @Test func quoteInsideAnUnquotedFieldIsLiteral() throws {
        #expect(try parseCSV("a,b\n5\" screen,x\"y\n") == [Row(1, ["a", "b"]), Row(2, ["5\" screen", "x\"y"])])
    }

    @Test func quotedFieldHoldingCommas() throws {
        let rows = try parseCSV("id,name\n1,\"Main St, North\"\n")
        #expect(rows == [Row(1, ["id", "name"]), Row(2, ["1", "Main St, North"])])
    }

    @Test func quotedFieldWithEscapedQuotes() throws {
        let rows = try parseCSV("id,name\n1,\"The \"\"Big\"\" Stop\"\n2,\"\"\"\"\n")
        #expect(rows == [Row(1, ["id", "name"]), Row(2, ["1", "The \"Big\" Stop"]), Row(3, ["2", "\""])])
    }

    @Test func quotedFieldWithEmbeddedNewlinesAdvancesTheNextRecordsLine() throws {
        let rows = try parseCSV("id,name,x\n1,\"first\nsecond\nthird\",y\n2,plain,z\n3,\"a\r\nb\",w\r\n4,last,v\n")
        #expect(rows == [
            Row(1, ["id", "name", "x"]),
            Row(2, ["1", "first\nsecond\nthird", "y"]),
            Row(5, ["2", "plain", "z"]),
            Row(6, ["3", "a\r\nb", "w"]),
            Row(8, ["4", "last", "v"]),
        ])
    }

    @Test func spacesAfterAClosingQuoteAreIgnored() throws {
        // WMATA's agency.txt ends its last quoted field with a space before the newline.
        let input = "a,b,c\n\"1\" ,\"x\"\t,\"y\" \n\"2\",\"z\"  "
        let expected = [Row(1, ["a", "b", "c"]), Row(2, ["1", "x", "y"]), Row(3, ["2", "z"])]
        for size in [1, 2, 3, input.utf8.count] {
            #expect(try parseCSV(input, chunkSize: size) == expected, "chunk size \(size)")
        }
    }

    @Test func emptyQuotedFieldIsARecord() throws {
        // `""` on its own line is a record with one empty field, not a blank line.
        let rows = try parseCSV("a\n\"\"\nb\n")
        #expect(rows == [Row(1, ["a"]), Row(2, [""]), Row(3, ["b"])])
    }

    @Test func blankLinesAreSkippedButCounted() throws {
        let rows = try parseCSV("a,b\n\n1,2\r\n\r\n\n3,4\n\n\n")
        #expect(rows == [Row(1, ["a", "b"]), Row(3, ["1", "2"]), Row(6, ["3", "4"])])
    }

    @Test func finalLineWithoutNewline() throws {
        #expect(try parseCSV("a,b\n1,2") == [Row(1, ["a", "b"]), Row(2, ["1", "2"])])
        #expect(try parseCSV("a,b\n1,\"x, y\"") == [Row(1, ["a", "b"]), Row(2, ["1", "x, y"])])
    }

    @Test func trailingCommaGivesAnEmptyLastField() throws {
        let rows = try parseCSV("a,b,c\n1,2,\n3,4,")
        #expect(rows == [Row(1, ["a", "b", "c"]), Row(2, ["1", "2", ""]), Row(3, ["3", "4", ""])])
        #expect(rows.map(\.fields.count) == [3, 3, 3])
    }

    @Test func rowsWithFewerFieldsThanTheHeader() throws {
        var reader = CSVReader()
        var seen: [(count: Int, third: String, thirdIsEmpty: Bool, thirdBytes: Int)] = []
        let input = Array("a,b,c\n1\n1,2\n".utf8)
        let collect: (CSVRecord) -> Void = { r in seen.append((r.count, r.string(2), r.isEmpty(2), r.bytes(2).count)) }
        try input.withUnsafeBytes { try reader.feed($0, collect) }
        try reader.finish(collect)
        #expect(seen.map(\.count) == [3, 1, 2])
        #expect(seen.map(\.third) == ["c", "", ""])
        #expect(seen.map(\.thirdIsEmpty) == [false, true, true])
        #expect(seen.map(\.thirdBytes) == [1, 0, 0])
    }

    @Test func fieldsAreTrimmedOfSpacesAndTabs() throws {
        var reader = CSVReader()
        var out: [(String, Int, Bool)] = []
        let input = Array(" a ,\tb\t,   ,\" q \"\n".utf8)
        let collect: (CSVRecord) -> Void = { r in
            for i in 0..<r.count { out.append((r.string(i), r.bytes(i).count, r.isEmpty(i))) }
        }
        try input.withUnsafeBytes { try reader.feed($0, collect) }
        try reader.finish(collect)
        #expect(out.map(\.0) == ["a", "b", "", "q"])
        #expect(out.map(\.1) == [1, 1, 0, 1])
        #expect(out.map(\.2) == [false, false, true, false])
    }

    @Test func negativeOrOutOfRangeFieldIndexIsEmpty() throws {
        var reader = CSVReader()
        var out: [String] = []
        let input = Array("x,y\n".utf8)
        try input.withUnsafeBytes { try reader.feed($0) { r in out = [r.string(-1), r.string(2), r.string(99)] } }
        try reader.finish { _ in }
        #expect(out == ["", "", ""])
    }

    /// Every tricky case in one input: BOM, CRLF, LF, quoted commas, escaped
    /// quotes, embedded line breaks, blank lines, trailing comma, short rows,
    /// quote right before CRLF, padding after a closing quote, no final newline.
    static let tricky: [UInt8] = [0xEF, 0xBB, 0xBF] + Array((
        "id,name,desc\r\n" +
        "1,\"a, b\",\"say \"\"hi\"\"\"\r\n" +
        "\r\n" +
        "2,\"multi\nline\",x\n" +
        "3,,\n" +
        "4,short\n" +
        "\n" +
        "5,\"q\"\r\n" +
        "6,\"\"\"\",\"\"\n" +
        "\"8\" ,\"sp\" \t\r\n" +
        "\"7\",\"crlf\r\ninside\",\"end\""
    ).utf8)

    static let trickyExpected: [Row] = [
        Row(1, ["id", "name", "desc"]),
        Row(2, ["1", "a, b", "say \"hi\""]),
        Row(4, ["2", "multi\nline", "x"]),
        Row(6, ["3", "", ""]),
        Row(7, ["4", "short"]),
        Row(9, ["5", "q"]),
        Row(10, ["6", "\"", ""]),
        Row(11, ["8", "sp"]),
        Row(12, ["7", "crlf\r\ninside", "end"]),
    ]

    @Test func trickyInputWholeGivesTheExpectedRecords() throws {
        #expect(try parseCSV(Self.tricky) == Self.trickyExpected)
    }

    @Test func trickyInputGivesIdenticalRecordsForEveryChunkSize() throws {
        for size in 1...Self.tricky.count {
            let rows = try parseCSV(Self.tricky, chunkSize: size)
            #expect(rows == Self.trickyExpected, "chunk size \(size)")
        }
    }

    @Test(arguments: [1, 2, 3, 7])
    func escapedQuotesSplitAcrossChunksAfterAFastPathRecord(chunkSize: Int) throws {
        // The first chunk is parsed in place (read-only); the escaped record must be re-read from a copy.
        let input = Array("a,b\n1,\"x\"\"y\"\n2,\"p,\"\"q\"\"\"\n3,z\n".utf8)
        let expected = [Row(1, ["a", "b"]), Row(2, ["1", "x\"y"]), Row(3, ["2", "p,\"q\""]), Row(4, ["3", "z"])]
        #expect(try parseCSV(input) == expected)
        #expect(try parseCSV(input, chunkSize: chunkSize) == expected)
        // First chunk ends mid-way through the second record.
        var reader = CSVReader()
        var rows: [Row] = []
        let collect: (CSVRecord) -> Void = { r in rows.append(Row(r.line, (0..<r.count).map { r.string($0) })) }
        try input[0..<10].withUnsafeBytes { try reader.feed($0, collect) }
        try input[10...].withUnsafeBytes { try reader.feed($0, collect) }
        try reader.finish(collect)
        #expect(rows == expected)
    }

    @Test func unterminatedQuoteThrowsWithTheLineWhereTheQuoteOpens() throws {
        let input = "a,b\n1,2\n3,\"never closed\n4,5\n6,7\n"
        for size in [1, 5, input.utf8.count] {
            let error = try #require(throws: CSVReader.MalformedError.self) { try parseCSV(input, chunkSize: size) }
            #expect(error.line == 3, "chunk size \(size)")
            #expect(error.message.contains("line 3"))
        }
    }

    @Test func unterminatedQuoteAfterAMultilineFieldCountsEarlierLineBreaks() throws {
        // The record starts on line 2; its second field opens on line 3 and is never closed.
        let error = try #require(throws: CSVReader.MalformedError.self) {
            try parseCSV("a,b\n\"x\ny\",\"open\nmore\n")
        }
        #expect(error.line == 3)
    }

    @Test func junkAfterAClosingQuoteThrowsWithItsLine() throws {
        let error = try #require(throws: CSVReader.MalformedError.self) { try parseCSV("a,b\n1,2\n\"x\"y,z\n") }
        #expect(error.line == 3)
        let multiline = try #require(throws: CSVReader.MalformedError.self) {
            try parseCSV("a,b\n\"x\ny\"z,w\n", chunkSize: 1)
        }
        #expect(multiline.line == 3)
    }

    @Test func recordsBeforeAMalformedOneAreStillDelivered() throws {
        var reader = CSVReader()
        var lines: [Int] = []
        let input = Array("a\nb\n\"c\n".utf8)
        let thrown = #expect(throws: CSVReader.MalformedError.self) {
            try input.withUnsafeBytes { try reader.feed($0) { lines.append($0.line) } }
            try reader.finish { lines.append($0.line) }
        }
        #expect(thrown?.line == 3)
        #expect(lines == [1, 2])
    }

    @Test func errorThrownByTheBodyPropagates() throws {
        struct Stop: Error, Equatable { var line: Int }
        var reader = CSVReader()
        let input = Array("a\nb\nc\n".utf8)
        #expect(throws: Stop(line: 2)) {
            try input.withUnsafeBytes { chunk in
                try reader.feed(chunk) { r in if r.line == 2 { throw Stop(line: 2) } }
            }
        }
    }
}
