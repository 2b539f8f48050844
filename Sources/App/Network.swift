import Foundation
import GTFS
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
    }

    public enum LoadError: Error, CustomStringConvertible {
        case feed(FeedError)
        case snapshot(SnapshotError)
        case mixed

        public var description: String {
            switch self {
            case .feed(let e): "cannot use the feed: \(e)"
            case .snapshot(let e): "cannot use the snapshot: \(e)"
            case .mixed: "give either one snapshot or any number of feeds, not both"
            }
        }
    }

    /// The bundled default: the MRT Jakarta North–South line (see ATTRIBUTION.md).
    public static var defaultFeedURL: URL {
        Bundle.module.url(forResource: "DefaultNetwork/mrt-jakarta-ns-2026", withExtension: "zip")
            ?? Bundle.module.bundleURL.appendingPathComponent("DefaultNetwork/mrt-jakarta-ns-2026.zip")
    }

    public static let defaultName = "MRT Jakarta North–South line (bundled)"

    /// Loads the named paths: one snapshot, or feeds (zips or folders). No paths: the bundled default.
    public static func load(_ paths: [String], progress: ((GTFSImporter.Progress) -> Void)? = nil) throws(LoadError) -> Loaded {
        if paths.isEmpty {
            do {
                let r = try GTFSImporter.load([ZipGTFSSource(url: defaultFeedURL)], progress: progress)
                return Loaded(timetable: r.timetable, notices: r.notices, rowCounts: r.rowCounts, origin: defaultName)
            } catch { throw .feed(error) }
        }
        let urls = paths.map { URL(fileURLWithPath: $0) }
        let snapshots = urls.filter(isSnapshot)
        if !snapshots.isEmpty {
            guard urls.count == 1 else { throw .mixed }
            do {
                return Loaded(timetable: try Timetable.loadSnapshot(from: urls[0]), notices: [], rowCounts: [:], origin: paths[0])
            } catch { throw .snapshot(error) }
        }
        do {
            let r = try GTFSImporter.load(paths: urls, progress: progress)
            return Loaded(timetable: r.timetable, notices: r.notices, rowCounts: r.rowCounts, origin: paths.joined(separator: ", "))
        } catch { throw .feed(error) }
    }

    static func isSnapshot(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let prefix = (try? handle.read(upToCount: 8)) ?? Data()
        return Timetable.isSnapshot([UInt8](prefix))
    }
}
