import Timetable

/// A GTFS file's header: which column holds which field.
struct GTFSTable {
    let file: String
    let columns: [String: Int]

    /// Field names are matched in lower case; of two columns with one name, the first counts.
    init(file: String, header: [String]) {
        var columns: [String: Int] = [:]
        for (i, name) in header.enumerated() where columns[name.lowercased()] == nil { columns[name.lowercased()] = i }
        self.file = file
        self.columns = columns
    }

    func column(_ name: String) -> Int? { columns[name] }

    func required(_ name: String) throws(FeedError) -> Int {
        guard let c = columns[name] else {
            throw FeedError(code: "missingColumn", location: SourceLocation(file: file, line: 1, field: name),
                            message: "required column '\(name)' is missing")
        }
        return c
    }

    func error(_ code: String, line: Int, field: String, _ message: String) -> FeedError {
        FeedError(code: code, location: SourceLocation(file: file, line: line, field: field), message: message)
    }

    /// Reads a file: the header first, then `body` for each data row.
    /// `required` columns are checked on the header, so a file with a header and no rows is checked too.
    static func read(_ source: any GTFSSource, _ file: String, required: [String] = [], progress: ((Int) -> Void)? = nil,
                     header: (GTFSTable) throws -> Void = { _ in },
                     _ body: (GTFSTable, CSVRecord) throws -> Void) throws {
        var reader = CSVReader()
        var table: GTFSTable?
        var bytes = 0
        func handle(_ record: CSVRecord) throws {
            if let table {
                try body(table, record)
            } else {
                let t = GTFSTable(file: file, header: (0..<record.count).map { record.string($0) })
                for name in required { _ = try t.required(name) }
                table = t
                try header(t)
            }
        }
        do {
            try source.read(file) { chunk in
                try reader.feed(chunk) { try handle($0) }
                bytes += chunk.count
                progress?(bytes)
            }
            try reader.finish { try handle($0) }
        } catch let e as CSVReader.MalformedError {
            throw FeedError(code: "malformedCSV", location: SourceLocation(file: file, line: e.line), message: e.message)
        } catch let e as FeedError {
            throw e
        } catch {
            throw FeedError(code: "unreadable", location: SourceLocation(file: file), message: "cannot read the file (\(error))")
        }
        if table == nil {
            throw FeedError(code: "missingColumn", location: SourceLocation(file: file, line: 1), message: "the file is empty: it has no header row")
        }
    }
}
