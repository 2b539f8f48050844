import Dispatch
import OnwardCore
import Timetable

extension GTFSTable {
    /// Files smaller than this are read in one piece: threads cost more than they save.
    static let pieceThreshold = 1 << 20

    /// Reads a file's rows as `read` does, but, where the source holds the whole file (a folder, text in memory) and it
    /// is big, in contiguous pieces, one per core (at most four), each on its own thread. On two cores, a national
    /// feed's stop_times.txt (1.2 GB, 25 million rows) was a third of its import, on one core.
    ///
    /// `piece` makes the state one piece collects into, given the header and the bytes from the piece's start to the
    /// file's end (room to reserve: the first piece's rows may take in the others'); `row` reads each row into it.
    /// Pieces are returned in file order, each with the number to add to the lines it recorded (`row.line` counts from
    /// the piece's start). Errors name the file's own line; when several pieces fail, the first
    /// in the file wins, as in a reading from the start. If a quoted field holds a line break where the file was cut,
    /// the pieces are dropped and the file is read again in one.
    static func readInPieces<Piece>(_ source: any GTFSSource, _ file: String, required: [String] = [],
                                    parts: Int = min(Cores.available, 4), progress: ((Int) -> Void)? = nil,
                                    piece: (GTFSTable, _ bytesToEnd: Int) throws -> Piece,
                                    row: (inout Piece, GTFSTable, CSVRecord) throws -> Void) throws -> [(piece: Piece, lineOffset: Int)] {
        if parts > 1, (source.size(of: file) ?? 0) >= pieceThreshold {
            let inPieces = try source.withBytes(file) { bytes in
                try readInPieces(bytes, file, parts: parts, required: required, progress: progress, piece: piece, row: row)
            }
            if let inPieces = inPieces ?? nil { return inPieces }
        }
        var whole: Piece?
        try read(source, file, required: required, progress: progress, header: { t in
            whole = try piece(t, source.size(of: file) ?? 0)
        }) { t, record in try row(&whole!, t, record) }
        guard let whole else { return [] }  // `read` throws when there is no header
        return [(whole, 0)]
    }

    /// nil: read the file from its start instead (its header is quoted, or a piece ends inside a quoted field).
    private static func readInPieces<Piece>(_ bytes: UnsafeRawBufferPointer, _ file: String, parts: Int, required: [String],
                                            progress: ((Int) -> Void)?,
                                            piece: (GTFSTable, Int) throws -> Piece,
                                            row: (inout Piece, GTFSTable, CSVRecord) throws -> Void) throws -> [(piece: Piece, lineOffset: Int)]? {
        let lf: UInt8 = 10, quote: UInt8 = 34
        guard let headerEnd = bytes.firstIndex(of: lf).map({ $0 + 1 }), !bytes[..<headerEnd].contains(quote) else { return nil }
        var headerReader = CSVReader()
        var header: [String] = []
        try headerReader.feed(UnsafeRawBufferPointer(rebasing: bytes[..<headerEnd])) { record in
            header = (0..<record.count).map { record.string($0) }
        }
        guard headerReader.isBetweenRecords, !header.isEmpty else { return nil }
        let table = GTFSTable(file: file, header: header)
        for name in required { _ = try table.required(name) }

        // Cut after the first line end at or past each even share of the rows' bytes.
        var bounds = [headerEnd]
        for k in 1..<parts {
            var cut = max(bounds[bounds.count - 1], headerEnd + (bytes.count - headerEnd) * k / parts)
            while cut < bytes.count && bytes[cut - 1] != lf { cut += 1 }
            if cut > bounds[bounds.count - 1] && cut < bytes.count { bounds.append(cut) }
        }
        bounds.append(bytes.count)
        let count = bounds.count - 1

        // One slot per piece, each written by its own thread only; read once every thread is done.
        let results = UnsafeMutableBufferPointer<Result<PieceRead<Piece>, any Error>?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer { results.deinitialize(); results.deallocate() }
        func readPiece(_ k: Int) {
            results[k] = Result {
                let slice = UnsafeRawBufferPointer(rebasing: bytes[bounds[k]..<bounds[k + 1]])
                var state = try piece(table, bytes.count - bounds[k])
                var reader = CSVReader(midFile: true)
                var offset = 0
                while offset < slice.count {
                    let end = min(offset + (1 << 20), slice.count)
                    try reader.feed(UnsafeRawBufferPointer(rebasing: slice[offset..<end])) { try row(&state, table, $0) }
                    offset = end
                    // The first piece reports for all: progress callers are not made for several threads.
                    if k == 0 { progress?(min(headerEnd + offset * count, bytes.count - 1)) }
                }
                if k == count - 1 { try reader.finish { try row(&state, table, $0) } }
                return PieceRead(piece: state, lines: reader.line - 1, complete: reader.isBetweenRecords)
            }
        }
        withoutActuallyEscaping(readPiece) { readPiece in
            // Unchecked: each thread writes only its piece's slot, and everything it reads outlives the threads
            // (`concurrentPerform` returns when every one has).
            let work = UncheckedSendable(readPiece)
            DispatchQueue.concurrentPerform(iterations: count) { work.value($0) }
        }
        var pieces: [(piece: Piece, lineOffset: Int)] = []
        var lineOffset = 1  // the header's line
        for result in results {
            switch result! {
            case .failure(is CSVReader.MalformedError):
                return nil  // its message counts lines from the piece's start: the reading from the start words it
            case .failure(var error as FeedError):
                if let line = error.location.line { error.location.line = line + lineOffset }
                throw error
            case .failure(let error):
                throw FeedError(code: "unreadable", location: SourceLocation(file: file), message: "cannot read the file (\(error))")
            case .success(let read):
                guard read.complete else { return nil }
                pieces.append((read.piece, lineOffset))
                lineOffset += read.lines
            }
        }
        progress?(bytes.count)
        return pieces
    }
}

/// What one piece's thread hands back: its state, how many lines it spanned, and whether it ended between records.
private struct PieceRead<Piece> {
    var piece: Piece
    var lines: Int
    var complete: Bool
}

private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
