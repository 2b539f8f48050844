@testable import GTFS
import Testing
import Timetable

/// A big file read in pieces on several threads gives the rows, lines and errors of a reading from its start.
@Suite("reading a file in pieces")
struct PiecesTests {
    /// A stop_times-like file of about 1.3 MB: quoted fields holding commas and escaped quotes, some CRLF line ends.
    /// `middle`: a row added after row `rows / 3`.
    static func text(rows: Int = 70_000, bad: Set<Int> = [], quoted: Bool = true, middle: String? = nil) -> String {
        var lines = ["\u{FEFF}trip_id,stop_id,headsign\n"]
        for i in 0..<rows {
            let headsign = quoted && i % 7 == 0 ? "\"Dock, \"\"Pier\"\" \(i % 13)\"" : "Town \(i % 11)"
            lines.append("T\(i / 20),\(bad.contains(i) ? "BAD" : "S\(i % 97)"),\(headsign)\(i % 5 == 0 ? "\r\n" : "\n")")
            if i == rows / 3, let middle { lines.append(middle) }
        }
        return lines.joined()
    }

    struct Row: Equatable { var line: Int; var fields: [String] }

    /// Every row with its line in the file, read in `parts` pieces (1: from the start, streaming), and how many pieces
    /// were read.
    static func read(_ text: String, parts: Int) throws -> (rows: [Row], pieces: Int) {
        let source = InMemoryGTFSSource(name: "t", files: ["f.txt": text])
        let pieces = try GTFSTable.readInPieces(source, "f.txt", required: ["stop_id"], parts: parts, piece: { _, _ in [Row]() }) { rows, t, record in
            if record.string(1) == "BAD" { throw t.error("unknownReference", line: record.line, field: "stop_id", "stop_id 'BAD' is not in stops.txt") }
            rows.append(Row(line: record.line, fields: (0..<record.count).map { record.string($0) }))
        }
        return (pieces.flatMap { piece in piece.piece.map { Row(line: $0.line + piece.lineOffset, fields: $0.fields) } }, pieces.count)
    }

    static func rows(_ text: String, parts: Int) throws -> [Row] { try read(text, parts: parts).rows }

    @Test("the same rows, fields and lines in 2, 3 or 4 pieces as from the start", arguments: [2, 3, 4])
    func sameRows(parts: Int) throws {
        let text = Self.text()
        #expect(text.utf8.count > GTFSTable.pieceThreshold)
        let whole = try Self.rows(text, parts: 1)
        #expect(whole.count == 70_000)
        #expect(whole[0] == Row(line: 2, fields: ["T0", "S0", "Dock, \"Pier\" 0"]))
        let inPieces = try Self.read(text, parts: parts)
        #expect(inPieces.pieces == parts)
        #expect(inPieces.rows == whole)
    }

    @Test("an error names the file's own line, and of two errors the first in the file wins")
    func errorLines() throws {
        for bad in [[69_990], [40_000, 69_990], [10, 69_990]] {
            let error = try #require(throws: FeedError.self) { try Self.rows(Self.text(bad: Set(bad)), parts: 2) }
            #expect(error.location.line == bad[0] + 2)
            #expect(error.location.file == "f.txt")
            #expect(error.code == "unknownReference")
        }
    }

    @Test("a quoted field with line breaks where the file is cut: read again from the start, the same rows", arguments: [2, 3])
    func quotedLineBreaksAtTheCut(parts: Int) throws {
        // Long enough that the file's first third and its middle both fall inside it. No other quotes: the pieces after
        // the cut then read without an error, and only the cut's own check can tell.
        let middle = "T9,S9,\"" + String(repeating: "a line\n", count: 100_000) + "\"\n"
        let text = Self.text(quoted: false, middle: middle)
        let whole = try Self.rows(text, parts: 1)
        #expect(whole.count == 70_001)
        #expect(whole[23_334].line == 23_336 && whole[23_334].fields[2].hasPrefix("a line\na line"))
        #expect(whole[23_335].line == 23_337 + 100_000)
        let inPieces = try Self.read(text, parts: parts)
        #expect(inPieces.pieces == 1)
        #expect(inPieces.rows == whole)
    }

    @Test("a quoted field never closed in the last piece: the message of a reading from the start")
    func unclosedQuote() throws {
        let text = Self.text() + "T1,S1,\"never closed\n"
        let streamed = try #require(throws: FeedError.self) { try Self.rows(text, parts: 1) }
        let pieces = try #require(throws: FeedError.self) { try Self.rows(text, parts: 2) }
        #expect(streamed.code == "malformedCSV")
        #expect(pieces == streamed)
        #expect(streamed.message.contains("line 70002"))
    }
}
