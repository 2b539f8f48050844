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

    /// Loads `sources` side by side. Each feed's source name is `names[i]` when given, else
    /// `CanonicalID.slug` of its file name; every ID of the feed is then `name:local`, however
    /// many feeds are loaded, so an ID saved today still resolves after another feed is added.
    /// Two feeds with the same name, or a name that cannot name a source, are refused.
    public static func load(_ sources: [any GTFSSource], names: [String?] = [],
                            progress: ((Progress) -> Void)? = nil) throws(FeedError) -> Result {
        var builder = TimetableBuilder()
        var notices: [ImportNotice] = []
        var rowCounts: [String: Int] = [:]
        // File names in messages carry the feed's name only when there are several.
        let several = sources.count > 1
        var seenNames: [String: String] = [:]
        for (i, source) in sources.enumerated() {
            let given = i < names.count ? names[i] : nil
            let name = given ?? CanonicalID.slug(source.name)
            guard CanonicalID.isValidSourceName(name) else {
                throw FeedError(code: "invalidName", location: SourceLocation(file: source.name),
                                message: "'\(name)' cannot name a feed: use lower-case letters, digits and '-' (at most 40), as in --feed NAME=PATH")
            }
            if let other = seenNames[name] {
                throw FeedError(code: "duplicateName", location: SourceLocation(file: source.name),
                                message: "two feeds are named '\(name)'\(other == source.name ? "" : " (\(other) and \(source.name))"); "
                                    + "give each its own name with --feed NAME=PATH")
            }
            seenNames[name] = source.name
            var feed = FeedImport(source: source, name: name, prefix: name + ":", qualifiesFiles: several, progress: progress)
            do {
                try feed.load(into: &builder, notices: &notices)
            } catch let e as FeedError {
                var located = e
                if several { located.location.file = "\(name)/\(e.location.file)" }
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
    /// `names` as in `load(_:names:progress:)`.
    public static func load(paths: [URL], names: [String?] = [], progress: ((Progress) -> Void)? = nil) throws(FeedError) -> Result {
        var sources: [any GTFSSource] = []
        for url in paths { sources.append(try openGTFSSource(url)) }
        return try load(sources, names: names, progress: progress)
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
