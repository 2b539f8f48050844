import DataSources
import Foundation
import GTFS
import GTFSSource
import OnwardCore
import Timetable

/// Turns what the user named (feeds, snapshots, or nothing) into a loaded timetable.
/// The only place that knows where the bundled default network lives.
public enum Network {
    /// What a load produced, with where it came from for messages.
    public struct Loaded: Sendable {
        public var timetable: Timetable
        public var notices: [ImportNotice]
        public var rowCounts: [String: Int]
        /// "bundled MRT Jakarta North–South line", a snapshot path, or feed paths.
        public var origin: String
        /// The feeds' shapes, for the map's transit layer.
        public var shapes: ShapeTable
        /// The version of each feed, when they are kept in the data folder (fetched from URLs, or watched files).
        public var versions: [FeedVersion]
        /// The IDs earlier kept versions had and this one has not.
        public var retired: RetiredIDs

        public init(timetable: Timetable, notices: [ImportNotice] = [], rowCounts: [String: Int] = [:], origin: String, shapes: ShapeTable = .empty,
                    versions: [FeedVersion] = [], retired: RetiredIDs = RetiredIDs()) {
            self.timetable = timetable; self.notices = notices; self.rowCounts = rowCounts; self.origin = origin; self.shapes = shapes
            self.versions = versions; self.retired = retired
        }

        /// The timetable as served, with what was built and kept with it.
        var served: ServedTimetable { ServedTimetable(timetable: timetable, shapes: shapes, versions: versions, retired: retired) }

        /// A kept version as loaded.
        init(_ served: ServedTimetable, origin: String) {
            self.init(timetable: served.timetable, origin: origin, shapes: served.shapes, versions: served.versions, retired: served.retired)
        }
    }

    public enum LoadError: Error, CustomStringConvertible {
        case feed(FeedError)
        case snapshot(SnapshotError)
        case mixed
        /// A name given to a snapshot that is not the one its IDs were compiled with.
        case snapshotName(path: String, given: String, stored: [String])
        /// `--realtime NAME=…` names no loaded feed.
        case unknownRealtimeFeed(name: String, known: [String])
        /// A feed named like a protocol source, whose IDs would be read as that source's.
        case nameTaken(String)
        /// The feeds as configured cannot be kept (a URL without a name, two feeds of one name, a file that fails).
        case configuration(String)

        public var description: String {
            switch self {
            case .feed(let e): "cannot use the feed: \(e)"
            case .snapshot(let e): "cannot use the snapshot: \(e)"
            case .mixed: "give either one snapshot or any number of feeds, not both"
            case .snapshotName(let path, let given, let stored):
                "\(path) was imported as '\(stored.joined(separator: "', '"))', and its IDs carry that name, so it cannot be "
                    + "loaded as '\(given)'; import it again with `onward import \(given)=FEED`, or drop '\(given)='"
            case .unknownRealtimeFeed(let name, let known):
                "--realtime \(name)=…: no static feed is named '\(name)' (loaded: \(known.joined(separator: ", ")))"
            case .configuration(let problem): problem
            case .nameTaken(let name):
                "a feed cannot be named '\(name)': that is the name of a built-in source; give it another with --feed NAME=PATH"
            }
        }
    }

    /// The bundled default: the MRT Jakarta North–South line (see ATTRIBUTION.md).
    public static var defaultFeedURL: URL {
        Bundle.module.url(forResource: "DefaultNetwork/mrt-jakarta-ns-2026", withExtension: "zip")
            ?? Bundle.module.bundleURL.appendingPathComponent("DefaultNetwork/mrt-jakarta-ns-2026.zip")
    }

    public static let defaultName = "MRT Jakarta North–South line (bundled)"
    /// The bundled network's source name, fixed so its IDs (`mrt-jakarta:SLBB`) never change.
    public static let defaultSourceName = "mrt-jakarta"

    /// A feed as written on the command line or in configuration: `NAME=PATH` names it (its
    /// IDs are then `NAME:…`); a plain `PATH` takes its name from the file's name. A path that
    /// exists as written is a path, even with an `=` in it.
    public struct FeedArgument: Sendable, Hashable {
        public var name: String?
        public var path: String

        public init(_ text: String) {
            if let eq = text.firstIndex(of: "="), CanonicalID.isValidSourceName(String(text[..<eq])),
               !FileManager.default.fileExists(atPath: text) {
                name = String(text[..<eq])
                path = String(text[text.index(after: eq)...])
            } else {
                name = nil
                path = text
            }
        }
    }

    /// Loads the named paths: one snapshot, or feeds (zips or folders), each `PATH` or `NAME=PATH`.
    /// No paths: the bundled default, named `mrt-jakarta`.
    /// - Parameter identifying: give each feed its version (the SHA-256 of its file, its service dates), for
    ///   the server's health and `onward sources`; other commands skip reading every byte of the file again.
    public static func load(_ paths: [String], identifying: Bool = false,
                            progress: ((GTFSImporter.Progress) -> Void)? = nil) throws(LoadError) -> Loaded {
        if paths.isEmpty {
            do {
                let r = try GTFSImporter.load([ZipGTFSSource(url: defaultFeedURL)], names: [defaultSourceName], progress: progress)
                return Loaded(timetable: r.timetable, notices: r.notices, rowCounts: r.rowCounts, origin: defaultName, shapes: r.shapes,
                              versions: identifying ? versions(r.timetable, files: [defaultFeedURL.path], locations: ["bundled"]) : [])
            } catch { throw .feed(error) }
        }
        let arguments = paths.map(FeedArgument.init)
        let urls = arguments.map { URL(fileURLWithPath: $0.path) }
        let snapshots = urls.filter(isSnapshot)
        if !snapshots.isEmpty {
            guard urls.count == 1 else { throw .mixed }
            let timetable: Timetable
            do { timetable = try Timetable.loadSnapshot(from: urls[0]) } catch { throw .snapshot(error) }
            // The name was fixed at import, in every ID stored: a different one cannot be given now.
            if let given = arguments[0].name, timetable.feeds.map(\.name) != [given] {
                throw .snapshotName(path: arguments[0].path, given: given, stored: timetable.feeds.map(\.name))
            }
            // Shapes are a section of their own: a snapshot without them still serves boards.
            let shapes = (try? ShapeTable.loadSnapshot(from: urls[0])) ?? .empty
            return Loaded(timetable: timetable, notices: [], rowCounts: [:], origin: arguments[0].path, shapes: shapes,
                          versions: identifying ? versions(timetable, files: Array(repeating: urls[0].path, count: timetable.feeds.count),
                                                           locations: Array(repeating: urls[0].lastPathComponent, count: timetable.feeds.count)) : [])
        }
        do {
            let r = try GTFSImporter.load(paths: urls, names: arguments.map(\.name), progress: progress)
            return Loaded(timetable: r.timetable, notices: r.notices, rowCounts: r.rowCounts,
                          origin: arguments.map(\.path).joined(separator: ", "), shapes: r.shapes,
                          versions: identifying ? versions(r.timetable, files: urls.map(\.path), locations: urls.map(\.lastPathComponent)) : [])
        } catch { throw .feed(error) }
    }

    /// The static feed each realtime source belongs to, by the source's name: the feed its
    /// `NAME=` names, else the first feed. A name no feed has is refused.
    public static func bind(_ realtime: [NamedFeedLocation], to timetable: Timetable) throws(LoadError) -> [String: FeedSummary] {
        var bound: [String: FeedSummary] = [:]
        for r in realtime {
            if let name = r.explicitName {
                guard let feed = timetable.feed(named: name) else {
                    throw .unknownRealtimeFeed(name: name, known: timetable.feeds.map(\.name))
                }
                bound[r.name] = feed
            } else if let first = timetable.feeds.first {
                bound[r.name] = first
            }
        }
        return bound
    }

    /// Each feed's version as read from its file (or folder): the hash of its bytes, the file's
    /// modification time as when it was fetched, and its service dates.
    static func versions(_ tt: Timetable, files: [String], locations: [String]) -> [FeedVersion] {
        zip(tt.feeds, zip(files, locations)).map { feed, place in
            let modified = (try? FileManager.default.attributesOfItem(atPath: place.0)[.modificationDate] as? Date).map(Instant.init) ?? .now()
            let dates = tt.serviceDates(of: feed.name)
            return FeedVersion(feed: feed.name, location: place.1, hash: (try? FileDigest.digest(of: place.0)) ?? "", fetchedAt: modified,
                               publisherVersion: feed.version, firstDate: dates?.first, lastDate: dates?.last)
        }
    }

    static func isSnapshot(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let prefix = (try? handle.read(upToCount: 8)) ?? Data()
        return Timetable.isSnapshot([UInt8](prefix))
    }
}
