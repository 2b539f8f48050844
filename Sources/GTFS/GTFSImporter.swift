import Foundation
import OnwardCore
import Timetable

/// Reads one or more GTFS feeds into a `Timetable`.
///
/// A problem that makes a feed unusable throws a `FeedError` naming the file,
/// line and field; the caller keeps whatever it had before. A problem confined
/// to one row or trip skips it and adds an `ImportNotice`.
public struct GTFSImporter {
    /// Progress through a feed: which file, and bytes read of its size.
    public struct Progress: Sendable {
        public var feed: String
        public var file: String
        public var bytesRead: Int
        public var totalBytes: Int?
    }

    public struct Result: Sendable {
        public var timetable: Timetable
        /// The feeds' shapes, kept apart from the timetable (see `ShapeTable`).
        public var shapes: ShapeTable
        public var notices: [ImportNotice]
        /// Rows read per file name, summed over feeds.
        public var rowCounts: [String: Int]
    }

    public static func load(_ sources: [any GTFSSource], progress: ((Progress) -> Void)? = nil) throws(FeedError) -> Result {
        var builder = TimetableBuilder()
        var notices: [ImportNotice] = []
        var rowCounts: [String: Int] = [:]
        let prefixed = sources.count > 1
        var seenNames: Set<String> = []
        for source in sources {
            var name = source.name
            var n = 2
            while seenNames.contains(name) { name = "\(source.name)-\(n)"; n += 1 }
            seenNames.insert(name)
            var feed = FeedImport(source: source, name: name, prefix: prefixed ? name + ":" : "", progress: progress)
            do {
                try feed.load(into: &builder, notices: &notices)
            } catch let e as FeedError {
                var located = e
                if prefixed { located.location.file = "\(name)/\(e.location.file)" }
                throw located
            } catch {
                throw FeedError(code: "unreadable", location: SourceLocation(file: name), message: "\(error)")
            }
            for (file, count) in feed.rowCounts { rowCounts[file, default: 0] += count }
        }
        do {
            let timetable = try builder.build(notices: &notices)
            let shapes = builder.buildShapes()
            if let d = shapes.duplicate {
                throw FeedError(code: "duplicateKey", location: SourceLocation(file: "shapes.txt", field: "shape_pt_sequence"),
                                message: "shape '\(d.shape)' has shape_pt_sequence \(d.sequence) twice")
            }
            return Result(timetable: timetable, shapes: shapes.table, notices: notices, rowCounts: rowCounts)
        } catch {
            throw error as? FeedError ?? FeedError(code: "invalidValue", location: SourceLocation(file: "stop_times.txt"), message: "\(error)")
        }
    }

    /// Opens each path (zip or folder) and loads them side by side.
    public static func load(paths: [URL], progress: ((Progress) -> Void)? = nil) throws(FeedError) -> Result {
        var sources: [any GTFSSource] = []
        for url in paths { sources.append(try openGTFSSource(url)) }
        return try load(sources, progress: progress)
    }
}

/// Opens a feed from a zip file or a folder.
public func openGTFSSource(_ url: URL) throws(FeedError) -> any GTFSSource {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw FeedError(code: "unreadable", location: SourceLocation(file: url.path), message: "no such file or folder")
        }
        if isDirectory.boolValue { return DirectoryGTFSSource(url: url) }
        return try ZipGTFSSource(url: url)
}
